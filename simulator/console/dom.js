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

/** A table from column definitions: { title, cell(row) -> Node|string, class? }. */
export function table(columns, rows, empty = 'none yet') {
  if (!rows.length) return h('p', { class: 'muted' }, empty);
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { class: c.class }, c.title)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, columns.map((c) => h('td', { class: c.class }, c.cell(row)))))),
  );
}

export const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '');

/** An id shown short, whole on hover and selectable. */
export const idCell = (id) => h('code', { title: id ?? '' }, shortId(id));

/** 2026-11-02T14:05:12.000Z -> 2026-11-02 14:05:12 (the API's own times: virtual clock, UTC). */
export const time = (iso) => (typeof iso === 'string' ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '');

/** Pretty JSON in a <pre>, text only. */
export const jsonBlock = (value) => h('pre', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2));

export const badge = (text, kind = String(text).toLowerCase()) => h('span', { class: `badge b-${kind.replace(/[^a-z0-9_-]/g, '')}` }, text);
