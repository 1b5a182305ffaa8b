// The viewer of a client check's HTML report (/_sim/console/report.html#<runId>), opened from the console's
// "Client checks" panel. The report is served by the control API (GET /_sim/client-checks/{runId}/report),
// which wants the admin bearer token, so a plain link cannot open it: this page reads it with the token the
// console keeps in sessionStorage (the link's rel=opener gives the new tab a copy) and shows it in a frame.
//
// The frame holds the report as a blob document: it inherits this page's content security policy (served
// by routes.ts), which lets it style itself (the report's inline <style> and style attributes) and nothing
// more, and its sandbox (granting no script permission) runs no script of the report, whatever it holds; allow-same-origin
// keeps the report's own #rule-... links working; without scripts, nothing in it can reach this page.
import { adminToken, ApiError, controlText } from './api.js';
import { fill, h } from './dom.js';

const status = document.getElementById('report-status');
const runId = decodeURIComponent(location.hash.slice(1));

async function show() {
  if (!runId) return fill(status, 'No client check named: open a report from the console\'s Client checks panel.');
  if (!adminToken.get()) return fill(status, 'This tab has no admin token: open the report from the console\'s Client checks panel (sign in there first).');
  let html;
  try {
    html = await controlText(`/_sim/client-checks/${encodeURIComponent(runId)}/report`);
  } catch (error) {
    const why = error instanceof ApiError && error.status === 404 ? 'no report is kept for this client check (unknown, still running, completed without one, or no longer among the last runs kept)' : error instanceof ApiError && error.status === 401 ? 'the admin token was refused' : String(error.message ?? error);
    status.className = 'error';
    return fill(status, `The report could not be read: ${why}.`);
  }
  const frame = h('iframe', { id: 'report-frame', title: 'client check report', sandbox: 'allow-same-origin' });
  frame.src = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  status.hidden = true;
  document.body.append(frame);
}

show();
