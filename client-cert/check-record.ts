// The certification's record on the sandbox (issue 28 item 4): each scenario's run registered as it starts
// (POST /_sim/client-checks) and completed once judged, with the certificate's verdict, its totals, the
// rules' verdicts in that scenario and the HTML report, so the sandbox console lists it beside the tenant's
// request log. A convenience, never a condition: a sandbox older than the route, or one that refuses the
// record, leaves the certification as it is, and the certifier says so once (the scenarios run at once).
import { randomUUID } from 'node:crypto';
import type { Certificate } from './types.js';
import { RouteMissing, type SandboxControl } from './sandbox.js';

/** The control contract's maxLength of ClientCheckCompletion.reportHtml: a longer report is not sent. */
export const REPORT_MAX_CHARS = 1_048_576;
/** The contract's maxLength of ClientCheckRegistration.command. */
const COMMAND_MAX_CHARS = 500;

export interface CheckRecorder {
  /** Registers the scenario's run on its tenant (before the client starts). */
  register(scenario: string, tenantId: string): Promise<void>;
  /** Completes every registered run with the judged certificate and its HTML report. */
  complete(certificate: Certificate, reportHtml: string): Promise<void>;
  /** The sandbox's run id of each registered scenario. */
  readonly runIds: ReadonlyMap<string, string>;
}

export function checkRecorder(control: Pick<SandboxControl, 'registerClientCheck' | 'completeClientCheck'>, options: { command: string[]; startedAt: string; say: (line: string) => void }): CheckRecorder {
  const certificationId = randomUUID();
  const runIds = new Map<string, string>();
  let stopped = false;
  let said = false;
  const sayOnce = (line: string) => {
    if (!said) options.say(line);
    said = true;
  };
  const trouble = (error: unknown) => {
    if (error instanceof RouteMissing) {
      stopped = true;
      sayOnce('note: this sandbox does not record client checks (a build without /_sim/client-checks): the certification runs as usual, its console will not list it');
    } else {
      sayOnce(`note: the sandbox did not record this client check (${(error as Error).message}); the certification runs as usual`);
    }
  };
  return {
    runIds,
    async register(scenario, tenantId) {
      if (stopped) return;
      try {
        const command = options.command.join(' ').slice(0, COMMAND_MAX_CHARS);
        const run = await control.registerClientCheck({ tenantId, scenario, command, startedAt: options.startedAt, certificationId });
        runIds.set(scenario, run.id);
      } catch (error) {
        trouble(error);
      }
    },
    async complete(certificate, reportHtml) {
      if (runIds.size === 0) return;
      const fits = reportHtml.length <= REPORT_MAX_CHARS;
      if (!fits) options.say(`note: the HTML report (${reportHtml.length} characters) is longer than the sandbox keeps (${REPORT_MAX_CHARS}): the console lists the verdict without it`);
      const base = {
        verdict: certificate.certified ? ('CERTIFIED' as const) : ('NOT CERTIFIED' as const),
        totals: certificate.totals,
        finishedAt: certificate.finishedAt,
        reportHtml: fits ? reportHtml : null,
      };
      await Promise.all(
        [...runIds].map(async ([scenario, runId]) => {
          const rules = certificate.rules.map((rule) => ({ id: rule.id, level: rule.level, verdict: rule.runs.find((r) => r.scenario === scenario)?.verdict ?? ('not exercised' as const) }));
          await control.completeClientCheck(runId, { ...base, rules }).catch(trouble);
        }),
      );
    },
  };
}
