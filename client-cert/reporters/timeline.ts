// The timeline picture of one run: an SVG drawn by hand, time on the x axis (seconds since the client
// started, wall clock) so that pacing shows at a glance; one lane per kind of request, one for the webhook
// attempts the client's receiver answered, one for what the sandbox did (faults, clock moves).
import { atMs, isExchange, isRead, isUpload } from '../evidence.js';
import type { DeliveryAttempt, Evidence, LoggedRequest } from '../types.js';

const LANES = ['token exchange', 'reads', 'writes', 'uploads', 'webhook attempts', 'sandbox actions'] as const;
const WIDTH = 1100;
const LEFT = 130;
const RIGHT = 20;
const LANE_H = 34;
const TOP = 24;

const esc = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const laneOf = (r: LoggedRequest): number => (isExchange(r) ? 0 : isRead(r) ? 1 : isUpload(r) ? 3 : 2);

/** The colour of an answer: what the client was told. */
export function statusColour(status: number | null): string {
  if (status === null) return '#6b7280';
  if (status < 300) return '#16a34a';
  if (status === 429) return '#f59e0b';
  if (status === 401) return '#7c3aed';
  if (status >= 500) return '#dc2626';
  return '#b45309';
}

/** A webhook attempt's wall time: its virtual time less the clock advance in force when it was made. */
function attemptWallMs(evidence: Evidence, attempt: DeliveryAttempt): number {
  const virtual = Date.parse(attempt.at);
  let offset = 0;
  for (const action of evidence.actions) if (action.atMs + action.clockOffsetMs <= virtual + 100) offset = action.clockOffsetMs;
  return virtual - offset;
}

export function timelineSvg(evidence: Evidence): string {
  const start = evidence.startedAtMs;
  const attempts = evidence.deliveries.flatMap((d) => d.attempts.map((a) => ({ delivery: d, attempt: a, wall: attemptWallMs(evidence, a) })));
  const ends = [evidence.endedAtMs, ...evidence.requests.map(atMs), ...attempts.map((a) => a.wall)];
  const span = Math.max(1000, Math.max(...ends) - start);
  const x = (ms: number) => LEFT + ((Math.max(ms, start) - start) / span) * (WIDTH - LEFT - RIGHT);
  const y = (lane: number) => TOP + lane * LANE_H + LANE_H / 2;
  const height = TOP + LANES.length * LANE_H + 30;
  const parts: string[] = [];
  LANES.forEach((name, i) => {
    parts.push(`<rect x="${LEFT}" y="${TOP + i * LANE_H}" width="${WIDTH - LEFT - RIGHT}" height="${LANE_H}" fill="${i % 2 ? '#f9fafb' : '#ffffff'}"/>`);
    parts.push(`<text x="${LEFT - 8}" y="${y(i) + 4}" text-anchor="end" font-size="12">${name}</text>`);
  });
  // Ticks: about ten, on round seconds.
  const stepS = [1, 2, 5, 10, 15, 30, 60, 120, 300].find((s) => span / 1000 / s <= 12) ?? 600;
  for (let s = 0; s * 1000 <= span; s += stepS) {
    const tx = x(start + s * 1000);
    parts.push(`<line x1="${tx}" y1="${TOP}" x2="${tx}" y2="${TOP + LANES.length * LANE_H}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${tx}" y="${TOP + LANES.length * LANE_H + 16}" text-anchor="middle" font-size="11">${s} s</text>`);
  }
  for (const action of evidence.actions) {
    const ax = x(action.atMs);
    parts.push(`<g class="action"><line x1="${ax}" y1="${TOP}" x2="${ax}" y2="${TOP + LANES.length * LANE_H}" stroke="#2563eb" stroke-dasharray="4 3"/><circle cx="${ax}" cy="${y(5)}" r="6" fill="#2563eb"><title>${esc(`+${((action.atMs - start) / 1000).toFixed(2)} s ${action.what}`)}</title></circle></g>`);
  }
  for (const r of evidence.requests) {
    const faulted = r.faults.length > 0;
    const title = `+${((atMs(r) - start) / 1000).toFixed(2)} s ${r.method} ${r.path} → ${r.status}${faulted ? ` (fault: ${r.faults.join(', ')})` : ''} ${r.id}`;
    parts.push(`<circle class="request" cx="${x(atMs(r)).toFixed(1)}" cy="${y(laneOf(r))}" r="5" fill="${statusColour(r.status)}" fill-opacity="0.8"${faulted ? ' stroke="#111827" stroke-width="2"' : ''}><title>${esc(title)}</title></circle>`);
  }
  for (const { delivery, attempt, wall } of attempts) {
    const cx = x(wall);
    const cy = y(4);
    const title = `+${((wall - start) / 1000).toFixed(2)} s delivery ${delivery.id} attempt ${attempt.number}${attempt.chaos?.length ? ` (${attempt.chaos.join(', ')})` : ''}: receiver answered ${attempt.statusCode ?? 'nothing'}${attempt.duplicateStatusCode !== undefined ? `, duplicate ${attempt.duplicateStatusCode ?? 'nothing'}` : ''}`;
    parts.push(`<path class="attempt" d="M ${cx} ${cy - 7} L ${cx + 7} ${cy} L ${cx} ${cy + 7} L ${cx - 7} ${cy} Z" fill="${statusColour(attempt.statusCode)}"${attempt.chaos?.length ? ' stroke="#111827" stroke-width="2"' : ''}><title>${esc(title)}</title></path>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" class="timeline" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${esc(`timeline of the ${evidence.scenario} run`)}" font-family="system-ui, sans-serif">${parts.join('')}</svg>`;
}

export const TIMELINE_LEGEND = [
  ['#16a34a', '2xx'],
  ['#f59e0b', '429'],
  ['#7c3aed', '401'],
  ['#b45309', 'other 4xx'],
  ['#dc2626', '5xx'],
  ['#2563eb', 'sandbox action (fault switched, clock moved)'],
] as const;
