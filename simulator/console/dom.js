// Element builders for the console. Data is only ever placed with textContent and setAttribute, never parsed
// as HTML, so a tenant name, a SKU or a request body cannot inject markup or script.

/** h('td', { class: 'num', title: x }, 'text', childNode) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name in el && typeof value !== 'string') el[name] = value; // e.g. value, max, checked on inputs
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces a node's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * A table from column definitions: { title, cell(row) -> Node|string, class? }, in a container that scrolls
 * sideways on its own (a narrow window scrolls the table, never the page). Each cell carries its column's
 * title (data-label), which the stacked layout of a narrow window shows beside the value.
 */
export function table(columns, rows, empty = 'none yet') {
  if (!rows.length) return h('p', { class: 'muted' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { class: c.class }, c.title)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((c) => h('td', { class: c.class, 'data-label': c.title }, c.cell(row)))))),
    ),
  );
}

/**
 * "11–20 of 37" with previous and next: `offset` of the first row shown, `shown` rows on this page, `total`
 * (a number, or a string such as "200+" when the source gives no count). `onPage(offset)` moves.
 */
export function pager(list, { offset, size, shown, total, onPage }) {
  const known = typeof total === 'number' ? total : Number.parseInt(String(total), 10) || 0;
  const range = shown ? `${offset + 1}–${offset + shown}` : '0';
  return h(
    'nav',
    { class: 'pager', 'data-list': list, 'aria-label': `${list} pages` },
    h('span', { class: 'count' }, `${range} of ${total}`),
    h('button', { type: 'button', class: 'prev', disabled: offset <= 0, onclick: () => onPage(Math.max(0, offset - size)) }, '‹ previous'),
    h('button', { type: 'button', class: 'next', disabled: offset + shown >= known, onclick: () => onPage(offset + size) }, 'next ›'),
  );
}

/** One page of a list held whole (the control API answers these lists unpaged): its rows and its pager. */
export function clientPage(list, items, offset, size, onPage, total = items.length) {
  const start = offset >= items.length ? Math.max(0, Math.floor((items.length - 1) / size) * size) : offset;
  const rows = items.slice(start, start + size);
  return { rows, nav: pager(list, { offset: start, size, shown: rows.length, total, onPage }) };
}

export const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '');

/** An id shown short, whole on hover and selectable. */
export const idCell = (id) => h('code', { title: id ?? '' }, shortId(id));

/** 2026-11-02T14:05:12.000Z -> 2026-11-02 14:05:12 (UTC; which clock is the caller's label to say). */
export const time = (iso) => (typeof iso === 'string' ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '');

/** Pretty JSON in a <pre>, text only. */
export const jsonBlock = (value) => h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));

export const badge = (text, kind = String(text).toLowerCase()) => h('span', { class: `badge b-${kind.replace(/[^a-z0-9_-]/g, '')}` }, text);

/** The two clocks of the sandbox, as column labels say them: the tenant's virtual clock, the wall clock. */
export const TENANT_CLOCK = 'tenant clock, UTC';
export const WALL_CLOCK = 'wall clock, UTC';
