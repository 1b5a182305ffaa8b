// Reading the webhook configuration of an enqueue body (spec 6): two equivalent forms, the URL rules, the
// secret limit, the event names, and the SSRF refusal of literal blocked hosts at enqueue (decision 10).
import { invalidRequest } from '../../kernel/errors.js';
import { blockedHost, isAllowedTarget } from './ssrf.js';
import { WEBHOOK_EVENTS, type WebhookConfig, type WebhookEvent } from './webhooks.types.js';

/** spec 6 / 8.8: the secret is at most 512 characters. */
const MAX_SECRET_LENGTH = 512;

interface FieldNames {
  url: string;
  secret: string;
  events: string;
}

const TOP_LEVEL: FieldNames = { url: 'webhookUrl', secret: 'webhookSecret', events: 'webhookEvents' };
const NESTED: FieldNames = { url: 'webhook.url', secret: 'webhook.secret', events: 'webhook.events' };

const isPresent = (value: unknown) => value !== undefined && value !== null;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseWebhookConfig(body: unknown, allowTargets: readonly string[]): WebhookConfig | null {
  if (!isObject(body)) return null;
  const hasTopLevel = [body.webhookUrl, body.webhookSecret, body.webhookEvents].some(isPresent);
  const hasNested = isPresent(body.webhook);
  const top = hasTopLevel ? readForm({ url: body.webhookUrl, secret: body.webhookSecret, events: body.webhookEvents }, TOP_LEVEL, allowTargets) : null;
  const nested = hasNested ? readForm(nestedObject(body.webhook), NESTED, allowTargets) : null;
  if (top && nested && !sameConfig(top, nested)) {
    throw invalidRequest('the webhook is configured twice (top-level fields and a nested webhook object) with different values', 'webhook');
  }
  return top ?? nested;
}

/** Multipart bodies carry `webhook` as a JSON part; the validator parses it, a raw string is read here too. */
function nestedObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      throw invalidRequest('webhook must be an object { url, secret?, events? }', 'webhook');
    }
  }
  if (!isObject(value)) throw invalidRequest('webhook must be an object { url, secret?, events? }', 'webhook');
  return value;
}

function readForm(raw: { url?: unknown; secret?: unknown; events?: unknown }, names: FieldNames, allowTargets: readonly string[]): WebhookConfig {
  if (!isPresent(raw.url)) throw invalidRequest(`${names.url} is required when a webhook is configured`, names.url);
  const secret = readSecret(raw.secret, names.secret);
  const url = readUrl(raw.url, names.url, secret !== null, allowTargets);
  return { url, secret, events: readEvents(raw.events, names.events) };
}

function readUrl(value: unknown, field: string, hasSecret: boolean, allowTargets: readonly string[]): string {
  if (typeof value !== 'string') throw invalidRequest(`${field} must be an http or https URL`, field);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidRequest(`${field} must be an absolute http or https URL`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalidRequest(`${field} must use http or https`, field);
  const allowed = isAllowedTarget(url, allowTargets);
  // spec 6: HTTPS is required when a secret is set (the local allow list is exempt, for plain local receivers).
  if (hasSecret && url.protocol !== 'https:' && !allowed) throw invalidRequest(`${field} must use https when a webhook secret is set`, field);
  const blocked = allowed ? null : blockedHost(url.hostname);
  if (blocked) throw invalidRequest(`${field} targets a blocked host (${blocked})`, field, { reason: 'blocked_target' });
  return url.href;
}

function readSecret(value: unknown, field: string): string | null {
  if (!isPresent(value)) return null;
  if (typeof value !== 'string' || value.length === 0) throw invalidRequest(`${field} must be a non-empty string`, field);
  if (value.length > MAX_SECRET_LENGTH) throw invalidRequest(`${field} is longer than ${MAX_SECRET_LENGTH} characters`, field);
  return value;
}

function readEvents(value: unknown, field: string): WebhookEvent[] {
  if (!isPresent(value)) return [...WEBHOOK_EVENTS];
  // A multipart body with a single webhookEvents field can arrive as one string.
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) throw invalidRequest(`${field} must be a non-empty array of event names`, field);
  for (const event of list) {
    if (!WEBHOOK_EVENTS.includes(event as WebhookEvent)) {
      throw invalidRequest(`${field} has an unknown event ${JSON.stringify(event)}; known: ${WEBHOOK_EVENTS.join(', ')}`, field);
    }
  }
  if (new Set(list).size !== list.length) throw invalidRequest(`${field} lists an event twice`, field);
  return list as WebhookEvent[];
}

function sameConfig(a: WebhookConfig, b: WebhookConfig): boolean {
  const events = (c: WebhookConfig) => [...c.events].sort().join(',');
  return a.url === b.url && a.secret === b.secret && events(a) === events(b);
}
