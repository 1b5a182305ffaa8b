// A pass-through HTTP proxy between Specmatic and the simulator that records every exchange: Specmatic's
// reports say that a test failed, not what the server answered, and the answer (status, error code, field,
// message) is what tells a deviation from a test the contract cannot make pass. Specmatic sends the status
// it expects in the `Specmatic-Response-Code` header; the proxy keeps it beside the actual status.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedExchange {
  method: string;
  /** Path and query as sent. */
  url: string;
  /** Specmatic-Response-Code: the status the test expects (absent on requests Specmatic sends for itself). */
  expected?: number;
  status: number;
  /** The request body as text, cut at 2,000 characters (for the example of each group). */
  requestBody: string;
  /** The error envelope's fields, when the answer is one (spec 7). */
  code?: string;
  message?: string;
  field?: string;
}

export interface RecordingProxy {
  url: string;
  exchanges: RecordedExchange[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const exchanges: RecordedExchange[] = [];
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers, host: upstream.host };
      const forward = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => parts.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(parts);
          exchanges.push(record(req, body, answer.statusCode ?? 0, text));
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(text);
        });
      });
      forward.on('error', (error) => {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${error.message}`);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function record(req: http.IncomingMessage, body: Buffer, status: number, answer: Buffer): RecordedExchange {
  const expectedHeader = req.headers['specmatic-response-code'];
  const expected = typeof expectedHeader === 'string' && /^\d{3}$/.test(expectedHeader) ? Number(expectedHeader) : undefined;
  const envelope = parseEnvelope(answer);
  return { method: req.method ?? '', url: req.url ?? '', expected, status, requestBody: body.toString('utf8').slice(0, 2000), ...envelope };
}

function parseEnvelope(answer: Buffer): Pick<RecordedExchange, 'code' | 'message' | 'field'> {
  try {
    const value = JSON.parse(answer.toString('utf8')) as { code?: unknown; message?: unknown; details?: { field?: unknown } };
    return {
      code: typeof value.code === 'string' ? value.code : undefined,
      message: typeof value.message === 'string' ? value.message : undefined,
      field: typeof value.details?.field === 'string' ? value.details.field : undefined,
    };
  } catch {
    return {};
  }
}
