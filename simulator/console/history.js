// State histories from the append-only transition log (GET /_sim/transitions, oldest first, cursor paging):
// every move of every machine of a tenant, grouped by machine and resource for the panels.
import { controlIfServed, query } from './api.js';
import { h, time } from './dom.js';

const PAGE = 200;
const MAX_PAGES = 10; // the console shows a tenant's last 2,000 moves at most

/** { available, byResource: Map<"machine/resourceId", transition[]>, count, resourceIds(machine) } */
export async function loadTransitions(tenantId) {
  const items = [];
  let cursor = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await controlIfServed(`/_sim/transitions${query({ tenantId, limit: PAGE, cursor })}`);
    if (!answer.available) return { available: false, byResource: new Map(), count: 0, last: null, resourceIds: () => [] };
    items.push(...answer.body.items);
    cursor = answer.body.nextCursor;
    if (!cursor) break;
  }
  const byResource = new Map();
  for (const t of items) {
    const key = `${t.machine}/${t.resourceId}`;
    if (!byResource.has(key)) byResource.set(key, []);
    byResource.get(key).push(t);
  }
  const last = items.at(-1) ?? null;
  return {
    available: true,
    byResource,
    count: items.length,
    last: last ? `${last.seq}` : null,
    resourceIds: (machine) => [...new Set(items.filter((t) => t.machine === machine).map((t) => t.resourceId))],
  };
}

/** A resource's moves as "FROM -> TO at" lines; a clear note while the log is not served. */
export function historyCell(transitions, machine, ...resourceIds) {
  if (!transitions.available) return h('span', { class: 'muted' }, 'not available');
  const moves = resourceIds.flatMap((id) => transitions.byResource.get(`${machine}/${id}`) ?? []);
  if (!moves.length) return h('span', { class: 'muted' }, 'no moves');
  return h(
    'ol',
    { class: 'history' },
    moves.map((t) => h('li', { title: t.requestId ? `request ${t.requestId}` : 'by the worker' }, `${t.from ?? '∅'} → ${t.to}`, h('span', { class: 'muted' }, ` ${time(t.at)}`))),
  );
}
