// Test support of the console's browser tests (console.browser.test.ts, console.actions.browser.test.ts):
// requests to a started simulator process, as the page's own API calls and an integrator's client send them.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The requests a test sends to the simulator at `baseUrl()` (read when called: the process starts in a hook). */
export function consoleRequests(baseUrl: () => string) {
  async function api(method: string, url: string, init: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
    const response = await fetch(`${baseUrl()}${url}`, {
      method,
      headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  /** A multipart upload of a fixture file, as an integrator's client sends it. */
  async function upload(url: string, token: string, fixture: string, fields: Record<string, string> = {}) {
    const form = new FormData();
    form.set('file', new Blob([readFileSync(path.resolve(fixture))], { type: 'text/csv' }), path.basename(fixture));
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    const response = await fetch(`${baseUrl()}${url}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    return { status: response.status, body: (await response.json()) as any };
  }

  return { api, upload };
}

/** Reads until `read` answers something, every 100 ms, for at most `ms`. */
export async function until<T>(what: string, read: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
