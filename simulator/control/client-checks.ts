// The client-check runs (issue 28 item 4; sandbox-defined, contracts/sandbox-control.openapi.yaml
// /_sim/client-checks): `npm run certify:client` registers each scenario's run as it starts and completes it
// with the certificate's verdict and HTML report, so the console can list them and filter the request log
// to one. Control data, not a tenant's: kept in the store beside the other control state (sandbox.store.ts),
// bounded (the last KEPT_RUNS runs, a report at most REPORT_MAX_CHARS characters, which the contract holds),
// removed with its tenant (tenant-purge.ts), emptied by a reset (the store is cleared).
//
// Two collections: the runs (listed, small) and their reports (read one at a time, up to a megabyte), so a
// list never carries the reports. The only file that touches `clientChecks` and `clientCheckReports`.
import type { components } from '../../contracts/generated/sandbox-control.js';
import type { KernelDeps } from '../kernel/deps.js';
import { actionNotAllowed, notFound } from '../kernel/errors.js';
import type { Handler } from '../kernel/http/types.js';
import { allMatching, deleteIds } from '../kernel/store/delete-matching.js';

type ClientCheckRun = components['schemas']['ClientCheckRun'];
type Registration = components['schemas']['ClientCheckRegistration'];
type Completion = components['schemas']['ClientCheckCompletion'];

/** Runs kept sandbox-wide: registering one more drops the oldest with its report (contract ClientCheckList.kept). */
export const KEPT_RUNS = 50;
/** The contract's maxLength of ClientCheckCompletion.reportHtml (validated before a handler runs). */
export const REPORT_MAX_CHARS = 1_048_576;

interface RunRecord extends ClientCheckRun {
  rev?: number;
}

interface ReportRecord {
  id: string;
  rev?: number;
  html: string;
}

type Field = 'tenantId' | 'registeredAt';
const NEWEST_FIRST = [['registeredAt', 'desc']] as const;

// What the report route sends beside the HTML: the report styles itself (an inline <style>, style
// attributes) and runs nothing, loads nothing, and cannot be framed by another origin.
const REPORT_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'; sandbox allow-same-origin",
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

const view = ({ rev: _rev, ...run }: RunRecord): ClientCheckRun => run;

export function clientChecks(deps: Pick<KernelDeps, 'store' | 'ids'>) {
  const runs = deps.store.collection<RunRecord, Field>('clientChecks', {
    fields: { tenantId: (r) => r.tenantId, registeredAt: (r) => r.registeredAt },
    indexes: {
      all: { keys: [], order: NEWEST_FIRST },
      byTenant: { keys: ['tenantId'], order: NEWEST_FIRST },
    },
  });
  const reports = deps.store.collection<ReportRecord>('clientCheckReports');

  /** Deletes these runs and their reports; answers how many records went. */
  const remove = async (ids: string[]) => (await deleteIds(reports, ids)) + (await deleteIds(runs, ids));

  /** Keeps the newest KEPT_RUNS runs: the oldest beyond go, with their reports. */
  const trim = async () => {
    const excess = (await runs.count({})) - KEPT_RUNS;
    if (excess <= 0) return;
    const oldest = await runs.query({ where: {}, orderBy: [['registeredAt', 'asc']], limit: excess });
    await remove(oldest.items.map((r) => r.id));
  };

  return {
    async register(registration: Registration): Promise<ClientCheckRun> {
      const run: RunRecord = {
        id: deps.ids.uuid(),
        tenantId: registration.tenantId,
        scenario: registration.scenario,
        command: registration.command,
        certificationId: registration.certificationId ?? null,
        status: 'running',
        startedAt: registration.startedAt,
        // The wall clock, as the request log's `at` (kernel/http/request-log.ts): the run's window there.
        registeredAt: new Date().toISOString(),
        verdict: null,
        totals: null,
        rules: [],
        finishedAt: null,
        completedAt: null,
        reportBytes: null,
      };
      const stored = await runs.put(run);
      await trim();
      return view(stored);
    },

    async complete(id: string, completion: Completion): Promise<ClientCheckRun> {
      const run = await runs.get(id);
      if (!run) throw notFound('client-check run');
      if (run.status === 'completed') throw actionNotAllowed('the client-check run is completed already', { runId: id, completedAt: run.completedAt });
      const html = completion.reportHtml;
      // The report first: a run that says it has one always has it.
      if (html !== null) await reports.put({ id, html });
      const completed = await runs.modify(id, (current) =>
        current.status === 'completed'
          ? undefined
          : {
              ...current,
              status: 'completed',
              verdict: completion.verdict,
              totals: completion.totals,
              rules: completion.rules,
              finishedAt: completion.finishedAt,
              completedAt: new Date().toISOString(),
              reportBytes: html === null ? null : Buffer.byteLength(html),
            },
      );
      if (!completed) {
        // Dropped by a trim between the read and the write (its report goes too), or completed by another request.
        if (!(await runs.get(id))) {
          await reports.delete(id);
          throw notFound('client-check run');
        }
        throw actionNotAllowed('the client-check run is completed already', { runId: id });
      }
      return view(completed);
    },

    async get(id: string): Promise<ClientCheckRun> {
      const run = await runs.get(id);
      if (!run) throw notFound('client-check run');
      return view(run);
    },

    async list(filter: { tenantId?: string; limit: number }) {
      const page = await runs.query({ where: filter.tenantId === undefined ? {} : { tenantId: filter.tenantId }, limit: filter.limit });
      return { items: page.items.map(view), kept: KEPT_RUNS };
    },

    async report(id: string): Promise<string> {
      const run = await runs.get(id);
      const report = run?.reportBytes ? await reports.get(id) : undefined;
      if (!report) throw notFound(run ? 'report of this client-check run' : 'client-check run');
      return report.html;
    },

    /** DELETE /_sim/tenants/{tenantId}: the tenant's runs and their reports; answers how many records went. */
    async purgeTenant(tenantId: string): Promise<number> {
      return remove((await allMatching(runs, { tenantId })).map((r) => r.id));
    },
  };
}

export type ClientChecks = ReturnType<typeof clientChecks>;

/** The control handlers of /_sim/client-checks; `tenantExists` is the control API's 404 for an unknown tenant. */
export function clientCheckHandlers(checks: ClientChecks, tenantExists: (tenantId: string) => Promise<unknown>) {
  const listSandboxClientChecks: Handler<'listSandboxClientChecks'> = async ({ query }) => ({ status: 200, body: await checks.list({ tenantId: query.tenantId, limit: query.limit ?? KEPT_RUNS }) });
  const registerSandboxClientCheck: Handler<'registerSandboxClientCheck'> = async ({ body }) => {
    await tenantExists(body.tenantId);
    return { status: 201, body: await checks.register(body) };
  };
  const getSandboxClientCheck: Handler<'getSandboxClientCheck'> = async ({ params }) => ({ status: 200, body: await checks.get(params.runId) });
  const completeSandboxClientCheck: Handler<'completeSandboxClientCheck'> = async ({ params, body }) => ({ status: 200, body: await checks.complete(params.runId, body) });
  const getSandboxClientCheckReport: Handler<'getSandboxClientCheckReport'> = async ({ params }) => ({
    status: 200,
    contentType: 'text/html; charset=utf-8',
    headers: REPORT_HEADERS,
    body: await checks.report(params.runId),
  });
  return { listSandboxClientChecks, registerSandboxClientCheck, getSandboxClientCheck, completeSandboxClientCheck, getSandboxClientCheckReport };
}
