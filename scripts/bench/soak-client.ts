// One request of the soak, judged: every answer is tallied by kind and status, and an error is recorded
// for a 5xx, a status the request did not expect, an error answer outside the spec 7 envelope
// (`{ code, message, details? }` as JSON) or with another code than expected, a timeout, or a failed
// connection. A request never outlives REQUEST_TIMEOUT_MS.
import type { Tally } from './soak-stats.js';

export const REQUEST_TIMEOUT_MS = 10_000;

export interface Expectation {
  status: number[];
  /** The spec 7 code an error answer must carry. */
  code?: string;
}

export interface Request {
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
  /** null sends no Authorization header; a string replaces the current bearer. */
  token?: string | null;
}

export interface Answer {
  status: number;
  body: any;
}

export class SoakClient {
  token = '';
  constructor(
    readonly baseUrl: string,
    readonly tally: Tally,
  ) {}

  /** The answer when its status was expected (and an error answer was a correct envelope), else null. */
  async send(kind: string, method: string, path: string, req: Request, expect: Expectation): Promise<Answer | null> {
    const headers: Record<string, string> = { ...req.headers };
    const token = req.token === undefined ? this.token : req.token;
    if (token !== null) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(req.json);
    } else if (req.form) body = req.form;
    const started = performance.now();
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.baseUrl + path, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      text = await res.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      this.tally.record(kind, timedOut ? 'timeout' : 'network', performance.now() - started);
      this.tally.error(`${kind}: ${timedOut ? 'timeout' : 'network error'}`, `${method} ${path}: ${String((error as Error).cause ?? error)}`);
      return null;
    }
    this.tally.record(kind, String(res.status), performance.now() - started);
    const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
    let parsed: any = text;
    if (isJson) {
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        this.tally.error(`${kind}: JSON content type with a body that does not parse`, `${method} ${path} ${res.status}: ${text.slice(0, 200)}`);
        return null;
      }
    }
    const where = `${method} ${path} -> ${res.status}: ${text.slice(0, 300)}`;
    if (res.status >= 500) this.tally.error(`${kind}: ${res.status}`, where);
    else if (!expect.status.includes(res.status)) this.tally.error(`${kind}: unexpected ${res.status} (expected ${expect.status.join('/')})`, where);
    if (res.status >= 400) {
      const envelope = isJson && parsed && typeof parsed.code === 'string' && typeof parsed.message === 'string' && (parsed.details === undefined || (typeof parsed.details === 'object' && parsed.details !== null));
      if (!envelope) this.tally.error(`${kind}: ${res.status} not in the error envelope`, where);
      else if (expect.code && parsed.code !== expect.code) this.tally.error(`${kind}: ${res.status} ${parsed.code}, expected ${expect.code}`, where);
      if (!envelope || (expect.code && parsed.code !== expect.code)) return null;
    }
    return expect.status.includes(res.status) ? { status: res.status, body: parsed } : null;
  }
}
