// Test support: a recording target for the replay test (issue 26 item 4). It answers every request the same
// way whatever came before (the token exchange with one token, `/_sim` with an empty object, every other
// route with 200 `{}`), so what a check sends can depend only on the suite, never on the server's state; and
// it records every request's bytes as received (method, target, headers, body), attributed to the check the
// runner says is running. Checks fail against it (its answers are undocumented): only what they send matters.
// Tests only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedWireRequest {
  method: string;
  /** The request target as received: path and query, percent-encoded as sent. */
  target: string;
  /** Header lines as received, in order, lower-cased names. */
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface RecordingTarget {
  url: string;
  apiKey: string;
  adminToken: string;
  /** Requests of each check, in the order received. */
  byCheck: Map<string, RecordedWireRequest[]>;
  /** Requests received from now on count for this check. */
  startCheck(id: string): void;
  close(): Promise<void>;
}

const TOKEN_PATH = '/api/auth/token/integration';

export async function startRecordingTarget(): Promise<RecordingTarget> {
  const byCheck = new Map<string, RecordedWireRequest[]>();
  let current = '(before any check)';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Array<[string, string]> = [];
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]]);
      const list = byCheck.get(current) ?? [];
      list.push({ method: req.method ?? '', target: req.url ?? '', headers, body: Buffer.concat(chunks) });
      byCheck.set(current, list);
      const path = (req.url ?? '').split('?')[0];
      const body = path === TOKEN_PATH ? { access_token: 'recording-target-token', token_type: 'Bearer', expires_in: 3600 } : {};
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey: 'tfk_recording_target_key',
    adminToken: 'recording-target-admin',
    byCheck,
    startCheck(id) {
      current = id;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A check's requests as comparable text, byte for byte but for what is not an input of the check: the token
 * exchange and the bearer token (a run exchanges its key once and shares the token, so which check sends the
 * exchange depends on the selection) and the multipart boundary (RFC 7578 section 4.1: the sender picks any
 * string absent from the parts; Node's fetch draws it at random per request), replaced by a fixed one.
 */
export function wireText(requests: readonly RecordedWireRequest[]): string[] {
  return requests
    .filter((request) => request.target.split('?')[0] !== TOKEN_PATH)
    .map((request) => {
      const type = request.headers.find(([name]) => name === 'content-type')?.[1] ?? '';
      const boundary = /boundary=("?)([^";]+)\1/.exec(type)?.[2];
      const unbound = (text: string) => (boundary ? text.split(boundary).join('<boundary>') : text);
      const headers = request.headers.filter(([name]) => name !== 'authorization').map(([name, value]) => `${name}: ${unbound(value)}`);
      return [`${request.method} ${request.target}`, ...headers, '', unbound(request.body.toString('latin1'))].join('\n');
    });
}
