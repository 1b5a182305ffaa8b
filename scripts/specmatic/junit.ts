// Reads Specmatic's JUnit report: the totals, and each failure's operation and what Specmatic compared
// (`>> RESPONSE.STATUS`, `>> RESPONSE.BODY.x`, ...). A failure that is not about the status (a body or
// header mismatch on an answer with the expected status) cannot be seen by the recording proxy alone.
export interface JunitFailure {
  /** `POST /api/sima/batch -> 202`, as Specmatic names the scenario. */
  api: string;
  /** The first `>> ...` breadcrumb of the failure: what did not match. */
  breadcrumb: string;
  /** The failure message, shortened. */
  message: string;
}

export interface JunitSummary {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  failed: JunitFailure[];
  /** Specmatic's own exceptions (`<error>`), with the scenario they ended. */
  errorDetails: Array<{ api: string; message: string }>;
}

const unescape = (text: string) =>
  text.replace(/&#10;/g, '\n').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

export function readJunit(xml: string): JunitSummary {
  const suite = /<testsuite\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const attribute = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
  const failed: JunitFailure[] = [];
  for (const match of xml.matchAll(/<failure message="([^"]*)"/g)) {
    const message = unescape(match[1]!);
    const api = /API: (.+)/.exec(message)?.[1]?.trim() ?? '(unknown operation)';
    const breadcrumb = />> (\S+)/.exec(message)?.[1] ?? '(no breadcrumb)';
    failed.push({ api, breadcrumb, message: message.slice(0, 600) });
  }
  const errorDetails: Array<{ api: string; message: string }> = [];
  for (const match of xml.matchAll(/<testcase [^>]*name="[^"]*Scenario: ([^"]*?)"[^>]*>\s*<error message="([^"]*)"\s+type="([^"]*)"/g)) {
    errorDetails.push({ api: unescape(match[1]!), message: `${match[3]}: ${unescape(match[2]!)}` });
  }
  return { tests: attribute('tests'), failures: attribute('failures'), errors: attribute('errors'), skipped: attribute('skipped'), failed, errorDetails };
}
