// Test support: a deployment that differs from the simulator only where a rewrite says, made by a proxy in
// front of it. Each rewrite changes a request on its way in or a JSON answer on its way out (another page
// key, another status-count shape, another breakdown, another cursor encoding, extra fields, a raised length
// cap), so a test can run checks against "a vendor's server" that made another legitimate choice, or broke
// a sentence of the spec in the same way. Tests only: the suite never imports this.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface ProxiedAnswer {
  method: string;
  /** The path the client asked for (without the query). */
  path: string;
  query: URLSearchParams;
  status: number;
  /** The parsed JSON body. */
  body: unknown;
}

export interface Rewrite {
  /** A changed request (url and/or body), or undefined to forward it as it came. */
  request?(request: ProxiedRequest): Partial<Pick<ProxiedRequest, 'url' | 'body'>> | undefined;
  /** The JSON body to answer instead, or undefined to keep the simulator's. */
  response?(answer: ProxiedAnswer): unknown;
}

export interface RewritingProxy {
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export async function startRewritingProxy(target: string, rewrite: Rewrite): Promise<RewritingProxy> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const incoming: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) };
        const changed = { ...incoming, ...(rewrite.request?.(incoming) ?? {}) };
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        const upstream = await fetch(target + changed.url, { method: changed.method, headers, body: ['GET', 'HEAD'].includes(changed.method) ? undefined : new Uint8Array(changed.body) });
        let text = await upstream.text();
        const contentType = upstream.headers.get('content-type') ?? '';
        if (rewrite.response && contentType.includes('json') && text) {
          const url = new URL(incoming.url, 'http://proxy.invalid');
          const replaced = rewrite.response({ method: incoming.method, path: url.pathname, query: url.searchParams, status: upstream.status, body: JSON.parse(text) });
          if (replaced !== undefined) text = JSON.stringify(replaced);
        }
        const out: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') out[name] = value;
        });
        out['content-length'] = String(Buffer.byteLength(text));
        res.writeHead(upstream.status, out);
        res.end(text);
      })().catch((error: unknown) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${String(error)}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
