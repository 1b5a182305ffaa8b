// GET /_sim/lifecycles (lifecycles.ts): every x-lifecycle machine's table as transition() reads it, the states
// the contracts declare, and the rows a sandbox-wide defect or variant adds or takes away.
import { afterEach, describe, expect, it } from 'vitest';
import { CONTRACT_VERSIONS, loadContract } from '../../contracts/lib/bundle.js';
import { contractLifecycle, contractLifecycleNames } from '../../contracts/lib/lifecycles.js';
import type { TestSandbox } from '../testing/contract-client.js';
import { sandboxWith } from './defects.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

interface Table {
  name: string;
  states: string[];
  terminal: string[];
  moves: Array<{ from: string[]; action: string; to: string | null; deviation: string | null }>;
}
const tables = async (s: TestSandbox): Promise<Table[]> => {
  const answer = await s.admin('GET', '/_sim/lifecycles');
  expect(answer.status).toBe(200);
  return answer.body.machines;
};
const table = async (s: TestSandbox, name: string) => (await tables(s)).find((t) => t.name === name)!;

describe('GET /_sim/lifecycles', () => {
  it('answers one table per lifecycle the contracts declare, with the states and terminal states they declare', async () => {
    sandbox = await sandboxWith([]);
    const answered = await tables(sandbox);
    const docs = CONTRACT_VERSIONS.map((v) => loadContract(v));
    const declared = [...new Set(docs.flatMap((d) => contractLifecycleNames(d)))].sort();
    expect(answered.map((t) => t.name).sort()).toEqual(declared);
    for (const t of answered) {
      const doc = docs.find((d) => contractLifecycleNames(d).includes(t.name))!;
      const contract = contractLifecycle(doc, t.name);
      expect(new Set(t.states), t.name).toEqual(new Set(contract.states));
      // sima-workflow declares no terminal states (spec 3.5 shows no transitions): the table's own stand.
      if (contract.terminal.length) expect(new Set(t.terminal), t.name).toEqual(new Set(contract.terminal));
      for (const m of t.moves) for (const s of [...m.from, ...(m.to ? [m.to] : [])]) expect(t.states, `${t.name} ${m.action}`).toContain(s);
    }
  });

  it("gives the job's own table, and a move whose next state depends on the request as to null", async () => {
    sandbox = await sandboxWith([]);
    expect((await table(sandbox, 'job')).moves).toEqual([
      { from: ['PENDING'], action: 'start', to: 'PROCESSING', deviation: null },
      { from: ['PROCESSING'], action: 'resume', to: 'PROCESSING', deviation: null },
      { from: ['PROCESSING'], action: 'succeed', to: 'COMPLETED', deviation: null },
      { from: ['PROCESSING'], action: 'fail', to: 'FAILED', deviation: null },
    ]);
    const credit = (await table(sandbox, 'claim-submission')).moves.find((m) => m.action === 'confirm-credit');
    expect(credit).toMatchObject({ to: null, deviation: null });
  });

  it('is the table in force: a defect switched on adds its row, named, or takes one away', async () => {
    sandbox = await sandboxWith([]);
    expect((await sandbox.admin('PUT', '/_sim/defects', { active: ['jobs.failed-reads-completed', 'jobs.stuck-pending'] })).status).toBe(200);
    const moves = (await table(sandbox, 'job')).moves;
    expect(moves).toContainEqual({ from: ['PROCESSING'], action: 'fail', to: 'COMPLETED', deviation: 'jobs.failed-reads-completed' });
    expect(moves.some((m) => m.action === 'start')).toBe(false);
    expect((await sandbox.admin('PUT', '/_sim/defects', { active: [] })).status).toBe(200);
    expect((await table(sandbox, 'job')).moves.every((m) => m.deviation === null)).toBe(true);
  });
});
