// The finding model's commands against an in-memory finding server: a server keeping spec 3.3 passes; one
// that lets reject leave CREDITED (a terminal state) fails once, shrunk to a short sequence, with the seed
// and the replay command; one that moves carrier-review out of DISPUTED fails on a sweep of refused moves.
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../harness/check.js';
import type { ConformanceClient, FailureSink } from '../../harness/client.js';
import type { Exchange, Failure, TargetOptions } from '../../harness/types.js';
import { findingTable, type FindingState } from '../../models/finding.model.js';
import { runModel } from '../../models/runner.js';
import { findingCommands, type Model, type Real } from './finding-model.js';

const IDS = ['f-1', 'f-2', 'f-3'];

/** Finding actions and the list, answered from memory; credit and reject from SUBMITTED and CARRIER_REVIEW. */
type Bug = 'none' | 'reject-after-credit' | 'carrier-review-from-disputed';

function memoryServer(bug: Bug) {
  const states = new Map<string, FindingState>(IDS.map((id) => [id, 'OPEN']));
  const answer = (method: string, url: string, status: number, body: unknown): Exchange => ({
    request: { method, url: `memory://${url}`, headers: {} },
    response: { status, headers: {}, body, text: JSON.stringify(body) },
    durationMs: 0,
  });
  const moves = (from: FindingState, action: string): FindingState | undefined => {
    if (action === 'credit' || action === 'reject') {
      if (bug === 'reject-after-credit' && action === 'reject' && from === 'CREDITED') return 'REJECTED';
      return from === 'SUBMITTED' || from === 'CARRIER_REVIEW' ? (action === 'credit' ? 'CREDITED' : 'REJECTED') : undefined;
    }
    if (bug === 'carrier-review-from-disputed' && action === 'carrier-review' && from === 'DISPUTED') return 'CARRIER_REVIEW';
    return findingTable.transitions.find((t) => t.from === from && t.by === `POST ${action}`)?.to;
  };
  const client = {
    async call(method: string, path: string): Promise<Exchange> {
      if (method === 'GET') return answer(method, path, 200, { findings: IDS.map((id) => ({ id, workflowStatus: states.get(id) })) });
      const [, , , , id, action] = path.split('/');
      const to = moves(states.get(id)!, action);
      if (!to) return answer(method, path, 409, { code: 'ACTION_NOT_ALLOWED', message: 'not from here', details: { subcode: 'invalid_transition' } });
      states.set(id, to);
      return answer(method, path, 200, { id, workflowStatus: to });
    },
  };
  return client as unknown as ConformanceClient;
}

const OPTIONS: TargetOptions = { baseUrl: 'http://fake.test', apiKey: 'k', contract: 'v1.3.0', profile: 'sandbox', seed: 90210, runs: 60 };

async function run(bug: Bug) {
  const failures: Failure[] = [];
  const ctx = {
    options: OPTIONS,
    seed: OPTIONS.seed,
    runs: OPTIONS.runs,
    client: { withSink: (_sink: FailureSink) => ({}) },
    fail: (rule: string, message: string, exchange?: Exchange, extra?: Partial<Failure>) => failures.push({ rule, message, exchange, ...extra }),
  } as unknown as CheckContext;
  // A fresh server per sequence, as the check's fresh start reads the states it holds.
  const summary = await runModel<Model, Real>({
    ctx,
    checkId: 'ship.finding-model',
    name: 'finding',
    commands: findingCommands(),
    initial: async () => ({ model: { states: IDS.map(() => 'OPEN' as const) }, real: { client: memoryServer(bug), ids: IDS } }),
    maxCommands: 12,
  });
  return { summary, failures };
}

describe('ship.finding-model on an in-memory server', () => {
  it('passes a server that keeps the table of spec 3.3', async () => {
    const { summary, failures } = await run('none');
    expect(failures).toEqual([]);
    expect(summary.sequences).toBe(60);
  });

  it('shrinks a reject that leaves CREDITED to the moves reaching it, with the seed and the replay command', async () => {
    const { failures } = await run('reject-after-credit');
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    expect(failure.rule).toBe('model-finding');
    expect(failure.message).toMatch(/^terminal-left: finding #\d: reject from CREDITED answered 200/);
    // dispute, submit, (carrier-review,) credit, reject on one finding: at most five moves.
    expect(failure.counterexample!.split(',').length).toBeLessThanOrEqual(5);
    // The last command sent the reject: a reject, an onward step, or a sweep of the moves CREDITED refuses.
    expect(failure.counterexample).toMatch(/((reject|onward)\(#\d\)|Sweep)$/);
    expect(failure.seed).toBe(90210);
    expect(failure.replay).toContain('--seed 90210');
    expect(failure.replay).toContain('--only ship.finding-model');
    expect(failure.exchange?.request.url).toMatch(/\/reject$/);
  });

  it('tries carrier-review from DISPUTED, which spec 3.3 refuses, and fails a server that moves it', async () => {
    const { failures } = await run('carrier-review-from-disputed');
    expect(failures).toHaveLength(1);
    expect(failures[0].message).toMatch(/^illegal-move-accepted: finding #\d: carrier-review from DISPUTED answered 200/);
    expect(failures[0].exchange?.request.url).toMatch(/\/carrier-review$/);
  });
});
