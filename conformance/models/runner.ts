// The model-based runner: fast-check generates command sequences (seeded by the run), each sequence runs
// against the server from a fresh start, and the first sequence that breaks a rule is shrunk to a short one.
// The check records ONE failure for it: the rule `model-<name>`, the shrunk sequence, the seed, the
// fast-check path and the command that replays it. Commands are classes with `check(model)` and
// `run(model, real)`; `run` sends its requests through the clients the runner hands out and throws a
// ModelViolation (with the exchange) when the server breaks a rule. Responses the contract does not allow
// are violations too: the runner routes the clients' contract problems into the sequence, so they shrink
// like any other rule instead of flooding the report.
import fc from 'fast-check';
import type { AdminClient } from '../harness/admin.js';
import type { CheckContext } from '../harness/check.js';
import type { ConformanceClient } from '../harness/client.js';
import { replayCommand } from '../harness/runner.js';
import type { Exchange, Failure } from '../harness/types.js';

/** A broken rule found while running a command: what, and the exchange that shows it. */
export class ModelViolation extends Error {
  constructor(
    readonly rule: string,
    message: string,
    readonly exchange?: Exchange,
  ) {
    super(message);
    this.name = 'ModelViolation';
  }
}

/** Throws a ModelViolation unless `condition` holds. */
export function modelExpect(condition: unknown, rule: string, message: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new ModelViolation(rule, message, exchange);
}

/** The clients a sequence works with: contract problems of their responses become violations. */
export interface ModelTools {
  client: ConformanceClient;
  admin?: AdminClient;
}

export interface RunModelOptions<Model extends object, Real> {
  ctx: CheckContext;
  /** The id of the running check (for the replay command). */
  checkId: string;
  /** The model's name: the failure's rule is `model-<name>`. */
  name: string;
  commands: Array<fc.Arbitrary<fc.AsyncCommand<Model, Real>>>;
  /** A fresh start for one sequence (a new tenant, an empty model). */
  initial: (tools: ModelTools) => Promise<{ model: Model; real: Real }>;
  /** Checks at the end of each sequence (e.g. every job reaches a terminal state). */
  finish?: (model: Model, real: Real) => Promise<void>;
  /** Sequences to run; `ctx.runs` by default. */
  sequences?: number;
  maxCommands?: number;
  /** Wall-time bound of the whole run, shrinking included (fast-check stops and keeps what it has). */
  timeLimitMs?: number;
}

export interface ModelRunSummary {
  sequences: number;
  failed: boolean;
  interrupted: boolean;
  durationMs: number;
}

/** Collects the contract problems the clients report during one sequence. */
class ProblemProbe {
  private problems: Failure[] = [];
  readonly sink = (failure: Failure) => void this.problems.push(failure);
  reset() {
    this.problems = [];
  }
  /** Throws the first problem collected since the last reset, as a violation. */
  raise(after: string) {
    const first = this.problems[0];
    if (!first) return;
    const more = this.problems.length > 1 ? ` (and ${this.problems.length - 1} more)` : '';
    this.problems = [];
    throw new ModelViolation(first.rule, `${after}: ${first.message}${more}`, first.exchange);
  }
}

/** A command whose clients' contract problems are raised right after it ran. */
class Probed<Model extends object, Real> implements fc.AsyncCommand<Model, Real> {
  constructor(
    private readonly inner: fc.AsyncCommand<Model, Real>,
    private readonly probe: ProblemProbe,
  ) {}
  check(model: Readonly<Model>) {
    return this.inner.check(model);
  }
  async run(model: Model, real: Real) {
    await this.inner.run(model, real);
    this.probe.raise(`after ${this.inner.toString()}`);
  }
  toString() {
    return this.inner.toString();
  }
}

export async function runModel<Model extends object, Real>(options: RunModelOptions<Model, Real>): Promise<ModelRunSummary> {
  const { ctx, name } = options;
  const probe = new ProblemProbe();
  const tools: ModelTools = { client: ctx.client.withSink(probe.sink), admin: ctx.admin?.withSink(probe.sink) };
  const commands = options.commands.map((arbitrary) => arbitrary.map((command) => new Probed(command, probe) as fc.AsyncCommand<Model, Real>));
  const numRuns = Math.max(1, options.sequences ?? ctx.runs);
  let sequences = 0;
  /** The sequence under way: the time limit abandons it, so the runner waits for it before returning. */
  let running: Promise<unknown> = Promise.resolve();

  const property = fc.asyncProperty(fc.commands(commands, { maxCommands: options.maxCommands ?? 10, size: 'max' }), (sequence) => {
    const run = runSequence(sequence);
    running = run.catch(() => {});
    return run;
  });
  const runSequence = async (sequence: Iterable<fc.AsyncCommand<Model, Real>>) => {
    sequences++;
    probe.reset();
    let started: { model: Model; real: Real } | undefined;
    const setup = async () => {
      started = await options.initial(tools);
      probe.raise('while setting up the sequence');
      return started;
    };
    await fc.asyncModelRun(setup, sequence);
    if (options.finish && started) {
      await options.finish(started.model, started.real);
      probe.raise('at the end of the sequence');
    }
  };

  const began = performance.now();
  const details = await fc.check(property, {
    seed: ctx.seed,
    numRuns,
    plugins: [fc.interruptAfterTimeLimit(options.timeLimitMs ?? 45_000)],
  });
  await running; // never leave requests (or clock moves) of this check behind
  const summary: ModelRunSummary = { sequences, failed: details.failed, interrupted: details.interrupted, durationMs: Math.round(performance.now() - began) };
  if (!details.failed) return summary;

  const error = details.errorInstance;
  const counterexample = details.counterexample ? String((details.counterexample as unknown[])[0]) : undefined;
  const shown = counterexample ? counterexample.replace(/\s*\/\*replayPath=.*\*\/\s*$/, '') : undefined;
  const rule = `model-${name}`;
  const what =
    error instanceof ModelViolation
      ? `${error.rule}: ${error.message}`
      : counterexample === undefined
        ? `the ${name} model stopped before any sequence finished (time limit of ${options.timeLimitMs ?? 45_000} ms)`
        : `the sequence threw: ${error instanceof Error ? error.message : String(error)}`;
  const path = details.counterexamplePath ?? undefined;
  const message = shown
    ? `${what} — shrunk sequence (${details.numShrinks} shrinks): [${shown}]${path ? `; fast-check path ${path}` : ''}`
    : what;
  ctx.fail(rule, message, error instanceof ModelViolation ? error.exchange : undefined, {
    seed: details.seed,
    counterexample: shown,
    replay: `${replayCommand(ctx.options, [options.checkId])}  # keep --seed ${details.seed}: the same seed regenerates the sequences${path ? ` (fast-check path ${path})` : ''}`,
  });
  return summary;
}
