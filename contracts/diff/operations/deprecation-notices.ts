// Deprecation notices of operations and parameters (properties are the schema differ's), and removals judged
// against the notice BASE carried (spec 9.3).
import { isObject, type Json } from '../../lib/bundle.js';
import { deprecationProblems, isDeprecated, readDeprecation, removalAllowed } from '../deprecation.js';
import type { DiffContext } from '../types.js';

/** A removal: allowed (info `removal-after-sunset`) when BASE's node carried a complete, expired notice. */
export function reportRemoval(ctx: DiffContext, baseNode: Json | undefined, ruleId: string, change: { operation: string; location: string; message: string; before?: Json }): void {
  const verdict = removalAllowed(readDeprecation(baseNode), ctx.date);
  if (verdict.allowed) ctx.emit('removal-after-sunset', { ...change, message: `${change.message}; allowed: ${verdict.reason}` });
  else ctx.emit(ruleId, { ...change, message: `${change.message}, and the removal is not allowed: ${verdict.reason}` });
}

export function diffDeprecationNotice(ctx: DiffContext, base: Json | undefined, head: Json | undefined, operation: string, location: string): void {
  const wasDeprecated = isDeprecated(base);
  const isNowDeprecated = isDeprecated(head);
  if (!wasDeprecated && !isNowDeprecated) return;
  const subject = location === 'operation' ? operation : location;
  if (wasDeprecated && !isNowDeprecated) {
    ctx.emit('deprecation-withdrawn', { operation, location, message: `${subject} is no longer deprecated`, before: notice(base), after: null });
    return;
  }
  const headNotice = readDeprecation(head);
  const headProblems = headNotice ? deprecationProblems(headNotice) : ['it is marked deprecated without an x-deprecation notice'];
  if (!wasDeprecated) {
    if (headProblems.length) ctx.emit('deprecation-incomplete', { operation, location, message: `${subject} is deprecated, but ${headProblems.join('; ')}`, after: notice(head) });
    else ctx.emit('deprecation-added', { operation, location, message: `${subject} is deprecated: sunset ${headNotice!.sunset}, replacement ${headNotice!.replacement}`, after: notice(head) });
    return;
  }
  const baseNotice = readDeprecation(base);
  const baseProblems = baseNotice ? deprecationProblems(baseNotice) : ['it is marked deprecated without an x-deprecation notice'];
  const newProblems = headProblems.filter((problem) => !baseProblems.includes(problem));
  if (newProblems.length) ctx.emit('deprecation-incomplete', { operation, location, message: `the deprecation of ${subject} changed, and ${newProblems.join('; ')}`, before: notice(base), after: notice(head) });
  const baseSunset = Date.parse(baseNotice?.sunset ?? '');
  const headSunset = Date.parse(headNotice?.sunset ?? '');
  if (!Number.isNaN(baseSunset) && !Number.isNaN(headSunset) && headSunset < baseSunset) {
    ctx.emit('sunset-moved-earlier', { operation, location, message: `the sunset of ${subject} moves from ${baseNotice!.sunset} to ${headNotice!.sunset}`, before: baseNotice!.sunset!, after: headNotice!.sunset! });
  }
}

const notice = (node: Json | undefined): Json => (isObject(node) ? (node['x-deprecation'] ?? node.deprecated ?? null) : null);
