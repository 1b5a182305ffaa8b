// What a client certification judges: the sandbox's record of one tenant's traffic (the request log of the
// control API, GET /_sim/requests) and of the webhook exchanges (GET /_sim/webhooks/deliveries), plus what
// the certifier itself did to provoke the client (the scenario's actions). Nothing comes from the client:
// it may be any program in any language.

import type { components } from '../contracts/generated/sandbox-control.js';

// The records are the control contract's own schemas (contracts/generated/sandbox-control.ts), never restated.
type ControlSchemas = components['schemas'];

/** One request of the tenant as the sandbox logged it (sandbox-control contract `RequestLogEntry`). */
export type LoggedRequest = ControlSchemas['RequestLogEntry'];

/** One attempt of a webhook delivery (sandbox-control contract `DeliveryAttempt`). */
export type DeliveryAttempt = ControlSchemas['DeliveryAttempt'];

/** One webhook delivery with its attempts (sandbox-control contract `Delivery`). */
export type Delivery = ControlSchemas['Delivery'];

/** Something the certifier did to the sandbox during the run (drawn on the timeline). */
export interface InjectedAction {
  /** Wall-clock time, ms since the epoch. */
  atMs: number;
  what: string;
  /** How far the tenant clock moved ahead of the wall clock in all, after this action (ms). */
  clockOffsetMs: number;
}

/** The evidence of one scenario run. */
export interface Evidence {
  scenario: string;
  tenantId: string;
  /** Chronological (oldest first). */
  requests: LoggedRequest[];
  deliveries: Delivery[];
  actions: InjectedAction[];
  startedAtMs: number;
  endedAtMs: number;
  /** The client's exit code (null: killed at the time limit) and its output's tail, shown, never judged. */
  exitCode: number | null;
  timedOut: boolean;
  outputTail: string;
}

export type Verdict = 'passed' | 'failed' | 'not exercised';

/** A rule's judgement of one run: what it looked at (evidence lines) and what broke it. */
export interface RuleOutcome {
  verdict: Verdict;
  /** What was judged, one line each (shown in the report whatever the verdict). */
  evidence: string[];
  /** Why it failed, one line each, naming the request ids. */
  failures: string[];
}

export interface ClientRule {
  id: string;
  title: string;
  /** The spec section, cited as "spec N". */
  spec: string;
  /** The sentence of the spec the rule is built on. */
  sentence: string;
  /** `required`: a failure fails the certificate; `recommended`: the spec says "may", a failure is a warning. */
  level: 'required' | 'recommended';
  /** How the evidence is read, including the tolerances (shown in the report). */
  how: string;
  judge(evidence: Evidence): RuleOutcome;
}

/** A rule's result over every scenario run of a certification. */
export interface RuleResult {
  id: string;
  title: string;
  spec: string;
  sentence: string;
  level: ClientRule['level'];
  how: string;
  verdict: Verdict;
  runs: Array<{ scenario: string } & RuleOutcome>;
}

export interface Certificate {
  tool: 'tfas-certify-client';
  baseUrl: string;
  command: string[];
  scenario: string;
  startedAt: string;
  finishedAt: string;
  /** Passed: no required rule failed and at least one rule was exercised. */
  certified: boolean;
  totals: { passed: number; failed: number; warnings: number; notExercised: number };
  rules: RuleResult[];
  runs: Evidence[];
}
