// Runs the simulator as a real process (`simulator/main.ts`), for tests and benchmarks that need a
// listening server, a restart, or a SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../contracts/lib/prism.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface SimulatorProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startSimulatorProcess(env: Record<string, string>, options: { port?: number; args?: string[] } = {}): Promise<SimulatorProcess> {
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'simulator', 'main.ts'), ...(options.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`simulator did not start:\n${log}`)), 60_000);
    const poll = setInterval(() => {
      if (log.includes('base URL')) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    }, 25);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`simulator exited with ${code}:\n${log}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => log,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A value from the start-up banner (`  tenant          <id>`), e.g. `bannerField(sim.output(), 'tenant')`. */
export function bannerField(output: string, label: string): string | undefined {
  return new RegExp(`^  ${label} +(\\S+)`, 'm').exec(output)?.[1];
}

/**
 * One HTTP call to a started simulator process, the answer's status and parsed JSON body: `token` becomes the
 * bearer, `json` the JSON body (else `body` as given, e.g. a FormData upload); `timeoutMs` bounds the call.
 */
export async function callProcess(url: string, init: RequestInit & { token?: string; json?: unknown; timeoutMs?: number } = {}) {
  const { token, json, timeoutMs = 10_000, ...rest } = init;
  const headers: Record<string, string> = { ...(rest.headers as Record<string, string>), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { ...rest, headers, body: json === undefined ? rest.body : JSON.stringify(json), signal: AbortSignal.timeout(timeoutMs) });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}
