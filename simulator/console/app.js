// The console's controller: sign-in with the admin token, the tenant picker, and the refresh loop. Control
// API panels (clock, client checks, request log, deliveries, faults, transitions) are read every 2 s; the public API panels
// (jobs, SIMA, feeds, findings, claims) only when something moved (a new transition, a new request of the
// tenant, a job still running, a clock advance, another tenant), so the console's own reads neither fill
// the request log nor spend the tenant's rate limit while nothing happens.
import { act, shownOnce } from './actions.js';
import { adminToken, ApiError, CONSOLE_REQUEST_PREFIX, control, controlIfServed, publicGet as publicGetAt, query } from './api.js';
import { clientPage, fill, h, pager } from './dom.js';
import { loadTransitions } from './history.js';
import * as panels from './panels.js';
import { exposureChart, jobTimeline, lifecycleDiagram } from './charts.js';

const POLL_MS = 2000;
const PAGE = 10; // rows per page of every list
const FINISHED = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);
const TENANT_KEY = 'sim-console-tenant';
const $ = (id) => document.getElementById(id);

// requestFilter: the client check the request log is narrowed to ("show its requests"), or null.
// pages: the offset of the page shown of each list, by list name. faultsSeen: what the faults panel last
// showed (it is drawn again only when that changes, so a picker being used is not reset under the hand).
const state = { tenantId: null, tenantNames: new Map(), requestFilter: null, transitions: null, seenTransition: undefined, seenRequest: undefined, jobsRunning: false, publicStale: true, busy: false, timer: null, pages: {}, faultsSeen: null, tenantNow: null, lifecycles: null, lifecycleSeen: null, clockMoves: 0 };

const offsetOf = (list) => state.pages[list] ?? 0;
/** A pager's move: that list shows its page at the next read, which starts now. */
const pageTo = (list) => (offset) => {
  state.pages[list] = offset;
  return refreshNow();
};
const pageOf = (list) => ({ offset: offsetOf(list), size: PAGE, onPage: pageTo(list) });
/** A server-paged list's pager (the public API's lists: limit, offset and a total). */
const serverPager = (list, shown, total) => pager(list, { offset: offsetOf(list), size: PAGE, shown, total, onPage: pageTo(list) });

/** What a load answers when what it read is no longer asked for (the request log's filter changed meanwhile). */
const STALE = Symbol('stale');

async function render(id, load) {
  const body = $(id).querySelector('.body');
  try {
    const content = await load();
    if (content === STALE) return;
    // What the reader opened stays open when the panel is drawn again (a request log entry, data-keep).
    const open = new Set([...body.querySelectorAll('details[data-keep][open]')].map((d) => d.dataset.keep));
    fill(body, content);
    for (const d of body.querySelectorAll('details[data-keep]')) if (open.has(d.dataset.keep)) d.open = true;
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
    const clockMovesAtStart = state.clockMoves;
    state.transitions = await loadTransitions(tenantId).catch(() => ({ available: false, byResource: new Map(), count: 0, last: null, resourceIds: () => [] }));
    await Promise.all([
      render('panel-clock', async () => {
        const [sandbox, tenant] = await Promise.all([control('/_sim/clock'), control(`/_sim/clock${query({ tenantId })}`)]);
        state.tenantNow = tenant.now;
        return panels.clockPanel(sandbox, tenant);
      }),
      render('panel-client-checks', loadClientChecks),
      render('panel-requests', loadRequests),
      render('panel-deliveries', async () => panels.deliveriesPanel((await control(`/_sim/webhooks/deliveries${query({ tenantId })}`)).deliveries, { ...pageOf('deliveries'), onResend: resendDelivery })),
      render('panel-faults', loadFaults),
    ]);
    await render('panel-lifecycles', loadLifecycles);
    const transitionMoved = state.transitions.last !== state.seenTransition;
    state.seenTransition = state.transitions.last;
    // A clock moved from here since this tick read it: its tenant time is old, and a dashboard token it
    // judges fresh may be expired already; the tick that follows the move reads the public panels.
    const clockMoved = state.clockMoves !== clockMovesAtStart;
    if (!clockMoved && (state.publicStale || transitionMoved || state.jobsRunning)) await refreshPublic(tenantId);
    fill($('updated'), `updated ${new Date().toLocaleTimeString()} (this browser's clock)`);
  } finally {
    state.busy = false;
  }
}

async function loadRequests() {
  const filter = state.requestFilter;
  const tenantOnly = $('requests-tenant-only').checked;
  // A client check's requests: its tenant's, between its registration and its completion (the wall clock).
  const params = filter ? { tenantId: filter.tenantId, since: filter.since, until: filter.until ?? undefined } : { tenantId: tenantOnly ? state.tenantId : undefined };
  const answer = await controlIfServed(`/_sim/requests${query({ ...params, limit: 200 })}`);
  if (state.requestFilter !== filter) return STALE;
  if (answer.available) {
    const newest = answer.body.items.find((r) => !String(r.id).startsWith(CONSOLE_REQUEST_PREFIX))?.id;
    if (newest !== state.seenRequest) state.publicStale = true;
    state.seenRequest = newest;
  }
  return panels.requestsPanel(answer, $('requests-own').checked, pageOf('requests'), filter ? 'no request of this client check in the log (it keeps the last requests in memory; a restart or a reset empties it)' : undefined);
}

async function loadClientChecks() {
  const answer = await controlIfServed(`/_sim/client-checks${query({ tenantId: $('checks-tenant-only').checked ? state.tenantId : undefined })}`);
  const filter = state.requestFilter;
  const run = filter && answer.available ? answer.body.items.find((r) => r.id === filter.runId) : undefined;
  // A running check the log is filtered to has completed since: its window closes.
  if (run && filter.until === null && run.completedAt) filterRequests(run);
  return panels.clientChecksPanel(answer, { tenantName: (id) => state.tenantNames.get(id), onShowRequests: showRequestsOf, filteredRunId: filter?.runId, ...pageOf('client-checks') });
}

/**
 * The lifecycle picked, drawn from its table in force (GET /_sim/lifecycles, read again when the defects
 * change), with the state of the resource picked (the tenant's most recently moved one by default)
 * highlighted, the moves it took in bold, and how many of the tenant's resources are in each state.
 */
async function loadLifecycles() {
  const t = state.transitions;
  const answer = await controlIfServed('/_sim/lifecycles');
  if (!answer.available) return h('p', { class: 'muted' }, 'not available: this sandbox does not serve GET /_sim/lifecycles (the lifecycle tables)');
  const machines = answer.body.machines;
  const machineSelect = $('lifecycle-machine');
  if (machineSelect.options.length !== machines.length) {
    fill(machineSelect, machines.map((m) => h('option', { value: m.name }, m.name)));
  }
  const table = machines.find((m) => m.name === machineSelect.value) ?? machines[0];
  // The tenant's resources of this machine, newest move first, each with its moves and current state.
  const resources = t.resourceIds(table.name).map((id) => ({ id, moves: t.byResource.get(`${table.name}/${id}`) ?? [] }));
  resources.sort((a, b) => (b.moves.at(-1)?.seq ?? 0) - (a.moves.at(-1)?.seq ?? 0));
  const resourceSelect = $('lifecycle-resource');
  const picked = resources.some((r) => r.id === resourceSelect.value) ? resourceSelect.value : (resources[0]?.id ?? '');
  const options = JSON.stringify([table.name, resources.map((r) => r.id)]);
  if (resourceSelect.dataset.options !== options) {
    resourceSelect.dataset.options = options;
    fill(resourceSelect, resources.length ? resources.map((r) => h('option', { value: r.id, selected: r.id === picked }, `${r.id.slice(0, 8)} (${r.moves.at(-1)?.to})`)) : h('option', { value: '' }, 'none of this tenant yet'));
  }
  const resource = resources.find((r) => r.id === picked);
  const counts = new Map();
  for (const r of resources) {
    const now = r.moves.at(-1)?.to;
    if (now) counts.set(now, (counts.get(now) ?? 0) + 1);
  }
  const seen = JSON.stringify([table, picked, t.last, state.tenantId]);
  if (seen === state.lifecycleSeen && $('panel-lifecycles').dataset.loaded) return STALE;
  state.lifecycleSeen = seen;
  return h(
    'div',
    {},
    lifecycleDiagram(table, { current: resource?.moves.at(-1)?.to ?? null, taken: (resource?.moves ?? []).filter((m) => m.from !== null), counts }),
    h(
      'p',
      { class: 'muted' },
      `${table.states.length} states, ${table.moves.length} moves in the table in force (double edge: terminal; dashed: a defect's or variant's row). `,
      resource ? `Highlighted: ${table.name} ${resource.id}, now ${resource.moves.at(-1).to}; its moves in bold. ` : 'No resource of this tenant has moved yet. ',
      `Numbers: this tenant's ${table.name} resources in each state.`,
    ),
  );
}

async function loadFaults() {
  const tenantId = state.tenantId;
  const [defects, tenantFaults] = await Promise.all([control('/_sim/defects'), controlIfServed(`/_sim/tenants/${encodeURIComponent(tenantId)}/faults`)]);
  const seen = JSON.stringify([tenantId, defects.active, tenantFaults]);
  if (seen === state.faultsSeen && $('panel-faults').dataset.loaded) return STALE;
  state.faultsSeen = seen;
  return panels.faultsPanel(defects, tenantFaults, { sandboxDefect: switchSandboxDefect, tenantDefect: switchTenantDefect, chaos: switchChaos });
}

function filterRequests(run) {
  state.requestFilter = run ? { runId: run.id, scenario: run.scenario, tenantId: run.tenantId, since: run.registeredAt, until: run.completedAt } : null;
  state.pages.requests = 0;
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
  // The tenant's virtual time, read this tick: a dashboard token near its expiry on that clock is replaced.
  const publicGet = (tenant, path) => publicGetAt(tenant, path, state.tenantNow);
  const t = state.transitions;
  const at = (list) => query({ limit: PAGE, offset: offsetOf(list) });
  let jobs = [];
  await render('panel-public-jobs', async () => {
    const page = await publicGet(tenantId, `/api/jobs${at('jobs')}`);
    jobs = page.jobs;
    state.jobsRunning = jobs.some((j) => !FINISHED.has(j.status));
    return panels.jobsPanel(jobs, t, serverPager('jobs', jobs.length, page.count), jobTimeline(jobs, t, state.tenantNow ?? new Date().toISOString()), { onTrigger: triggerWebhook });
  });
  await Promise.all([
    render('panel-public-sima', async () => {
      // The chart sums every result (up to the list's largest page); the table shows one page.
      const [results, summary, all] = await Promise.all([publicGet(tenantId, `/api/sima/results${at('sima')}`), publicGet(tenantId, '/api/sima/summary'), publicGet(tenantId, '/api/sima/results?limit=1000')]);
      const chart = all.total ? exposureChart(all.outcomes, all.total) : null;
      return panels.simaPanel(results.outcomes, summary, t, { nav: serverPager('sima', results.outcomes.length, results.total), chart, onReview: reviewSima });
    }),
    render('panel-public-feeds', async () => {
      // No public list of feed sessions (spec 2.5): the sessions named by the tenant's jobs and transitions.
      const all = [...new Set([...jobs.map((j) => j.result?.sessionId).filter((id) => typeof id === 'string'), ...t.resourceIds('feed-session')])];
      const { rows: ids, nav } = clientPage('feeds', all, offsetOf('feeds'), 5, pageTo('feeds'));
      const sessions = await Promise.all(
        ids.map(async (id) => {
          try {
            const path = `/api/trade/feeds/${encodeURIComponent(id)}`;
            const [session, issues] = await Promise.all([publicGet(tenantId, path), publicGet(tenantId, `${path}/issues${at(`issues:${id}`)}`)]);
            return { session, issues: issues.issues, issuesTotal: issues.total };
          } catch (error) {
            return { session: { sessionId: id }, issues: [], error: error.message };
          }
        }),
      );
      return panels.feedPanel(sessions, t, { nav, onAcknowledge: acknowledgeIssues, issuesNav: (id, shown, total) => serverPager(`issues:${id}`, shown, total) });
    }),
    render('panel-public-findings', async () => {
      const page = await publicGet(tenantId, `/api/ship/findings${at('findings')}`);
      return panels.findingsPanel(page.findings, t, serverPager('findings', page.findings.length, page.total));
    }),
    render('panel-public-claims', async () => {
      const page = await publicGet(tenantId, `/api/ship/claims/submissions${at('claims')}`);
      return panels.claimsPanel(page.submissions, t, { nav: serverPager('claims', page.submissions.length, page.total), onClose: closeClaim });
    }),
  ]);
}

async function loadTestValues() {
  await render('panel-test-values', async () => panels.testValuesPanel(await controlIfServed('/_sim/test-values'), { ...pageOf('test-values'), onPage: async (offset) => { state.pages['test-values'] = offset; await loadTestValues(); } }));
}

// ---- actions (each through its control API route; act() says what came of it) ---------------------------
const tenantPath = (tenantId = state.tenantId) => `/_sim/tenants/${encodeURIComponent(tenantId)}`;

/** Reads everything again now that something was done (after a tick already running has finished). */
async function refreshNow() {
  while (state.busy) await new Promise((resolve) => setTimeout(resolve, 50));
  state.publicStale = true;
  await tick();
}

async function switchSandboxDefect(id, enable) {
  await act(`${enable ? 'switch on' : 'switch off'} ${id} sandbox-wide`, async () => {
    const { active } = await control('/_sim/defects');
    const next = enable ? [...new Set([...active, id])] : active.filter((d) => d !== id);
    const now = await control('/_sim/defects', { method: 'PUT', body: { active: next } });
    return `${now.active.length} defect${now.active.length === 1 ? '' : 's'} on sandbox-wide.`;
  }, refreshNow);
}

/** A tenant's faults are replaced whole (PUT): what is on now, with the one change. */
async function changeTenantFaults(label, change) {
  await act(label, async () => {
    const current = await control(`${tenantPath()}/faults`);
    const next = change({ defects: current.defects, webhookChaos: { ...current.webhookChaos }, requestChaos: current.requestChaos ? { ...current.requestChaos } : undefined });
    const now = await control(`${tenantPath()}/faults`, { method: 'PUT', body: next });
    const chaos = Object.entries(now.webhookChaos).filter(([, v]) => v === true || (typeof v === 'number' && v > 0)).map(([k]) => k);
    return `this tenant: ${now.defects.length} defect${now.defects.length === 1 ? '' : 's'} on${chaos.length ? `, webhook chaos ${chaos.join(', ')}` : ''}.`;
  }, refreshNow);
}

const switchTenantDefect = (id, enable) =>
  changeTenantFaults(`${enable ? 'switch on' : 'switch off'} ${id} for this tenant`, (f) => ({ ...f, defects: enable ? [...new Set([...f.defects, id])] : f.defects.filter((d) => d !== id) }));

const switchChaos = (member, enable) => changeTenantFaults(`webhook chaos ${member} ${enable ? 'on' : 'off'}`, (f) => ({ ...f, webhookChaos: { ...f.webhookChaos, [member]: enable } }));

async function reviewSima(result, action) {
  await act(`${action} the SIMA result of ${result.sku}`, async () => {
    const after = await control(`${tenantPath()}/sima/results/${encodeURIComponent(result.sku)}/review`, { method: 'POST', body: { action, note: 'from the sandbox console' } });
    return `${result.sku} is ${after.workflowStatus}.`;
  }, refreshNow);
}

async function acknowledgeIssues(session) {
  await act(`acknowledge the issues of feed session ${session.sessionId.slice(0, 8)}`, async () => {
    const after = await control(`${tenantPath()}/trade/feeds/${encodeURIComponent(session.sessionId)}/issues/acknowledge`, { method: 'POST', body: {} });
    return `the session is ${after.status}.`;
  }, refreshNow);
}

async function closeClaim(submission) {
  await act(`close claim submission ${submission.id.slice(0, 8)}`, async () => {
    const after = await control(`${tenantPath()}/claims/submissions/${encodeURIComponent(submission.id)}/close`, { method: 'POST', body: { reason: 'closed from the sandbox console' } });
    return `it is ${after.submission.status}.`;
  }, refreshNow);
}

async function triggerWebhook(job, event) {
  await act(`send a sample ${event} for job ${job.id.slice(0, 8)}`, async () => {
    const sent = await control('/_sim/webhooks/trigger', { method: 'POST', body: { jobId: job.id, event, tenantId: state.tenantId } });
    return `delivery ${sent.id} to ${sent.url}; its attempts are under webhook deliveries.`;
  }, refreshNow);
}

async function resendDelivery(delivery) {
  await act(`resend delivery ${delivery.id.slice(0, 8)}`, async () => {
    const sent = await control(`/_sim/webhooks/deliveries/${encodeURIComponent(delivery.id)}/redeliver`, { method: 'POST' });
    return `a new delivery ${sent.id} of ${sent.event} to ${sent.url}.`;
  }, refreshNow);
}

async function createTenant(name) {
  await act(`create tenant ${name || '(unnamed)'}`, async () => {
    const created = await control('/_sim/tenants', { method: 'POST', body: name ? { name } : {} });
    sessionStorage.setItem(TENANT_KEY, created.tenantId);
    return h('span', {}, `tenant ${created.tenantId} (now picked). `, shownOnce('Its integration key:', created.integrationKey));
  }, async () => {
    await loadTenants().catch(() => {});
    state.seenRequest = undefined;
    await refreshNow();
  });
}

async function createKey() {
  await act(`add an integration key to ${state.tenantNames.get(state.tenantId) ?? 'this tenant'}`, async () => {
    const created = await control(`${tenantPath()}/integration-keys`, { method: 'POST', body: {} });
    return h('span', {}, `key ${created.integrationKeyId}. `, shownOnce('The key:', created.integrationKey));
  });
}

async function resetSandbox() {
  await act('reset the sandbox', async () => {
    const fresh = await control('/_sim/reset', { method: 'POST' });
    sessionStorage.setItem(TENANT_KEY, fresh.tenantId);
    Object.keys(state.pages).forEach((k) => delete state.pages[k]);
    return h(
      'span',
      {},
      `every record is gone; the new default tenant is ${fresh.tenantId}. `,
      fresh.integrationKey ? shownOnce('Its integration key:', fresh.integrationKey) : 'Its integration key is the one SIM_INTEGRATION_KEY pins.',
    );
  }, async () => {
    await loadTenants().catch(() => {});
    state.seenRequest = undefined;
    state.seenTransition = undefined;
    await refreshNow();
  });
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
  Object.keys(state.pages).forEach((k) => delete state.pages[k]);
  sessionStorage.setItem(TENANT_KEY, state.tenantId);
  state.publicStale = true;
  state.seenRequest = undefined;
  tick();
});
for (const id of ['requests-tenant-only', 'requests-own']) $(id).addEventListener('change', () => render('panel-requests', loadRequests));
$('checks-tenant-only').addEventListener('change', () => render('panel-client-checks', loadClientChecks));
for (const id of ['lifecycle-machine', 'lifecycle-resource']) $(id).addEventListener('change', () => render('panel-lifecycles', loadLifecycles));
$('advance-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const seconds = Number($('advance-seconds').value);
  const scope = $('advance-scope').value;
  state.clockMoves += 1; // before the move: a tick running now leaves the public panels to the next one
  try {
    await control('/_sim/clock/advance', { method: 'POST', body: { seconds, ...(scope === 'tenant' ? { tenantId: state.tenantId } : {}) } });
    fill($('advance-error'), '');
  } catch (error) {
    fill($('advance-error'), error.message);
  }
  // Let a tick already running finish, then read what the move changed.
  await refreshNow();
});

$('create-tenant-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const name = $('new-tenant-name').value.trim();
  $('new-tenant-name').value = '';
  createTenant(name);
});
$('create-key').addEventListener('click', () => createKey());
// The reset asks first, in the page: a second button, which Escape or "keep it" takes away.
const confirmReset = (ask) => {
  $('reset-confirm').hidden = !ask;
  $('reset').disabled = ask;
  if (ask) $('reset-no').focus();
};
$('reset').addEventListener('click', () => confirmReset(true));
$('reset-no').addEventListener('click', () => confirmReset(false));
$('reset-confirm').addEventListener('keydown', (event) => event.key === 'Escape' && confirmReset(false));
$('reset-yes').addEventListener('click', async () => {
  confirmReset(false);
  await resetSandbox();
});

if (adminToken.get()) signIn(adminToken.get());
