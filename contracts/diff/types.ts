// The vocabulary of the contract change gate (spec 9): rules, changes, results.
import type { Json, OpenApiDocument } from '../lib/bundle.js';

export type Severity = 'breaking' | 'warning' | 'info';
export const SEVERITIES: Severity[] = ['breaking', 'warning', 'info'];

export interface Rule {
  /** Stable id, e.g. `request-property-required-added`. */
  id: string;
  severity: Severity;
  /** What the rule detects, one sentence. */
  detects: string;
  /** A minimal before/after, one line each side (for CHANGE-RULES.md). */
  example: { before: string; after: string };
  /** More general rules this one makes redundant when both fire at the same operation and location
   *  (an error response's `code` enum gaining a value is an error-code change, not a plain enum change). */
  supersedes?: string[];
}

/** A catalogue entry on one line: `rule(id, severity, detects, before, after, supersedes?)`. */
export const rule = (id: string, severity: Severity, detects: string, before: string, after: string, supersedes?: string[]): Rule => ({ id, severity, detects, example: { before, after }, ...(supersedes ? { supersedes } : {}) });

export interface Change {
  rule: string;
  severity: Severity;
  /** `GET /api/jobs`, `webhook job.completed`, or `document`. */
  operation: string;
  /** Where in the operation (`query.limit`, `request body application/json .skus[]`, `response 200 .status`). */
  location: string;
  message: string;
  before?: Json;
  after?: Json;
}

export interface DiffResult {
  base: string;
  head: string;
  /** The day deprecation sunsets are judged against (ISO date). */
  date: string;
  changes: Change[];
  counts: Record<Severity, number>;
}

export interface DiffOptions {
  /** "Today" for deprecation sunsets (default: now). */
  date?: Date;
}

/** What rule modules receive: both documents, the day, and where to report a change. */
export interface DiffContext {
  base: OpenApiDocument;
  head: OpenApiDocument;
  date: Date;
  emit(rule: string, change: Omit<Change, 'rule' | 'severity'>): void;
}

/** Direction a schema is judged in: a request schema constrains the client, a response schema the server. */
export type Direction = 'request' | 'response';
