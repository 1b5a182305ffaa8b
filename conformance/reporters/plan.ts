// The run plan, printed before the first request: how many requests the selected checks will send per rate
// bucket (measured in the baseline run, harness/budget.ts), the limits they will be paced under (given with
// --rate-limits, or learned from the server's 429s), and the duration to expect.
import type { RunPlan } from '../harness/budget.js';
import { RATE_BUCKETS } from '../harness/types.js';
import { formatDuration } from './format.js';

const number = (value: number) => value.toLocaleString('en-US');

export function renderRunPlan(plan: RunPlan, maxDurationMs?: number): string {
  const lines: string[] = [];
  const estimated = plan.checks - plan.unestimated.length;
  lines.push(
    `Run plan: ${plan.checks} check${plan.checks === 1 ? '' : 's'} to run, about ${RATE_BUCKETS.map((bucket) => `${number(plan.requests[bucket])} ${bucket}`).join(', ')} requests` +
      ` (measured per check in the baseline run: ${plan.baseline.profile} profile, contract ${plan.baseline.contract}, --runs ${plan.baseline.runs.join(' and ')})`,
  );
  if (plan.unestimated.length) lines.push(`  ${plan.unestimated.length} of the ${plan.checks} checks have no baseline entry, their requests are not counted above (npm run conform:baseline): ${plan.unestimated.slice(0, 5).join(', ')}${plan.unestimated.length > 5 ? ', ...' : ''}`);
  if (plan.limits) {
    const given = RATE_BUCKETS.filter((bucket) => plan.limits![bucket]).map((bucket) => `${bucket} ${plan.limits![bucket]!.limit} per ${formatDuration(plan.limits![bucket]!.windowMs)}`);
    lines.push(`  rate limits: ${given.join(', ')} (given with --rate-limits)${given.length < RATE_BUCKETS.length ? '; the others learned from the server\'s 429s' : ''}`);
  } else {
    lines.push(`  rate limits: learned from the server's 429s (bucket, limit, windowMs); give them with --rate-limits read=240,write=120,upload=30 to pace from the first request`);
  }
  const checks = `the checks took ${formatDuration(plan.checksMs)} in the baseline run${plan.baseline.profile === 'simulator' ? ' (its clocks moved: other profiles wait for real jobs)' : ''}`;
  const bound = plan.limitingBucket ? `; the ${plan.limitingBucket} bucket alone needs ${formatDuration(plan.limitsMs)} (${number(plan.requests[plan.limitingBucket])} requests at ${plan.limits![plan.limitingBucket]!.limit} per ${formatDuration(plan.limits![plan.limitingBucket]!.windowMs)}${plan.keys > 1 ? ` for each of ${plan.keys} keys` : ''})` : '';
  lines.push(`  expected duration: at least ${formatDuration(plan.expectedMs)}${estimated ? '' : ' (no estimate)'}: ${checks}${bound}`);
  if (maxDurationMs !== undefined) lines.push(`  --max-duration ${formatDuration(maxDurationMs)}: no check starts after that; the checks left are reported "not run" and the run is not certified${plan.expectedMs > maxDurationMs ? ' (shorter than expected: expect checks not run)' : ''}`);
  return lines.join('\n') + '\n';
}
