// One load round through autocannon: closed-loop keep-alive connections for a fixed time, every answer
// counted, the server's resident set sampled while it runs and its CPU time per request measured (CPU per
// request barely moves when other processes take cores away, unlike requests per second).
import autocannon from 'autocannon';
import { cpuMs, rssMb } from './processes.js';

export interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The status every answer must have. */
  expect: number;
}

export interface Round {
  perSecond: number;
  p50: number;
  p99: number;
  requests: number;
  /** Highest resident set of the server's process tree seen during the round, MB. */
  rssMb: number;
  cpuUsPerRequest: number;
}

export async function loadRound(url: string, pid: number, spec: RequestSpec, options: { seconds: number; connections: number }): Promise<Round> {
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 200);
  const cpu0 = cpuMs(pid);
  const statuses = new Map<number, number>();
  try {
    // The returned instance is an event emitter that is also a promise of the result (autocannon's README).
    const instance = autocannon({
      url: url + spec.path,
      method: spec.method,
      headers: spec.headers,
      body: spec.body,
      connections: options.connections,
      duration: options.seconds,
      timeout: 10,
    }) as unknown as Promise<autocannon.Result> & { on(event: 'response', listener: (client: unknown, statusCode: number) => void): void };
    instance.on('response', (_client, statusCode) => statuses.set(statusCode, (statuses.get(statusCode) ?? 0) + 1));
    const result = await instance;
    const wrong = [...statuses].filter(([status]) => status !== spec.expect);
    if (wrong.length || result.errors || result.timeouts) {
      throw new Error(`${spec.method} ${spec.path}: ${JSON.stringify(Object.fromEntries(wrong))} answers other than ${spec.expect}, ${result.errors} errors, ${result.timeouts} timeouts`);
    }
    const requests = statuses.get(spec.expect) ?? 0;
    return {
      perSecond: requests / options.seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      requests,
      rssMb: Math.max(peak, rssMb(pid)),
      cpuUsPerRequest: ((cpuMs(pid) - cpu0) * 1000) / Math.max(1, requests),
    };
  } finally {
    clearInterval(sampler);
  }
}

/** The bench and the soak read the same median (soak-stats.ts, with its tests). */
export { median } from './soak-stats.js';
