// For simulator tests: a lifecycle machine must have exactly the states and terminal states the contract
// declares for it (`x-lifecycle`, `x-terminal-states`), in every contract version that declares it. Only
// the state sets are compared: the transitions are the simulator's reading of the spec, not the contract's.
import { CONTRACT_VERSIONS, loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle, contractLifecycleNames } from '../../contracts/lib/lifecycles.js';
import type { Machine } from '../kernel/machine.js';

type StateSets = Pick<Machine<string, string, never>, 'name' | 'states' | 'terminal'>;

export interface MachineContractResult {
  /** The versions that declare the lifecycle, and so were compared. */
  versions: string[];
  /** One line per difference, e.g. `v1.3.0 terminal: contract has X, the machine does not`. */
  mismatches: string[];
}

function differences(label: string, machine: readonly string[], contract: readonly string[]): string[] {
  const missing = contract.filter((s) => !machine.includes(s));
  const extra = machine.filter((s) => !contract.includes(s));
  return [
    ...(missing.length ? [`${label}: the contract has ${missing.join(', ')}, the machine does not`] : []),
    ...(extra.length ? [`${label}: the machine has ${extra.join(', ')}, the contract does not`] : []),
  ];
}

/** Compares the machine's states and terminal states (as sets) with the contract lifecycle, per version. */
export function compareMachineWithContract(machine: StateSets, lifecycle: string, versions: readonly string[] = CONTRACT_VERSIONS): MachineContractResult {
  const result: MachineContractResult = { versions: [], mismatches: [] };
  for (const version of versions) {
    const doc = loadContract(version);
    if (!contractLifecycleNames(doc).includes(lifecycle)) continue;
    const declared = contractLifecycle(doc, lifecycle);
    result.versions.push(version);
    result.mismatches.push(
      ...differences(`${version} states`, machine.states, declared.states),
      ...differences(`${version} terminal`, machine.terminal, declared.terminal),
    );
  }
  return result;
}

/** Throws unless the machine matches the contract in every given version that declares the lifecycle, and
 *  at least one does (a lifecycle no version declares would make the comparison vacuous). */
export function machineMatchesContract(machine: StateSets, lifecycle: string, versions: readonly string[] = CONTRACT_VERSIONS): string[] {
  const { versions: compared, mismatches } = compareMachineWithContract(machine, lifecycle, versions);
  if (!compared.length) throw new Error(`no contract version of ${versions.join(', ')} declares lifecycle ${lifecycle}`);
  if (mismatches.length) throw new Error(`the ${machine.name} machine differs from contract lifecycle ${lifecycle}:\n  ${mismatches.join('\n  ')}`);
  return compared;
}
