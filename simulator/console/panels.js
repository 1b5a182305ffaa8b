// One render function per panel: data in, nodes out (dom.js: text only). app.js decides when to load.
import { CONSOLE_REQUEST_PREFIX } from './api.js';
import { badge, clientPage, h, idCell, jsonBlock, TENANT_CLOCK, table, time, WALL_CLOCK } from './dom.js';
import { historyCell } from './history.js';

const num = (n) => (typeof n === 'number' ? n.toLocaleString('en-US', { maximumFractionDigits: 2 }) : n === null || n === undefined ? '—' : String(n));

/**
 * `onTrigger(job, event)`: a sample webhook event for the job (sandbox-defined, POST /_sim/webhooks/trigger),
 * sent to the webhook the job was enqueued with; a job without one is refused (404) and the page says so.
 */
export function jobsPanel(jobs, transitions, nav, timeline, { onTrigger }) {
  return h('div', {}, timeline, nav, table(
    [
      { title: 'job', cell: (j) => idCell(j.id) },
      { title: 'type', cell: (j) => j.type },
      { title: 'state', cell: (j) => badge(j.status) },
      { title: 'progress', cell: (j) => h('span', { class: 'progress' }, h('progress', { max: 100, value: j.progress }), ` ${j.progress} %`) },
      { title: 'outcomes', cell: (j) => (j.outcomes ? `${j.outcomes.atRisk} at risk, ${j.outcomes.needsReview} review, ${j.outcomes.cleared} cleared` : '') },
      { title: 'error', cell: (j) => j.error ?? '' },
      { title: `updated (${TENANT_CLOCK})`, cell: (j) => time(j.updatedAt) },
      { title: `history (${TENANT_CLOCK})`, cell: (j) => historyCell(transitions, 'job', j.id) },
      {
        title: 'webhook sample',
        cell: (j) =>
          h('span', { class: 'actions' }, ['job.completed', 'job.failed'].map((event) => h('button', { type: 'button', class: 'trigger', 'data-event': event, 'data-job': j.id, title: `send a sample ${event} for this job to its webhook`, onclick: () => onTrigger(j, event) }, event.slice(4)))),
      },
    ],
    jobs,
    'no jobs yet',
  ));
}

const SIMA_MOVES = { OPEN: ['accept', 'override', 'dismiss'], ACCEPTED: ['reopen'], OVERRIDDEN: ['reopen'], DISMISSED: ['reopen'] };

/** `onReview(result, action)`: the review workflow's moves (sandbox-defined, spec 3.5) the result's state allows. */
export function simaPanel(results, summary, transitions, { nav, chart, onReview }) {
  return h(
    'div',
    {},
    chart ?? null,
    summary ? h('p', { class: 'summary' }, `${num(summary.totalSkus)} SKUs screened · ${num(summary.atRisk)} at risk · ${num(summary.needsReview)} need review · total exposure ${num(summary.totalExposure)}`) : null,
    nav,
    table(
      [
        { title: 'SKU', cell: (r) => h('code', {}, r.sku) },
        { title: 'outcome', cell: (r) => badge(r.outcome) },
        { title: 'workflow', cell: (r) => r.workflowStatus },
        { title: 'HS', cell: (r) => r.currentHs ?? '' },
        { title: 'origin', cell: (r) => r.countryOfOrigin ?? '' },
        { title: 'exposure / yr', class: 'num', cell: (r) => num(r.exposureAnnual) },
        { title: 'AD %', class: 'num', cell: (r) => num(r.adRate) },
        { title: 'CVD %', class: 'num', cell: (r) => num(r.cvdRate) },
        { title: 'stale', cell: (r) => (r.isStale ? 'yes' : '') },
        { title: `history (${TENANT_CLOCK})`, cell: (r) => historyCell(transitions, 'sima-workflow', r.id, r.sku) },
        {
          title: 'review',
          cell: (r) =>
            h('span', { class: 'actions' }, (SIMA_MOVES[r.workflowStatus] ?? []).map((action) => h('button', { type: 'button', class: 'sima-action', 'data-action': action, 'data-sku': r.sku, onclick: () => onReview(r, action) }, action))),
        },
      ],
      results,
      'no SIMA results yet',
    ),
  );
}

/** `onAcknowledge(session)`: acknowledges its open non-blocking issues (a dashboard action, spec 5.5). */
export function feedPanel(sessions, transitions, { nav, onAcknowledge, issuesNav }) {
  if (!sessions.length) return h('p', { class: 'muted' }, 'no feed sessions yet');
  return h(
    'div',
    {},
    nav,
    sessions.map(({ session, issues, issuesTotal, error }) =>
      h(
        'div',
        { class: 'card' },
        h('h3', {}, idCell(session.sessionId), ' ', session.fileName ?? '', ' ', session.status ? badge(session.status) : null),
        error
          ? h('p', { class: 'error' }, error)
          : h(
              'div',
              {},
              h(
                'p',
                { class: 'inline' },
                `${num(session.issueCount)} issues, ${num(session.blockingIssueCount)} blocking · applyable: ${session.applyable ? 'yes' : 'no'}`,
                session.status === 'PREVIEW_BLOCKED' && issues.some((i) => !i.isBlocking && !i.acknowledged)
                  ? h('button', { type: 'button', class: 'acknowledge', onclick: () => onAcknowledge(session) }, 'acknowledge the non-blocking issues')
                  : null,
              ),
              h('h4', {}, `history (${TENANT_CLOCK})`),
              historyCell(transitions, 'feed-session', session.sessionId),
              issuesNav(session.sessionId, issues.length, issuesTotal),
              table(
                [
                  { title: 'type', cell: (i) => i.issueType },
                  { title: 'blocking', cell: (i) => (i.isBlocking ? badge('blocking') : 'no') },
                  { title: 'row', class: 'num', cell: (i) => num(i.rowNumber) },
                  { title: 'field', cell: (i) => i.field ?? '' },
                  { title: 'message', cell: (i) => i.message },
                  { title: `acknowledged (${TENANT_CLOCK})`, cell: (i) => (i.acknowledged ? time(i.acknowledgedAt) || 'yes' : '') },
                ],
                issues,
                'no issues',
              ),
            ),
      ),
    ),
  );
}

export function findingsPanel(findings, transitions, nav) {
  return h('div', {}, nav, table(
    [
      { title: 'finding', cell: (f) => idCell(f.id) },
      { title: 'carrier', cell: (f) => f.carrier },
      { title: 'type', cell: (f) => f.findingType },
      { title: 'state', cell: (f) => badge(f.workflowStatus) },
      { title: 'recoverable', class: 'num', cell: (f) => `${num(f.recoverableAmount)} ${f.currency ?? ''}` },
      { title: `deadline (${TENANT_CLOCK})`, cell: (f) => f.disputeDeadline ?? '' },
      { title: `history (${TENANT_CLOCK})`, cell: (f) => historyCell(transitions, 'finding', f.id) },
    ],
    findings,
    'no findings yet',
  ));
}

/** `onClose(submission)`: the operator's administrative close (sandbox-defined, spec 3.4). */
export function claimsPanel(submissions, transitions, { nav, onClose }) {
  return h('div', {}, nav, table(
    [
      { title: 'submission', cell: (s) => idCell(s.id) },
      { title: 'carrier', cell: (s) => s.carrier },
      { title: 'state', cell: (s) => badge(s.status) },
      { title: 'findings', class: 'num', cell: (s) => num(s.findingIds?.length) },
      { title: 'reference', cell: (s) => s.externalReference ?? '' },
      { title: `history (${TENANT_CLOCK})`, cell: (s) => historyCell(transitions, 'claim-submission', s.id) },
      { title: '', cell: (s) => (s.status === 'CLOSED' ? '' : h('button', { type: 'button', class: 'close-claim', onclick: () => onClose(s) }, 'close')) },
    ],
    submissions,
    'no claim submissions yet',
  ));
}

const ORIGIN = { trigger: 'sample (trigger)', redelivery: 'resent' };

/** `onResend(delivery)`: sends a delivered or failed delivery again (sandbox-defined, POST /_sim/webhooks/deliveries/{id}/redeliver). */
export function deliveriesPanel(deliveries, { offset, size, onPage, onResend }) {
  if (!deliveries.length) return h('p', { class: 'muted' }, 'no webhook deliveries yet');
  const page = clientPage('deliveries', deliveries, offset, size, onPage);
  return h(
    'div',
    {},
    h('p', { class: 'muted' }, 'Resend and the jobs\' webhook samples are sandbox tools (the service has no manual retry, spec 6 rule 3): each sends a new delivery, with a new delivery id and its own attempts. A pending delivery is retried on its schedule (next retry).'),
    page.nav,
    page.rows.map((d) =>
      h(
        'div',
        { class: 'card delivery', 'data-delivery': d.id },
        h(
          'h3',
          {},
          badge(d.status),
          ' ',
          d.event,
          ORIGIN[d.origin] ? h('span', { class: 'muted' }, ` (${ORIGIN[d.origin]})`) : null,
          ' · job ',
          idCell(d.jobId),
          ' → ',
          h('code', {}, d.url),
          ' ',
          d.status === 'pending' ? null : h('button', { type: 'button', class: 'resend', 'data-delivery': d.id, onclick: () => onResend(d) }, 'resend'),
        ),
        h('p', { class: 'muted' }, `delivery ${d.id}${d.redeliveryOf ? ` (sends ${d.redeliveryOf} again)` : ''} · created ${time(d.createdAt)} · next retry: ${d.nextAttemptAt ? time(d.nextAttemptAt) : 'none'} (${TENANT_CLOCK})`),
        table(
          [
            { title: '#', class: 'num', cell: (a) => a.number },
            { title: `at (${TENANT_CLOCK})`, cell: (a) => time(a.at) },
            { title: 'status', cell: (a) => (a.statusCode === null ? badge('no answer', 'failed') : badge(String(a.statusCode), a.statusCode < 300 ? 'delivered' : 'failed')) },
            { title: 'latency', class: 'num', cell: (a) => `${num(a.durationMs)} ms` },
            { title: 'error', cell: (a) => a.error ?? '' },
            { title: 'X-SVC-Signature', cell: (a) => (a.signature === undefined ? h('span', { class: 'muted' }, 'not recorded') : a.signature === null ? 'unsigned' : h('code', { class: 'sig', title: a.signature }, a.signature)) },
          ],
          d.attempts,
          'no attempt yet',
        ),
      ),
    ),
  );
}

/** The three clocks every time on the page is on: the wall clock (the sandbox's real time), the sandbox's and the tenant's virtual clocks. */
export function clockPanel(sandbox, tenant) {
  const line = (label, c) => h('p', { class: 'clock' }, h('strong', {}, label), ' ', h('span', { class: 'clock-now' }, time(c.now)), h('span', { class: 'muted' }, ` UTC (+${num(c.offsetSeconds)} s ahead of the wall clock)`));
  const wall = new Date(Date.parse(sandbox.now) - sandbox.offsetSeconds * 1000).toISOString();
  return h(
    'div',
    {},
    h('p', { class: 'clock' }, h('strong', {}, 'wall clock'), ' ', h('span', { class: 'clock-now wall' }, time(wall)), h('span', { class: 'muted' }, ' UTC (the request log, client checks)')),
    line('sandbox clock', sandbox),
    tenant ? line('tenant clock', tenant) : null,
  );
}

/** The request log, newest first, a page at a time; an entry's exchange is a <details> kept open across refreshes (data-keep). */
export function requestsPanel(answer, showOwn, { offset, size, onPage }, empty = 'no requests recorded yet') {
  if (!answer.available) return h('p', { class: 'muted' }, 'not available: this sandbox does not serve GET /_sim/requests yet');
  const items = answer.body.items.filter((r) => showOwn || !String(r.id).startsWith(CONSOLE_REQUEST_PREFIX));
  // The log gives no count: N is what was read, "+" when older entries remain beyond it.
  const page = clientPage('requests', items, offset, size, onPage, answer.body.nextCursor ? `${items.length}+` : items.length);
  return h('div', {}, page.nav, table(
    [
      { title: `at (${WALL_CLOCK})`, cell: (r) => time(r.at) },
      { title: `answered (${TENANT_CLOCK})`, cell: (r) => time(r.virtualAt) },
      { title: 'method', cell: (r) => r.method },
      { title: 'path', cell: (r) => h('code', {}, r.path) },
      { title: 'status', cell: (r) => badge(String(r.status), r.status < 400 ? 'delivered' : 'failed') },
      { title: 'ms', class: 'num', cell: (r) => num(r.durationMs) },
      { title: 'operation', cell: (r) => r.operationId ?? '' },
      { title: 'faults', cell: (r) => (r.faults?.length ? r.faults.map((f) => badge(f, 'fault')) : '') },
      {
        title: 'exchange',
        cell: (r) =>
          h(
            'details',
            { 'data-keep': `request:${r.id}` },
            h('summary', {}, h('code', {}, r.id)),
            h('h4', {}, 'request'),
            jsonBlock(r.request),
            h('h4', {}, 'response'),
            jsonBlock(r.response),
          ),
      },
    ],
    page.rows,
    empty,
  ));
}

const CHAOS_SWITCHES = ['duplicate', 'reorder', 'badSignature', 'oldTimestamp', 'wrongPrefix'];

/**
 * The defects switched on (sandbox-wide, this tenant's) with a switch-off button each, a catalogue picker to
 * switch one on (grouped by area), and this tenant's webhook chaos switches. `on`: { sandboxDefect(id,
 * enable), tenantDefect(id, enable), chaos(member, enable) }.
 */
export function faultsPanel(defects, tenantFaults, on) {
  const byId = new Map((defects.catalogue ?? []).map((d) => [d.id, d]));
  const areas = [...new Set((defects.catalogue ?? []).map((d) => d.area))].sort();
  const activeList = (ids, scope, off) =>
    h(
      'ul',
      { class: 'active-defects', 'data-scope': scope },
      ids.map((id) =>
        h('li', {}, badge(id, 'fault'), ' ', byId.get(id)?.description ?? '', ' ', h('button', { type: 'button', class: 'defect-off', 'data-defect': id, onclick: () => off(id) }, 'switch off')),
      ),
    );
  const picker = (scope, switchOn, active) => {
    const select = h(
      'select',
      { class: 'defect-pick', 'data-scope': scope, 'aria-label': `defect to switch on (${scope})` },
      areas.map((area) =>
        h(
          'optgroup',
          { label: area },
          defects.catalogue.filter((d) => d.area === area && !active.includes(d.id)).map((d) => h('option', { value: d.id, title: d.description }, `${d.id} (${d.kind})`)),
        ),
      ),
    );
    return h('p', { class: 'inline' }, select, h('button', { type: 'button', class: 'defect-on', 'data-scope': scope, onclick: () => select.value && switchOn(select.value) }, 'switch on'));
  };
  return h(
    'div',
    {},
    h('h3', {}, 'Sandbox-wide defects'),
    defects.active.length ? activeList(defects.active, 'sandbox', (id) => on.sandboxDefect(id, false)) : h('p', { class: 'muted' }, 'none: the sandbox follows the spec'),
    picker('sandbox', (id) => on.sandboxDefect(id, true), defects.active),
    h('h3', {}, 'This tenant'),
    !tenantFaults.available
      ? h('p', { class: 'muted' }, 'not available: this sandbox does not serve per-tenant faults yet')
      : h(
          'div',
          {},
          tenantFaults.body.defects?.length ? activeList(tenantFaults.body.defects, 'tenant', (id) => on.tenantDefect(id, false)) : h('p', { class: 'muted' }, 'no tenant defects'),
          picker('tenant', (id) => on.tenantDefect(id, true), tenantFaults.body.defects ?? []),
          h(
            'p',
            { class: 'inline chaos' },
            'webhook chaos:',
            CHAOS_SWITCHES.map((member) =>
              h('label', {}, h('input', { type: 'checkbox', class: 'chaos', 'data-member': member, checked: tenantFaults.body.webhookChaos?.[member] === true, onchange: (event) => on.chaos(member, event.target.checked) }), ` ${member}`),
            ),
            tenantFaults.body.webhookChaos?.delaySeconds ? h('span', { class: 'muted' }, `delay ${tenantFaults.body.webhookChaos.delaySeconds} s`) : null,
          ),
        ),
  );
}

export function testValuesPanel(answer, { offset, size, onPage }) {
  if (!answer.available) return h('p', { class: 'muted' }, 'not available: this sandbox does not serve GET /_sim/test-values yet');
  const page = clientPage('test-values', answer.body.items, offset, size, onPage);
  return h('div', {}, page.nav, table(
    [
      { title: 'area', cell: (v) => v.area },
      { title: 'value', cell: (v) => h('code', {}, v.value) },
      { title: 'effect', cell: (v) => v.effect },
      { title: 'operation', cell: (v) => v.operation ?? '' },
    ],
    page.rows,
    'no test values',
  ));
}

/** The viewer page of a client check's report (report.html): it reads the report with the admin token. */
export const reportViewerHref = (runId) => `/_sim/console/report.html#${encodeURIComponent(runId)}`;

const VERDICT_BADGE = { CERTIFIED: 'certified', 'NOT CERTIFIED': 'not_certified' };

/** A client check's verdict: CERTIFIED, NOT CERTIFIED, or running until the certification completes it. */
export const checkVerdict = (run) => (run.status === 'completed' ? badge(run.verdict, VERDICT_BADGE[run.verdict]) : badge('running', 'running'));

const totalsText = (t) => (t ? `${t.passed} passed · ${t.failed} failed · ${t.warnings} warning${t.warnings === 1 ? '' : 's'} · ${t.notExercised} not exercised` : '');

/**
 * The client checks of npm run certify:client (GET /_sim/client-checks), newest first. `onShowRequests(run)`
 * filters the request log to the run; `filteredRunId` marks the run it is filtered to.
 */
export function clientChecksPanel(answer, { tenantName, onShowRequests, filteredRunId, offset, size, onPage }) {
  if (!answer.available) return h('p', { class: 'muted' }, 'not available: this sandbox does not serve GET /_sim/client-checks yet');
  const page = clientPage('client-checks', answer.body.items, offset, size, onPage);
  return h(
    'div',
    {},
    h('p', { class: 'muted' }, `npm run certify:client records each scenario's run here (the last ${answer.body.kept} are kept). Times are the sandbox's wall clock, UTC: the clock of the request log's "at".`),
    page.nav,
    table(
      [
        { title: 'registered (wall clock, UTC)', cell: (r) => h('span', { class: 'when', title: `certifier's clock: started ${time(r.startedAt)}` }, time(r.registeredAt)) },
        { title: 'tenant', cell: (r) => h('span', {}, idCell(r.tenantId), ' ', h('span', { class: 'muted' }, tenantName(r.tenantId) ?? '')) },
        { title: 'scenario', cell: (r) => r.scenario },
        { title: 'verdict', cell: checkVerdict },
        { title: 'rules', cell: (r) => totalsText(r.totals) },
        { title: 'completed (wall clock, UTC)', cell: (r) => (r.completedAt ? h('span', { class: 'when', title: `certifier's clock: finished ${time(r.finishedAt)}` }, time(r.completedAt)) : '') },
        { title: 'command', cell: (r) => h('code', { class: 'command', title: r.command }, r.command) },
        {
          title: 'report',
          cell: (r) =>
            r.reportBytes
              ? // rel=opener: the viewer tab gets a copy of this tab's sessionStorage, where the admin token is.
                h('a', { href: reportViewerHref(r.id), target: '_blank', rel: 'opener', class: 'report-link' }, 'open the report')
              : h('span', { class: 'muted' }, r.status === 'completed' ? 'not kept' : ''),
        },
        {
          title: '',
          cell: (r) =>
            r.id === filteredRunId
              ? h('span', { class: 'muted' }, 'request log filtered to it')
              : h('button', { type: 'button', class: 'show-requests', onclick: () => onShowRequests(r) }, 'show its requests'),
        },
      ],
      page.rows,
      'no client checks yet: npm run certify:client records its runs here',
    ),
  );
}

/** The request log's filter to a client check: a chip saying what it keeps, with a button removing it. */
export function requestFilterChip(filter, onRemove) {
  if (!filter) return null;
  const window = `${time(filter.since)} → ${filter.until ? time(filter.until) : 'now (running)'}`;
  return h(
    'span',
    { class: 'chip', id: 'requests-filter-chip' },
    `client check ${filter.scenario} · tenant `,
    idCell(filter.tenantId),
    ` · ${window} (wall clock, UTC) `,
    h('button', { type: 'button', class: 'chip-remove', 'aria-label': 'remove the client check filter', title: 'remove the filter', onclick: onRemove }, '×'),
  );
}
