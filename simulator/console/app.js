// The console's controller: sign-in with the admin token, the tenant picker, and the refresh loop. Control
// API panels (clock, client checks, request log, deliveries, faults, transitions) are read every 2 s; the public API panels
// (jobs, SIMA, feeds, findings, claims) only when something moved (a new transition, a new request of the
// tenant, a job still running, a clock advance, another tenant), so the console's own reads neither fill
// the request log nor spend the tenant's rate limit while nothing happens.
import { adminToken, ApiError, CONSOLE_REQUEST_PREFIX, control, controlIfServed, publicGet, query } from './api.js';
import { fill, h } from './dom.js';
import { loadTransitions } from './history.js';
import * as panels from './panels.js';

const POLL_MS = 2000;
const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const TENANT_KEY = 'sim-console-tenant';
const $ = (id) => document.getElementById(id);

// requestFilter: the client check the request log is narrowed to ("show its requests"), or null.
const state = { tenantId: null, tenantNames: new Map(), requestFilter: null, transitions: null, seenTransition: undefined, seenRequest: undefined, jobsRunning: false, publicStale: true, busy: false, timer: null };

/** What a load answers when what it read is no longer asked for (the request log's filter changed meanwhile). */
const STALE = Symbol('stale');

async function render(id, load) {
  const body = $(id).querySelector('.body');
  try {
    const content = await load();
    if (content === STALE) return;
    fill(body, content);
    $(id).dataset.loaded = 'true';
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && !id.startsWith('panel-public')) return signOut('The admin token was refused.');
    fill(body, h('p', { class: 'error' }, error instanceof Error ? error.message : String(error)));
  }
}

// ---- sign-in -------------------------------------------------------------------------------------------
function signOut(message) {
  clearInterval(state.timer);
  state.timer = null;
  adminToken.clear();
  $('main').hidden = true;
  $('signin').hidden = false;
  fill($('signin-error'), message ?? '');
}

async function signIn(token) {
  adminToken.set(token);
  try {
    await control('/_sim/status');
  } catch (error) {
    adminToken.clear();
    fill($('signin-error'), error instanceof ApiError && error.status === 401 ? 'That is not the admin token (npm start prints it; SIM_ADMIN_TOKEN sets it).' : String(error.message ?? error));
    return;
  }
  $('signin').hidden = true;
  $('main').hidden = false;
  try {
    await loadTenants();
  } catch (error) {
    return signOut(`The tenant list could not be read: ${error.message}`);
  }
  await tick();
  state.timer = setInterval(tick, POLL_MS);
  await loadTestValues();
}

async function loadTenants() {
  const { tenants, total } = await control(`/_sim/tenants${query({ limit: 500 })}`);
  const wanted = sessionStorage.getItem(TENANT_KEY);
  state.tenantId = tenants.some((t) => t.id === wanted) ? wanted : (tenants[0]?.id ?? null);
  state.tenantNames = new Map(tenants.map((t) => [t.id, t.name]));
  fill(
    $('tenant-picker'),
    tenants.map((t) => h('option', { value: t.id, selected: t.id === state.tenantId }, `${t.name} · ${t.id.slice(0, 8)}${t.status === 'active' ? '' : ` (${t.status})`}`)),
  );
  fill($('tenant-count'), total > tenants.length ? `${tenants.length} of ${total} tenants` : `${total} tenant${total === 1 ? '' : 's'}`);
}

// ---- the loop ------------------------------------------------------------------------------------------
async function tick() {
  if (state.busy || !state.tenantId) return;
  state.busy = true;
  try {
    const tenantId = state.tenantId;
    state.transitions = await loadTransitions(tenantId).catch(() => ({ available: false, byResource: new Map(), count: 0, last: null, resourceIds: () => [] }));
    await Promise.all([
      render('panel-clock', async () => panels.clockPanel(await control('/_sim/clock'), await control(`/_sim/clock${query({ tenantId })}`))),
      render('panel-client-checks', loadClientChecks),
      render('panel-requests', loadRequests),
      render('panel-deliveries', async () => panels.deliveriesPanel((await control(`/_sim/webhooks/deliveries${query({ tenantId })}`)).deliveries)),
      render('panel-faults', async () => panels.faultsPanel(await control('/_sim/defects'), await controlIfServed(`/_sim/tenants/${encodeURIComponent(tenantId)}/faults`))),
    ]);
    const transitionMoved = state.transitions.last !== state.seenTransition;
    state.seenTransition = state.transitions.last;
    if (state.publicStale || transitionMoved || state.jobsRunning) await refreshPublic(tenantId);
    fill($('updated'), `updated ${new Date().toLocaleTimeString()}`);
  } finally {
    state.busy = false;
  }
}

async function loadRequests() {
  const filter = state.requestFilter;
  const tenantOnly = $('requests-tenant-only').checked;
  // A client check's requests: its tenant's, between its registration and its completion (the wall clock).
  const params = filter ? { tenantId: filter.tenantId, since: filter.since, until: filter.until ?? undefined } : { tenantId: tenantOnly ? state.tenantId : undefined };
  const answer = await controlIfServed(`/_sim/requests${query({ ...params, limit: 100 })}`);
  if (state.requestFilter !== filter) return STALE;
  if (answer.available) {
    const newest = answer.body.items.find((r) => !String(r.id).startsWith(CONSOLE_REQUEST_PREFIX))?.id;
    if (newest !== state.seenRequest) state.publicStale = true;
    state.seenRequest = newest;
  }
  return panels.requestsPanel(answer, $('requests-own').checked, filter ? 'no request of this client check in the log (it keeps the last requests in memory; a restart or a reset empties it)' : undefined);
}

async function loadClientChecks() {
  const answer = await controlIfServed(`/_sim/client-checks${query({ tenantId: $('checks-tenant-only').checked ? state.tenantId : undefined })}`);
  const filter = state.requestFilter;
  const run = filter && answer.available ? answer.body.items.find((r) => r.id === filter.runId) : undefined;
  // A running check the log is filtered to has completed since: its window closes.
  if (run && filter.until === null && run.completedAt) filterRequests(run);
  return panels.clientChecksPanel(answer, { tenantName: (id) => state.tenantNames.get(id), onShowRequests: showRequestsOf, filteredRunId: filter?.runId });
}

function filterRequests(run) {
  state.requestFilter = run ? { runId: run.id, scenario: run.scenario, tenantId: run.tenantId, since: run.registeredAt, until: run.completedAt } : null;
  fill($('requests-filter'), panels.requestFilterChip(state.requestFilter, () => clearRequestFilter()));
  $('requests-tenant-only').disabled = state.requestFilter !== null;
}

async function showRequestsOf(run) {
  filterRequests(run);
  $('panel-requests').scrollIntoView({ block: 'start' });
  await Promise.all([render('panel-requests', loadRequests), render('panel-client-checks', loadClientChecks)]);
}

async function clearRequestFilter() {
  filterRequests(null);
  await Promise.all([render('panel-requests', loadRequests), render('panel-client-checks', loadClientChecks)]);
}

async function refreshPublic(tenantId) {
  state.publicStale = false;
  const t = state.transitions;
  let jobs = [];
  await render('panel-public-jobs', async () => {
    jobs = (await publicGet(tenantId, '/api/jobs?limit=50')).jobs;
    state.jobsRunning = jobs.some((j) => !FINISHED.has(j.status));
    return panels.jobsPanel(jobs, t);
  });
  await Promise.all([
    render('panel-public-sima', async () => {
      const [results, summary] = await Promise.all([publicGet(tenantId, '/api/sima/results?limit=50'), publicGet(tenantId, '/api/sima/summary')]);
      return panels.simaPanel(results.outcomes, summary, t);
    }),
    render('panel-public-feeds', async () => {
      // No public list of feed sessions (spec 2.5): the sessions named by the tenant's jobs and transitions.
      const ids = [...new Set([...jobs.map((j) => j.result?.sessionId).filter((id) => typeof id === 'string'), ...t.resourceIds('feed-session')])].slice(0, 10);
      const sessions = await Promise.all(
        ids.map(async (id) => {
          try {
            const path = `/api/trade/feeds/${encodeURIComponent(id)}`;
            const [session, issues] = await Promise.all([publicGet(tenantId, path), publicGet(tenantId, `${path}/issues?limit=100`)]);
            return { session, issues: issues.issues };
          } catch (error) {
            return { session: { sessionId: id }, issues: [], error: error.message };
          }
        }),
      );
      return panels.feedPanel(sessions, t);
    }),
    render('panel-public-findings', async () => panels.findingsPanel((await publicGet(tenantId, '/api/ship/findings?limit=100')).findings, t)),
    render('panel-public-claims', async () => panels.claimsPanel((await publicGet(tenantId, '/api/ship/claims/submissions?limit=100')).submissions, t)),
  ]);
}

async function loadTestValues() {
  await render('panel-test-values', async () => panels.testValuesPanel(await controlIfServed('/_sim/test-values')));
}

// ---- controls ------------------------------------------------------------------------------------------
$('signin-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = $('admin-token').value.trim();
  $('admin-token').value = '';
  if (token) signIn(token);
});
$('signout').addEventListener('click', () => signOut('Signed out.'));
$('refresh').addEventListener('click', async () => {
  state.publicStale = true;
  await loadTenants().catch(() => {}); // tenants created since sign-in join the picker
  tick();
});
$('tenant-picker').addEventListener('change', (event) => {
  state.tenantId = event.target.value;
  sessionStorage.setItem(TENANT_KEY, state.tenantId);
  state.publicStale = true;
  state.seenRequest = undefined;
  tick();
});
for (const id of ['requests-tenant-only', 'requests-own']) $(id).addEventListener('change', () => render('panel-requests', loadRequests));
$('checks-tenant-only').addEventListener('change', () => render('panel-client-checks', loadClientChecks));
$('advance-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const seconds = Number($('advance-seconds').value);
  const scope = $('advance-scope').value;
  try {
    await control('/_sim/clock/advance', { method: 'POST', body: { seconds, ...(scope === 'tenant' ? { tenantId: state.tenantId } : {}) } });
    fill($('advance-error'), '');
  } catch (error) {
    fill($('advance-error'), error.message);
  }
  state.publicStale = true;
  // Let a tick already running finish, then read what the move changed.
  while (state.busy) await new Promise((resolve) => setTimeout(resolve, 50));
  await tick();
});

if (adminToken.get()) signIn(adminToken.get());
