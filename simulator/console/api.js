// The console's two clients: the control API with the admin token (kept in sessionStorage, so it is gone when
// the tab closes) and the public API with a dashboard token per tenant, issued by the control API and issued
// again when it expires. Every request carries an X-Request-Id starting with CONSOLE_REQUEST_PREFIX, so the
// request log panel can leave the console's own reads out.

const TOKEN_KEY = 'sim-console-admin-token';
export const CONSOLE_REQUEST_PREFIX = 'sim-console-';

export const adminToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(status, body) {
    super(`HTTP ${status}${body?.code ? ` ${body.code}` : ''}${body?.message ? `: ${body.message}` : ''}`);
    this.status = status;
    this.body = body;
  }
  /** A route this sandbox does not serve (an older build: 404 "no route"; declared but not built yet: 501). */
  get routeMissing() {
    return this.status === 501 || (this.status === 404 && typeof this.body?.message === 'string' && this.body.message.startsWith('no route for'));
  }
}

let sequence = 0;
const requestId = () => `${CONSOLE_REQUEST_PREFIX}${Date.now().toString(36)}-${(sequence++).toString(36)}`;

async function send(path, { method = 'GET', body, token, text: asText = false }) {
  const response = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'x-request-id': requestId(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
  });
  const text = await response.text();
  if (asText && response.ok) return text;
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  if (!response.ok) throw new ApiError(response.status, parsed);
  return parsed;
}

/** The control API (/_sim/...) with the admin token. */
export const control = (path, options = {}) => send(path, { ...options, token: adminToken.get() ?? '' });

/** A control route answering a document (a client check's HTML report): its text. */
export const controlText = (path) => send(path, { token: adminToken.get() ?? '', text: true });

/** A control route that may not exist in this sandbox: { available: false } instead of an error. */
export async function controlIfServed(path) {
  try {
    return { available: true, body: await control(path) };
  } catch (error) {
    if (error instanceof ApiError && error.routeMissing) return { available: false };
    throw error;
  }
}

// tenantId -> { token, expiresAt }: expiresAt on the tenant's virtual clock, which is the clock the token's
// expiry is judged by (a clock advance can age a token at once).
const dashboardTokens = new Map();
const EXPIRY_MARGIN_MS = 60_000;

async function dashboardToken(tenantId, tenantNow, fresh) {
  const held = dashboardTokens.get(tenantId);
  const now = tenantNow ? Date.parse(tenantNow) : Number.NaN;
  const aged = held && Number.isFinite(now) && now >= held.expiresAt - EXPIRY_MARGIN_MS;
  if (fresh || !held || aged) {
    const issued = await control(`/_sim/tenants/${encodeURIComponent(tenantId)}/dashboard-token`, { method: 'POST' });
    const from = Number.isFinite(now) ? now : Date.now();
    dashboardTokens.set(tenantId, { token: issued.access_token, expiresAt: from + issued.expires_in * 1000 });
  }
  return dashboardTokens.get(tenantId).token;
}

/**
 * A GET on the public API as the tenant's dashboard. `tenantNow` (the tenant's virtual time) lets a token
 * about to expire be replaced before it is refused; a 401 all the same (a clock moved by someone else) is
 * retried once with a new one.
 */
export async function publicGet(tenantId, path, tenantNow) {
  try {
    return await send(path, { token: await dashboardToken(tenantId, tenantNow, false) });
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) throw error;
    return send(path, { token: await dashboardToken(tenantId, tenantNow, true) });
  }
}

export const query = (params) => {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};
