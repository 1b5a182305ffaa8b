// trade.feed-lifecycle-model (spec 3.2, 4.4): feed sessions move only along the table of spec 3.2
// (models/feed-session.model.ts), as a fast-check model: uploads of feeds of four kinds, reads, classify
// previews, direct applies and (simulator profile) acknowledgements in any order; each session is read right
// after its upload receipt, which it may not be behind (the table only moves forward). From a state polling
// stops at (READY, PREVIEW_BLOCKED, FAILED, APPLIED) the spec decides each answer: classify-preview only
// from READY, apply from READY or through the direct-apply shortcut, else 409 naming the state. Every
// failure carries its seed, the shrunk sequence and the command that replays it.
import fc from 'fast-check';
import { pageItems } from '../../harness/locate.js';
import { poll } from '../../harness/poller.js';
import { REAL_CLOCK } from '../../harness/transport.js';
import type { AdminClient } from '../../harness/admin.js';
import { defineCheck, type CheckContext } from '../../harness/check.js';
import type { ConformanceClient } from '../../harness/client.js';
import type { Exchange } from '../../harness/types.js';
import { isFeedStatus, judgeFeedSession, POLL_TERMINAL, type FeedSessionStatus } from '../../models/feed-session.model.js';
import { modelExpect, ModelViolation, runModel, type ModelTools } from '../../models/runner.js';
import { isRateLimited, settleJobs } from '../jobs-support.js';
import { codeOf, directRows, feedCsv, feedForm, feedRows, feedTenant, sessionPath, UPLOAD_PATH } from './support.js';

type Kind = 'direct' | 'clean' | 'nonBlocking' | 'blocking';

interface KnownSession {
  id: string;
  jobId: string;
  kind: Kind;
  status: FeedSessionStatus;
  detail: Record<string, unknown>;
}
interface FeedModel {
  sessions: KnownSession[];
}
interface FeedReal {
  client: ConformanceClient;
  admin?: AdminClient;
  tenantId?: string;
  /** Simulator profile: the sandbox's own choices may be judged too. */
  sandboxRules: boolean;
}

const pick = (model: FeedModel, n: number) => model.sessions[n % model.sessions.length];
const stable = (s: KnownSession) => POLL_TERMINAL.includes(s.status);
const shortcut = (d: Record<string, unknown>) => d.status === 'PREVIEW_BLOCKED' && d.applyable === true && d.issueCount === 0 && d.blockingIssueCount === 0;

/** Reads the session, judges the read against what was known, and learns it. */
async function read(session: KnownSession, real: FeedReal, where: string): Promise<Exchange | undefined> {
  const exchange = await real.client.call('GET', sessionPath(session.id));
  if (isRateLimited(exchange)) return undefined;
  modelExpect(exchange.response.status === 200, 'feed-readable', `${where}: GET ${sessionPath(session.id)} answered ${exchange.response.status}`, exchange);
  const detail = exchange.response.body as Record<string, unknown>;
  const problems = judgeFeedSession(`session ${session.id} (${session.kind} feed)`, session.status, detail);
  if (problems.length) throw new ModelViolation(problems[0].rule, `${where}: ${problems.map((p) => p.message).join('; ')}`, exchange);
  session.status = detail.status as FeedSessionStatus;
  session.detail = detail;
  return exchange;
}

class Upload implements fc.AsyncCommand<FeedModel, FeedReal> {
  constructor(readonly kind: Kind) {}
  check = () => true;
  async run(model: FeedModel, real: FeedReal) {
    const csv = feedCsv(feedRows(this.kind));
    const exchange = await real.client.call('POST', UPLOAD_PATH, { form: feedForm(csv) });
    if (isRateLimited(exchange)) return;
    const body = (exchange.response.body ?? {}) as Record<string, unknown>;
    modelExpect(exchange.response.status === 202 && typeof body.sessionId === 'string' && typeof body.jobId === 'string', 'feed-upload-accepted', `${this}: answered ${exchange.response.status}, not 202 with sessionId and jobId (spec 4.4)`, exchange);
    modelExpect(body.status === 'UPLOADED' || POLL_TERMINAL.includes(body.status as FeedSessionStatus) || body.status === 'NORMALIZING', 'feed-status-known', `${this}: the receipt's status is ${JSON.stringify(body.status)}`, exchange);
    // spec 3.2: a session only moves forward along the table, so a read right after the receipt is not behind
    // the state the receipt named (a receipt saying NORMALIZING for a session still UPLOADED went backwards).
    const session: KnownSession = { id: body.sessionId as string, jobId: body.jobId as string, kind: this.kind, status: isFeedStatus(body.status) ? body.status : 'UPLOADED', detail: {} };
    model.sessions.push(session);
    await read(session, real, `${this}: the read right after the receipt`);
  }
  toString = () => `Upload(${this.kind})`;
}

class Settle implements fc.AsyncCommand<FeedModel, FeedReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<FeedModel>) => model.sessions.length > 0;
  async run(model: FeedModel, real: FeedReal) {
    const session = pick(model, this.n);
    await settleJobs(real.client, [session.jobId], { admin: real.admin, realMs: real.admin ? 5_000 : 30_000 });
    // The harness's poller: spec 8.7's pace, or the virtual clock moved 5 s between reads (simulator profile).
    const admin = real.admin;
    await poll({
      maxReads: 6,
      maxMs: 60_000,
      clock: admin ? REAL_CLOCK : real.client.transport.clock,
      async read() {
        if (!stable(session)) await read(session, real, `${this}`);
        return stable(session);
      },
      ...(admin ? { advance: async () => (await admin.advanceClock(5), true) } : {}),
    });
    if (stable(session)) await read(session, real, `${this}`);
  }
  toString = () => `Settle(${this.n})`;
}

class Preview implements fc.AsyncCommand<FeedModel, FeedReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<FeedModel>) => model.sessions.length > 0;
  async run(model: FeedModel, real: FeedReal) {
    const session = pick(model, this.n);
    const before = session.status;
    const exchange = await real.client.call('POST', `${sessionPath(session.id)}/classify-preview`, { json: {} });
    if (isRateLimited(exchange) || !stable(session)) return; // spec 8.4; or a state still moving on its own
    const where = `${this} on a session known as ${before}`;
    if (before === 'READY') modelExpect(exchange.response.status === 202, 'feed-preview-ready', `${where}: answered ${exchange.response.status}, not 202 (spec 4.4)`, exchange);
    else {
      modelExpect(exchange.response.status === 409 && codeOf(exchange) === 'ACTION_NOT_ALLOWED', 'feed-preview-refused', `${where}: answered ${exchange.response.status}, not 409 ACTION_NOT_ALLOWED (spec 4.4: classify-preview needs READY)`, exchange);
    }
    await read(session, real, where);
    modelExpect(session.status === before, 'feed-preview-keeps-state', `${where}: the session moved to ${session.status}; a classify preview does not move it (spec 3.2)`);
  }
  toString = () => `Preview(${this.n})`;
}

class Apply implements fc.AsyncCommand<FeedModel, FeedReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<FeedModel>) => model.sessions.length > 0;
  async run(model: FeedModel, real: FeedReal) {
    const session = pick(model, this.n);
    if (!stable(session)) return;
    const skus = await real.client.call('GET', `${sessionPath(session.id)}/skus?limit=500`);
    const rows = directRows(pageItems(skus.response.body, 'skus') ?? []);
    if (rows.length === 0) return;
    const before = session.status;
    const allowed = before === 'READY' || shortcut(session.detail);
    const exchange = await real.client.call('POST', `${sessionPath(session.id)}/apply`, { json: { rows, originCountry: 'CN', screeningAuthority: 'CA' } });
    if (isRateLimited(exchange)) return;
    const where = `${this} on a session known as ${before}${shortcut(session.detail) ? ' (direct-apply shortcut)' : ''}`;
    if (allowed) {
      modelExpect(exchange.response.status === 200 && (exchange.response.body as { status?: unknown }).status === 'APPLIED', 'feed-apply', `${where}: answered ${exchange.response.status}, not 200 APPLIED (spec 3.2, 4.4)`, exchange);
    } else {
      modelExpect(exchange.response.status === 409 && codeOf(exchange) === 'ACTION_NOT_ALLOWED', 'feed-apply-refused', `${where}: answered ${exchange.response.status}, not 409 ACTION_NOT_ALLOWED (spec 3.2)`, exchange);
      // `details.currentState` is the sandbox's (spec 7 names no details for this 409): simulator profile only.
      const state = (exchange.response.body as { details?: { currentState?: unknown } }).details?.currentState;
      if (real.sandboxRules && state !== undefined) modelExpect(state === before, 'feed-refusal-names-state', `${where}: the 409 names state ${JSON.stringify(state)}`, exchange);
    }
    await read(session, real, where);
  }
  toString = () => `Apply(${this.n})`;
}

class Acknowledge implements fc.AsyncCommand<FeedModel, FeedReal> {
  constructor(readonly n: number) {}
  check = (model: Readonly<FeedModel>) => model.sessions.length > 0;
  async run(model: FeedModel, real: FeedReal) {
    const session = pick(model, this.n);
    if (!real.admin || !real.tenantId || session.status !== 'PREVIEW_BLOCKED') return;
    const before = session.detail;
    const exchange = await real.admin.acknowledgeFeedIssues(real.tenantId, session.id);
    const where = `${this} on a PREVIEW_BLOCKED session with ${JSON.stringify(before.issueCount)} issue(s), ${JSON.stringify(before.blockingIssueCount)} blocking`;
    modelExpect(exchange.response.status === 200, 'feed-acknowledge', `${where}: answered ${exchange.response.status}`, exchange);
    await read(session, real, where);
    if (before.blockingIssueCount === 0 && Number(before.issueCount) > 0) modelExpect((session.status as FeedSessionStatus) === 'READY', 'feed-acknowledge-ready', `${where}: the session is ${session.status} after its last non-blocking issue was acknowledged, not READY (spec 3.2)`);
    if (Number(before.blockingIssueCount) > 0) modelExpect(session.status === 'PREVIEW_BLOCKED', 'feed-blocking-holds', `${where}: the session left PREVIEW_BLOCKED with blocking issues (spec 3.2)`);
  }
  toString = () => `Acknowledge(${this.n})`;
}

export const tradeFeedLifecycleModel = defineCheck({
  id: 'trade.feed-lifecycle-model',
  title: 'Feed sessions move only along the table of spec 3.2, and preview, apply and acknowledgement answer as it says',
  area: 'trade',
  needs: ['writes'],
  async run(ctx: CheckContext) {
    const kind = fc.constantFrom<Kind>('direct', 'clean', 'nonBlocking', 'blocking');
    const n = fc.nat(15);
    const commands = [
      kind.map((k) => new Upload(k)),
      kind.map((k) => new Upload(k)),
      n.map((i) => new Settle(i)),
      n.map((i) => new Settle(i)),
      n.map((i) => new Preview(i)),
      n.map((i) => new Apply(i)),
      ...(ctx.admin ? [n.map((i) => new Acknowledge(i))] : []),
    ];
    await runModel<FeedModel, FeedReal>({
      ctx,
      checkId: 'trade.feed-lifecycle-model',
      name: 'feed-session',
      commands,
      async initial(tools: ModelTools) {
        const tenant = await feedTenant(tools, 'Conformance feed lifecycle model');
        return { model: { sessions: [] }, real: { client: tenant.client, admin: tools.admin, tenantId: tenant.tenantId, sandboxRules: ctx.options.profile === 'simulator' } };
      },
      sequences: ctx.admin ? Math.min(ctx.runs, 15) : Math.min(ctx.runs, 3),
      maxCommands: 10,
      timeLimitMs: 60_000,
    });
  },
});
