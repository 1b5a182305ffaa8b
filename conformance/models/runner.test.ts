// The model runner against an in-memory "server" with a planted bug: the failure is shrunk to a short
// sequence and reported once, with the seed, the counterexample and the replay command.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../harness/check.js';
import type { ConformanceClient, FailureSink } from '../harness/client.js';
import type { Exchange, Failure, TargetOptions } from '../harness/types.js';
import { modelExpect, runModel, type ModelTools } from './runner.js';

/** A queue that loses the item pushed when it already holds three (the planted bug). */
class BuggyQueue {
  items: number[] = [];
  push(value: number) {
    if (this.items.length === 3) return; // bug
    this.items.push(value);
  }
  pop() {
    return this.items.shift();
  }
  size() {
    return this.items.length;
  }
}

interface Model {
  items: number[];
}
interface Real {
  queue: BuggyQueue;
  /** The sink the runner gave the client (a contract problem reported here fails the sequence). */
  sink: FailureSink;
}

const fakeExchange = (status: number, body: unknown): Exchange => ({
  request: { method: 'GET', url: 'memory://queue', headers: {} },
  response: { status, headers: {}, body, text: JSON.stringify(body) },
  durationMs: 0,
});

class Push implements fc.AsyncCommand<Model, Real> {
  constructor(readonly value: number) {}
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    real.queue.push(this.value);
    model.items.push(this.value);
  }
  toString() {
    return `Push(${this.value})`;
  }
}

class Pop implements fc.AsyncCommand<Model, Real> {
  check(model: Readonly<Model>) {
    return model.items.length > 0;
  }
  async run(model: Model, real: Real) {
    const got = real.queue.pop();
    const expected = model.items.shift();
    modelExpect(got === expected, 'queue-fifo', `popped ${got}, expected ${expected}`, fakeExchange(200, { popped: got }));
  }
  toString() {
    return 'Pop';
  }
}

class Size implements fc.AsyncCommand<Model, Real> {
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    modelExpect(real.queue.size() === model.items.length, 'queue-size', `size ${real.queue.size()}, expected ${model.items.length}`, fakeExchange(200, { size: real.queue.size() }));
  }
  toString() {
    return 'Size';
  }
}

/** Reports a contract problem through the client's sink whenever the queue is empty. */
class ProblemOnEmpty implements fc.AsyncCommand<Model, Real> {
  check() {
    return true;
  }
  async run(model: Model, real: Real) {
    if (model.items.length === 0) real.sink({ rule: 'response-conformance', message: 'getQueue: body does not match the 200 schema', exchange: fakeExchange(200, {}) });
  }
  toString() {
    return 'ProblemOnEmpty';
  }
}

const OPTIONS: TargetOptions = { baseUrl: 'http://fake.test', apiKey: 'k', contract: 'v1.3.0', profile: 'simulator', seed: 4242, runs: 100 };

function fakeContext(seed = OPTIONS.seed): { ctx: CheckContext; failures: Failure[] } {
  const failures: Failure[] = [];
  // Only what the runner touches: the client (for its sink), the options, the seed and runs, fail().
  const client = { withSink: (sink: FailureSink) => ({ sink }) } as unknown as ConformanceClient;
  const ctx = {
    options: { ...OPTIONS, seed },
    client,
    seed,
    runs: OPTIONS.runs,
    fail: (rule: string, message: string, exchange?: Exchange, extra?: Partial<Failure>) => failures.push({ rule, message, exchange, ...extra }),
  } as unknown as CheckContext;
  return { ctx, failures };
}

const initial = async (tools: ModelTools) => ({ model: { items: [] as number[] }, real: { queue: new BuggyQueue(), sink: (tools.client as unknown as { sink: FailureSink }).sink } });

describe('runModel', () => {
  it('shrinks a planted bug to a short sequence and reports it once with seed and replay', async () => {
    const { ctx, failures } = fakeContext();
    const summary = await runModel<Model, Real>({
      ctx,
      checkId: 'fake.queue-model',
      name: 'queue',
      commands: [fc.integer({ min: 0, max: 9 }).map((v) => new Push(v)), fc.constant(null).map(() => new Pop()), fc.constant(null).map(() => new Size())],
      initial,
      maxCommands: 30,
    });
    expect(summary.failed).toBe(true);
    expect(failures).toHaveLength(1);
    const [failure] = failures;
    expect(failure.rule).toBe('model-queue');
    expect(failure.seed).toBe(4242);
    expect(failure.message).toMatch(/^queue-(size|fifo): /);
    expect(failure.message).toContain('fast-check path');
    expect(failure.exchange?.request.url).toBe('memory://queue');
    // Minimal: four pushes (the fourth is lost) and one observation.
    const steps = failure.counterexample!.split(',');
    expect(steps.length).toBeLessThanOrEqual(5);
    expect(steps.filter((step) => step.startsWith('Push')).length).toBe(4);
    expect(failure.replay).toContain('--only fake.queue-model');
    expect(failure.replay).toContain('--seed 4242');
  });

  it('replays the same failure from the same seed', async () => {
    const run = async () => {
      const { ctx, failures } = fakeContext(777);
      await runModel<Model, Real>({
        ctx,
        checkId: 'fake.queue-model',
        name: 'queue',
        commands: [fc.integer({ min: 0, max: 9 }).map((v) => new Push(v)), fc.constant(null).map(() => new Pop()), fc.constant(null).map(() => new Size())],
        initial,
        maxCommands: 30,
      });
      return failures[0]?.counterexample;
    };
    const first = await run();
    expect(first).toBeDefined();
    expect(await run()).toBe(first);
  });

  it('turns contract problems reported to the clients into a shrunk violation', async () => {
    const { ctx, failures } = fakeContext();
    await runModel<Model, Real>({
      ctx,
      checkId: 'fake.queue-model',
      name: 'queue',
      commands: [fc.integer({ min: 0, max: 9 }).map((v) => new Push(v)), fc.constant(null).map(() => new ProblemOnEmpty())],
      initial,
      maxCommands: 10,
    });
    expect(failures).toHaveLength(1);
    expect(failures[0].message).toMatch(/^response-conformance: after ProblemOnEmpty: getQueue/);
    expect(failures[0].counterexample).toBe('ProblemOnEmpty');
  });

  it('passes a correct server and stops at its time limit without leaving a sequence running', async () => {
    const { ctx, failures } = fakeContext();
    let running = 0;
    class Slow implements fc.AsyncCommand<Model, Real> {
      check() {
        return true;
      }
      async run() {
        running++;
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
      }
      toString() {
        return 'Slow';
      }
    }
    const summary = await runModel<Model, Real>({ ctx, checkId: 'fake.slow', name: 'slow', commands: [fc.constant(null).map(() => new Slow())], initial, sequences: 1_000, maxCommands: 5, timeLimitMs: 300 });
    expect(failures).toEqual([]);
    expect(summary.interrupted).toBe(true);
    expect(summary.sequences).toBeLessThan(1_000);
    expect(running).toBe(0);
  });
});
