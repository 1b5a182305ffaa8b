// The console's actions (issue 29 item 6): each goes through the control API route it already has, and says
// in the page what came of it: the answer's gist, or the error envelope's code and message. A key the
// control API shows once is shown once here too: in the outcome line, with a copy button, and nowhere else
// (never stored, gone at the next action).
import { ApiError } from './api.js';
import { fill, h } from './dom.js';

const outcome = () => document.getElementById('action-outcome');

/** The error envelope's code and message (spec 7: { code, message, details }), or what else went wrong. */
export const failureText = (error) =>
  error instanceof ApiError ? `${error.status}${error.body?.code ? ` ${error.body.code}` : ''}${error.body?.message ? `: ${error.body.message}` : ''}` : String(error?.message ?? error);

/**
 * Runs one action: `perform()` answers what to say (a string, or nodes); a failure says the envelope's
 * message. `after()` (a refresh) runs either way. Answers true when the action succeeded.
 */
export async function act(label, perform, after) {
  const line = outcome();
  line.className = 'outcome busy';
  line.dataset.result = 'busy';
  line.dataset.action = label;
  fill(line, `${label}…`);
  let ok = false;
  try {
    const said = await perform();
    line.className = 'outcome ok';
    line.dataset.result = 'ok';
    fill(line, h('strong', {}, `${label}: done. `), said ?? '');
    ok = true;
  } catch (error) {
    line.className = 'outcome error';
    line.dataset.result = 'error';
    fill(line, h('strong', {}, `${label}: refused. `), failureText(error));
  }
  await after?.();
  return ok;
}

/** A secret shown once: selectable, with a copy button (the clipboard, or a hint where it is refused). */
export function shownOnce(label, secret) {
  const code = h('code', { class: 'secret', id: 'secret-once' }, secret);
  const note = h('span', { class: 'muted' }, ' shown once: copy it now.');
  const copy = h('button', {
    type: 'button',
    id: 'copy-secret',
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(secret);
        fill(note, ' copied.');
      } catch {
        // No clipboard (an insecure origin, a refused permission): select it for Ctrl+C instead.
        getSelection()?.selectAllChildren(code);
        fill(note, ' selected: press Ctrl+C (this page may not use the clipboard).');
      }
    },
  }, 'copy');
  return h('span', { class: 'once' }, `${label} `, code, ' ', copy, note);
}
