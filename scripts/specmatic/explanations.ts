// Why a Specmatic test can fail against a correct server, family by family. Specmatic's contract test
// invents its inputs from the contract alone: ids that name nothing, cursors no server issued, keys no
// operator gave out, and (a tool limit) values that break `format`, `uniqueItems` or a lookahead pattern.
// An answer in one of these families is the spec's documented refusal of such a request, not a deviation.
// Every other failed expectation is a deviation to look at (conformance/docs/specmatic.md).
import type { JunitFailure } from './junit.js';
import type { RecordedExchange } from './recording-proxy.js';

type ExplanationKind =
  /** The request names state this server does not have (ids, cursors, keys, a resource's state). */
  | 'state'
  /** A server setting the spec says stays off for public use. */
  | 'setting'
  /** Specmatic sent a request the contract itself refuses. */
  | 'tool'
  /** A rule the spec states that the contract's schema does not express. */
  | 'spec-rule'
  /** A choice of the sandbox where the spec is silent, stated in the contract's description. */
  | 'sandbox-defined';

export interface Explanation {
  id: string;
  kind: ExplanationKind;
  why: string;
  matches(exchange: RecordedExchange): boolean;
}

/**
 * The sandbox's words for the JSON-schema keywords Specmatic does not honour (simulator/kernel/http/
 * validation-words.ts): a format, unique items, a lookahead pattern (the HS code's words) or a property an
 * `if`/`then` requires; the request broke the contract itself.
 */
const CONTRACT_WORDS = /must be (?:a valid |an absolute URI|a UUID|a date|an e-mail|an HS code)|must not list the same item twice|must match the pattern/;
const contractRefusal = (e: RecordedExchange): boolean => CONTRACT_WORDS.test(e.message ?? '') || (e.field !== undefined && e.message === `${e.field} is required`);

const pathOf = (exchange: RecordedExchange) => exchange.url.split('?')[0]!;

/** The string at a dotted field path (`webhook.url`) of a JSON request body. */
function fieldValue(body: string, field: string | undefined): string | undefined {
  if (!field) return undefined;
  try {
    let value: unknown = JSON.parse(body);
    for (const key of field.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A non-empty host that is no DNS name or IPv4 address: dots at an end or doubled, or digits and dots only but not four octets. */
function unreachableHost(url: string | undefined): boolean {
  const host = url && /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?([^/?#:]+)/i.exec(url)?.[1];
  if (!host) return false;
  if (/^\.|\.$|\.\./.test(host)) return true;
  return /^[\d.]+$/.test(host) && !/^(\d{1,3}\.){3}\d{1,3}$/.test(host);
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export const EXPLANATIONS: readonly Explanation[] = [
  {
    id: 'unknown-resource',
    kind: 'state',
    why: 'Specmatic invents the id in the path; a resource that does not exist, or is another tenant\'s, is 404 NOT_FOUND (spec 7).',
    matches: (e) => e.status === 404 && e.code === 'NOT_FOUND',
  },
  {
    id: 'unknown-integration-key',
    kind: 'state',
    why: 'Specmatic invents the x-api-key of the token exchange; a key the operator never issued is 401 (spec 2.1, 4.1).',
    matches: (e) => e.status === 401 && e.method === 'POST' && pathOf(e) === '/api/auth/token/integration',
  },
  {
    id: 'legacy-fallback-disabled',
    kind: 'setting',
    why: 'Specmatic authenticates with the compatibility pair x-api-key + x-org-id; the fallback is a server setting (ALLOW_API_KEY_FALLBACK) that "should stay disabled for public use" (spec 2, item 3), so the pair alone is 401.',
    matches: (e) => e.status === 401 && /fallback is disabled/.test(e.message ?? ''),
  },
  {
    id: 'opaque-cursor',
    kind: 'state',
    why: 'Specmatic invents the cursor; a cursor is opaque and only one the server issued continues a listing (spec 4.2), else 400 naming `cursor`.',
    matches: (e) => e.status === 400 && e.field === 'cursor',
  },
  {
    id: 'state-conflict',
    kind: 'state',
    why: 'The resource is not in a state the action applies to, or Specmatic reused an example\'s Idempotency-Key with another payload: 409 ACTION_NOT_ALLOWED (spec 3, 7, 8.5).',
    matches: (e) => e.status === 409 && e.code === 'ACTION_NOT_ALLOWED',
  },
  {
    id: 'contract-invalid-request',
    kind: 'tool',
    why: 'The request breaks the contract: Specmatic does not honour `format` (uri, date-time), `uniqueItems`, `if`/`then` (a review `override` needs `hsCode`) or patterns with lookaheads, and the server validates requests against the same contract (400 INVALID_REQUEST naming the field).',
    matches: (e) => e.status === 400 && contractRefusal(e),
  },
  {
    id: 'multipart-without-file',
    kind: 'tool',
    why: 'Specmatic sends an upload without its multipart body (it generates no file for a `format: binary` part); the contract requires the body, so 400.',
    matches: (e) => e.status === 400 && /a request body is required/.test(e.message ?? ''),
  },
  {
    id: 'provider-with-quantity',
    kind: 'spec-rule',
    why: '`provider` with `quantity` is 400 INVALID_REQUEST (spec 4.6, landed cost rule 1); the contract states it in prose, and Specmatic sends both.',
    matches: (e) => e.status === 400 && pathOf(e) === '/api/trade/landed-cost' && /provider/.test(e.message ?? '') && /quantity/.test(e.message ?? ''),
  },
  {
    id: 'body-not-json',
    kind: 'tool',
    why: 'Specmatic sent a bare word as an application/json body (it does so for an object schema whose alternatives are a `oneOf` of required members, e.g. the classification apply request); a body that is not JSON is 400 INVALID_REQUEST.',
    matches: (e) => e.status === 400 && /could not be parsed/.test(e.message ?? '') && !looksLikeJson(e.requestBody),
  },
  {
    id: 'webhook-https-with-secret',
    kind: 'spec-rule',
    why: 'A webhook URL must be HTTPS when a secret is set (spec 6, `webhookUrl`); the contract leaves it to the server (WebhookConfig description), so Specmatic sends http with a secret.',
    matches: (e) => e.status === 400 && /must use https when a webhook secret is set/.test(e.message ?? ''),
  },
  {
    id: 'webhook-blocked-target',
    kind: 'spec-rule',
    why: 'Webhook targets in the blocked ranges and hosts of spec 6.4 (SSRF protection) are refused; the contract leaves it to the server.',
    matches: (e) => e.status === 400 && /targets a blocked host/.test(e.message ?? ''),
  },
  {
    id: 'batch-credit-disabled',
    kind: 'spec-rule',
    why: '`action=credit` on POST /api/ship/findings/batch is disabled and answers 400 INVALID_REQUEST pointing to the per-finding credit (spec 4.5 table, spec 7).',
    matches: (e) => e.status === 400 && pathOf(e) === '/api/ship/findings/batch' && e.field === 'action' && /credit/.test(e.message ?? ''),
  },
  {
    id: 'webhook-host-not-a-host',
    kind: 'spec-rule',
    why: 'The URL has the shape the contract asks for (RFC 3986 allows a host such as `.2`), but its host is no name or address a delivery can reach (the WHATWG URL parser reads `.2` as a broken IPv4 address); spec 6 asks for an HTTP or HTTPS URL receiving POST, so the server refuses it (400 naming the field). A host-less URL stays a deviation: the contract refuses it.',
    matches: (e) => e.status === 400 && /must be an absolute http or https URL/.test(e.message ?? '') && unreachableHost(fieldValue(e.requestBody, e.field)),
  },
  {
    id: 'webhook-configured-twice',
    kind: 'sandbox-defined',
    why: 'Spec 6 offers the top-level and the nested webhook form as alternatives; Specmatic sends both with different values, which the sandbox refuses (400 naming `webhook`) as its contract\'s WebhookConfig description says.',
    matches: (e) => e.status === 400 && e.field === 'webhook' && /configured twice/.test(e.message ?? ''),
  },
  {
    id: 'report-status-unknown',
    kind: 'sandbox-defined',
    why: 'The spec types the report `status` as a string only; the sandbox refuses a value that names no result status (400 naming `status`) rather than answer an empty report a typo would hide, as the contract\'s parameter description says.',
    matches: (e) => e.status === 400 && pathOf(e) === '/api/sima/report' && e.field === 'status',
  },
];

/** The first family that explains this exchange, or undefined: a deviation to look at. */
export function explain(exchange: RecordedExchange): Explanation | undefined {
  return EXPLANATIONS.find((explanation) => explanation.matches(exchange));
}

/** An exchange whose status is not the one the Specmatic test expected. */
export const missedExpectation = (exchange: RecordedExchange) => exchange.expected !== undefined && exchange.expected !== exchange.status;

export interface FailureExplanation {
  id: string;
  kind: ExplanationKind;
  why: string;
  matches(failure: JunitFailure): boolean;
}

/** Failures Specmatic reports on answers with the status it expected (headers, bodies). */
export const JUNIT_EXPLANATIONS: readonly FailureExplanation[] = [
  {
    id: 'media-type-chosen-by-query',
    kind: 'tool',
    why: 'The report\'s 200 has two media types chosen by the `format` query parameter (spec 4.2: json default, csv with `format=csv`); Specmatic expects text/csv on a request that does not ask for it.',
    matches: (f) => f.api.startsWith('GET /api/sima/report ') && f.breadcrumb === 'RESPONSE.HEADER.Content-Type' && /expected text\/csv but response contained application\/json/.test(f.message),
  },
];

export function explainFailure(failure: JunitFailure): FailureExplanation | undefined {
  return JUNIT_EXPLANATIONS.find((explanation) => explanation.matches(failure));
}
