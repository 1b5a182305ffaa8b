// A journey is a scripted walk of one of the spec's canonical workflows (spec 1: A, B, C). Its failures
// name the step they happened in ("step 4 of B (review): ..."), so a report reads as the walk it broke.
// Invariants are pure functions (the *.invariants.ts files) returning what they found wrong; a journey
// reports each finding under the step it checked it in.
import type { CheckContext } from '../harness/check.js';
import type { Exchange } from '../harness/types.js';

/** What an invariant found wrong: the rule it names and a message (no step, no exchange: the journey adds them). */
export interface Breach {
  rule: string;
  message: string;
}

export class Steps {
  private number = 0;
  private name = 'start';

  constructor(
    private readonly ctx: CheckContext,
    readonly workflow: 'A' | 'B' | 'C',
  ) {}

  /** Starts the next step; later failures carry its number and name. */
  next(name: string): void {
    this.number += 1;
    this.name = name;
  }

  /** The prefix of this step's messages. */
  get label(): string {
    return `step ${this.number} of ${this.workflow} (${this.name})`;
  }

  fail(rule: string, message: string, exchange?: Exchange): void {
    this.ctx.fail(rule, `${this.label}: ${message}`, exchange);
  }

  expect(condition: boolean, rule: string, message: string, exchange?: Exchange): boolean {
    return this.ctx.expect(condition, rule, `${this.label}: ${message}`, exchange);
  }

  /** Reports each breach an invariant found; true when there was none. */
  hold(breaches: Breach[], exchange?: Exchange): boolean {
    for (const breach of breaches) this.fail(breach.rule, breach.message, exchange);
    return breaches.length === 0;
  }

  /** Ends the journey as skipped, saying at which step and why. */
  skip(reason: string): never {
    return this.ctx.skip(`${this.label}: ${reason}`);
  }
}
