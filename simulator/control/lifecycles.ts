// GET /_sim/lifecycles (sandbox-defined, contracts/sandbox-control.openapi.yaml; issue 29): the table of every
// lifecycle machine the contract marks with x-lifecycle, as in force now, so the console draws each
// lifecycle from the table transition() reads rather than from a copy of it. The sandbox-wide defects and
// variants switched on are applied (kernel/machine.ts tableOf), each row they put there naming its entry.
import { DOMAINS } from '../domains/manifests.js';
import type { Handler } from '../kernel/http/types.js';
import { tableOf, type Machine, type MachineSwitches } from '../kernel/machine.js';

interface LifecycleTable {
  name: string;
  states: string[];
  terminal: string[];
  moves: Array<{ from: string[]; action: string; to: string | null; deviation: string | null }>;
}

/** One machine under its contract name: its table in force, read each time (the defects switched on change it). */
function lifecycle<S extends string, A extends string, C>(name: string, machine: Machine<S, A, C>) {
  return (switches: MachineSwitches): LifecycleTable => ({
    name,
    states: [...machine.states],
    terminal: [...machine.terminal],
    // A computed next state (the outcome depends on the request) cannot be drawn as one edge: null.
    moves: tableOf(machine, switches).map((row) => ({ from: [...row.from], action: row.action, to: typeof row.to === 'string' ? row.to : null, deviation: row.deviation })),
  });
}

/** Every machine the contract marks with x-lifecycle, as the domains' manifests name them (domains/manifests.ts). */
export const LIFECYCLES = DOMAINS.flatMap((domain) => Object.entries(domain.lifecycles)).map(([name, machine]) => lifecycle(name, machine));

export function lifecycleHandlers(switches: MachineSwitches) {
  const listSandboxLifecycles: Handler<'listSandboxLifecycles'> = () => ({ status: 200, body: { machines: LIFECYCLES.map((table) => table(switches)) } });
  return { listSandboxLifecycles };
}
