// The sandbox's control API as the webhook tools call it (`tfas listen`, `tfas trigger`, `tfas resend`): a
// JSON request with the admin token, and a refusal told as the error envelope says it (spec 7: code, message).

export interface SandboxAccess {
  /** The sandbox (its /_sim control API is at this root). */
  baseUrl: string;
  adminToken: string;
}

/** The control API refused a request (or answered something that is not JSON). */
export class ControlRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlRefused';
  }
}

export async function controlCall<T>(sandbox: SandboxAccess, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) {
    let said = text.slice(0, 300);
    try {
      const envelope = JSON.parse(text) as { code?: unknown; message?: unknown };
      if (typeof envelope.code === 'string' && typeof envelope.message === 'string') said = `${envelope.code}: ${envelope.message}`;
    } catch {
      // not JSON: the text itself
    }
    throw new ControlRefused(res.status, `${method} ${path} answered ${res.status} ${said}`);
  }
  return JSON.parse(text) as T;
}
