// The console's pictures (issue 29 item 6), inline SVG drawn here from the data the control and public APIs
// answer: each lifecycle from its table in force (GET /_sim/lifecycles), a job timeline from the transition
// log, SIMA exposure by outcome. Built with createElementNS and text nodes only (no markup parsed), styled by
// classes (the page's policy allows no inline style).
import { h, TENANT_CLOCK, time } from './dom.js';

const NS = 'http://www.w3.org/2000/svg';

/** s('rect', { x: 1 }, child...): an SVG element, like dom.js h(). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) if (value !== undefined && value !== null && value !== false) el.setAttribute(name, String(value));
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

const svg = (width, height, label, ...children) => s('svg', { viewBox: `0 0 ${width} ${height}`, width, height, role: 'img', 'aria-label': label, class: 'chart' }, s('title', {}, label), ...children);

const arrowHead = (id) => s('defs', {}, s('marker', { id, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow' })));

// ---- lifecycles -----------------------------------------------------------------------------------------

/**
 * Columns by the shortest number of moves from the first state (the table's order starts with the state a
 * resource is created in); a state no move reaches goes in the last column. Answers Map<state, { col, row }>.
 */
function layout(table) {
  const next = new Map(table.states.map((st) => [st, new Set()]));
  for (const m of table.moves) if (m.to) for (const f of m.from) next.get(f)?.add(m.to);
  const depth = new Map([[table.states[0], 0]]);
  const queue = [table.states[0]];
  while (queue.length) {
    const at = queue.shift();
    for (const to of next.get(at) ?? []) {
      if (depth.has(to)) continue;
      depth.set(to, depth.get(at) + 1);
      queue.push(to);
    }
  }
  const last = Math.max(0, ...depth.values()) + 1;
  const place = new Map();
  const rows = new Map();
  for (const st of table.states) {
    const col = depth.get(st) ?? last;
    const row = rows.get(col) ?? 0;
    rows.set(col, row + 1);
    place.set(st, { col, row });
  }
  return { place, cols: Math.max(...[...place.values()].map((p) => p.col)) + 1, rows: Math.max(...rows.values()) };
}

/**
 * One lifecycle as a diagram: a box per state (terminal states double-edged), an arrow per move labelled with
 * its action (a deviation's row dashed and named), `current` (a state) highlighted, the moves `taken` (a
 * resource's transitions) drawn bold, `counts` (state -> how many of the tenant's resources) beside each name.
 */
export function lifecycleDiagram(table, { current = null, taken = [], counts = new Map() } = {}) {
  const { place, cols, rows } = layout(table);
  const W = 150;
  const H = 34;
  const GX = 90;
  const GY = 34;
  const width = cols * (W + GX) - GX + 20;
  const height = rows * (H + GY) - GY + 30;
  const box = (st) => {
    const p = place.get(st);
    return { x: 10 + p.col * (W + GX), y: 15 + p.row * (H + GY) };
  };
  const id = `arrow-${table.name}`;
  const pairs = new Map();
  for (const m of table.moves) {
    if (!m.to) continue;
    for (const f of m.from) {
      const key = `${f}>${m.to}`;
      const pair = pairs.get(key) ?? { from: f, to: m.to, actions: [], deviations: [] };
      pair.actions.push(m.action);
      if (m.deviation) pair.deviations.push(m.deviation);
      pairs.set(key, pair);
    }
  }
  let low = 0; // the lowest point a backward move bends to: the picture grows to hold it
  const tookPair = (p) => taken.some((t) => t.from === p.from && t.to === p.to);
  const edges = [...pairs.values()].map((p) => {
    const a = box(p.from);
    const b = box(p.to);
    const cls = `edge${p.deviations.length ? ' deviation' : ''}${tookPair(p) ? ' taken' : ''}`;
    const label = `${p.actions.join(' / ')}${p.deviations.length ? ` (${p.deviations.join(', ')})` : ''}`;
    let d;
    let lx;
    let ly;
    if (p.from === p.to) {
      // A move that stays: a loop over the box.
      d = `M${a.x + W * 0.35},${a.y} C${a.x + W * 0.35},${a.y - 22} ${a.x + W * 0.65},${a.y - 22} ${a.x + W * 0.65},${a.y}`;
      lx = a.x + W / 2;
      ly = a.y - 16;
    } else {
      let x1;
      let y1;
      let x2;
      let y2;
      let cx;
      let cy;
      if (b.x > a.x) {
        // Forward: right edge to left edge, straight (a gentle curve when rows differ).
        [x1, y1, x2, y2] = [a.x + W, a.y + H / 2, b.x, b.y + H / 2];
        [cx, cy] = [(x1 + x2) / 2, (y1 + y2) / 2];
      } else {
        // Backward or within a column: bottom to bottom, bending under both boxes, deeper the farther it
        // goes, so the moves back to an early state fan out instead of running over one another.
        const dx = Math.abs(a.x - b.x);
        [x1, y1, x2, y2] = [a.x + W * 0.6, a.y + H, b.x + W * 0.4, b.y + H];
        [cx, cy] = [(x1 + x2) / 2, Math.max(y1, y2) + 18 + dx * 0.12];
        low = Math.max(low, 0.25 * y1 + 0.5 * cy + 0.25 * y2 + 14);
      }
      d = `M${x1},${y1} Q${cx},${cy} ${x2},${y2}`;
      // The curve's midpoint (a quadratic Bézier at t = 0.5).
      lx = 0.25 * x1 + 0.5 * cx + 0.25 * x2;
      ly = 0.25 * y1 + 0.5 * cy + 0.25 * y2 - 3;
    }
    return s('g', { class: cls, 'data-from': p.from, 'data-to': p.to }, s('title', {}, `${p.from} → ${p.to}: ${label}`), s('path', { d, 'marker-end': `url(#${id})` }), s('text', { x: lx, y: ly, 'text-anchor': 'middle', class: 'edge-label' }, label));
  });
  const nodes = table.states.map((st) => {
    const { x, y } = box(st);
    const terminal = table.terminal.includes(st);
    const n = counts.get(st);
    return s(
      'g',
      { class: `state${terminal ? ' terminal' : ''}${st === current ? ' current' : ''}`, 'data-state': st },
      s('title', {}, `${st}${terminal ? ' (terminal)' : ''}${st === current ? ' (current)' : ''}${n ? `: ${n} of this tenant's` : ''}`),
      s('rect', { x, y, width: W, height: H, rx: 6 }),
      terminal ? s('rect', { x: x + 3, y: y + 3, width: W - 6, height: H - 6, rx: 4, class: 'inner' }) : null,
      s('text', { x: x + W / 2, y: y + H / 2 + 4, 'text-anchor': 'middle' }, n ? `${st} · ${n}` : st),
    );
  });
  const computed = table.moves.filter((m) => !m.to);
  return h(
    'figure',
    { class: 'lifecycle', 'data-machine': table.name },
    svg(width, Math.max(height, Math.ceil(low) + 6), `the ${table.name} lifecycle`, arrowHead(id), edges, nodes),
    computed.length
      ? h('figcaption', { class: 'muted' }, computed.map((m) => `${m.action} from ${m.from.join(', ')}: the next state depends on the request${m.deviation ? ` (${m.deviation})` : ''}`).join('; '))
      : null,
  );
}

// ---- job timeline ---------------------------------------------------------------------------------------

const FINISHED = new Set(['COMPLETED', 'FAILED']);

/** created / started / finished of a job, from its transitions (tenant clock); null when not known. */
export function jobTimes(moves) {
  const at = (test) => moves.find(test)?.at ?? null;
  return { created: at((t) => t.from === null), started: at((t) => t.to === 'PROCESSING'), finished: at((t) => FINISHED.has(t.to)) };
}

/**
 * The jobs shown, one row each: waiting (created → started) pale, running (started → finished) coloured,
 * a job still running drawn to `now`. Times on the tenant's virtual clock.
 */
export function jobTimeline(jobs, transitions, now) {
  if (!transitions.available) return h('p', { class: 'muted' }, 'timeline not available: this sandbox does not serve GET /_sim/transitions');
  const rows = jobs.map((j) => ({ job: j, ...jobTimes(transitions.byResource.get(`job/${j.id}`) ?? []) })).filter((r) => r.created);
  if (!rows.length) return null;
  const ms = (iso) => Date.parse(iso);
  const nowMs = ms(now);
  const start = Math.min(...rows.map((r) => ms(r.created)));
  const end = Math.max(start + 1, ...rows.map((r) => ms(r.finished ?? now)));
  const L = 150;
  const width = 640;
  const plot = width - L - 10;
  const x = (t) => L + ((Math.min(t, end) - start) / (end - start)) * plot;
  const RH = 18;
  const height = rows.length * RH + 34;
  const bars = rows.map((r, i) => {
    const y = 8 + i * RH;
    const created = ms(r.created);
    const started = r.started ? ms(r.started) : null;
    const finished = r.finished ? ms(r.finished) : null;
    const runEnd = finished ?? nowMs;
    const title = `${r.job.type} ${r.job.id}: created ${time(r.created)}, started ${r.started ? time(r.started) : '—'}, finished ${r.finished ? time(r.finished) : '—'} (${TENANT_CLOCK})`;
    return s(
      'g',
      { class: `job-row ${String(r.job.status).toLowerCase()}`, 'data-job': r.job.id },
      s('title', {}, title),
      s('text', { x: 0, y: y + 12, class: 'row-label' }, `${r.job.id.slice(0, 8)} ${r.job.type}`),
      s('rect', { x: x(created), y: y + 2, width: Math.max(1, x(started ?? runEnd) - x(created)), height: RH - 6, class: 'waiting' }),
      started !== null ? s('rect', { x: x(started), y: y + 2, width: Math.max(2, x(runEnd) - x(started)), height: RH - 6, class: 'running' }) : null,
    );
  });
  const axisY = rows.length * RH + 14;
  return h(
    'figure',
    { class: 'timeline' },
    svg(
      width,
      height,
      'job timeline',
      s('line', { x1: L, x2: L + plot, y1: axisY, y2: axisY, class: 'axis' }),
      s('text', { x: L, y: axisY + 14, class: 'tick' }, time(new Date(start).toISOString())),
      s('text', { x: L + plot, y: axisY + 14, 'text-anchor': 'end', class: 'tick' }, time(new Date(end).toISOString())),
      bars,
    ),
    h('figcaption', { class: 'muted' }, `created → started (pale) → finished (coloured), the ${TENANT_CLOCK}; the jobs of this page`),
  );
}

// ---- SIMA exposure by outcome ---------------------------------------------------------------------------

const OUTCOMES = ['AT_RISK', 'NEEDS_REVIEW', 'CLEARED'];

/** A bar per outcome: the summed annual exposure of its SKUs, with how many SKUs; `shown` of `total` read. */
export function exposureChart(results, total) {
  const by = new Map(OUTCOMES.map((o) => [o, { skus: 0, exposure: 0 }]));
  for (const r of results) {
    const entry = by.get(r.outcome) ?? { skus: 0, exposure: 0 };
    entry.skus += 1;
    entry.exposure += typeof r.exposureAnnual === 'number' ? r.exposureAnnual : 0;
    by.set(r.outcome, entry);
  }
  const max = Math.max(1, ...[...by.values()].map((e) => e.exposure));
  const L = 110;
  const width = 520;
  const plot = width - L - 150;
  const RH = 24;
  const bars = [...by.entries()].map(([outcome, e], i) => {
    const y = 6 + i * RH;
    const w = (e.exposure / max) * plot;
    return s(
      'g',
      { class: `bar b-${outcome.toLowerCase()}`, 'data-outcome': outcome, 'data-exposure': e.exposure },
      s('title', {}, `${outcome}: ${e.skus} SKU${e.skus === 1 ? '' : 's'}, annual exposure ${e.exposure.toLocaleString('en-US')}`),
      s('text', { x: 0, y: y + 15, class: 'row-label' }, outcome),
      s('rect', { x: L, y: y + 3, width: Math.max(e.exposure > 0 ? 2 : 0, w), height: RH - 8 }),
      s('text', { x: L + w + 6, y: y + 15, class: 'value' }, `${e.exposure.toLocaleString('en-US', { maximumFractionDigits: 2 })} · ${e.skus} SKU${e.skus === 1 ? '' : 's'}`),
    );
  });
  return h(
    'figure',
    { class: 'exposure' },
    svg(width, by.size * RH + 10, 'SIMA exposure by outcome', bars),
    h('figcaption', { class: 'muted' }, `annual exposure by outcome, over ${results.length} of ${total} results`),
  );
}
