// Starts Stoplight Prism (from the dev dependencies) on a free local port: `mock` answers from the
// contract's examples, `proxy` forwards to an upstream and reports contract violations.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PrismServer {
  url: string;
  port: number;
  /** Everything Prism printed, for violation checks and for diagnosing a failed start. */
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export function prismEntry(): string {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve('@stoplight/prism-cli/package.json');
  return path.join(path.dirname(pkg), 'dist', 'index.js');
}

export async function startPrism(options: {
  mode: 'mock' | 'proxy';
  contractFile: string;
  upstream?: string;
  port?: number;
  /** Extra CLI flags, e.g. ['--errors'] to make proxy violations fail the request. */
  flags?: string[];
  startTimeoutMs?: number;
}): Promise<PrismServer> {
  const port = options.port ?? (await freePort());
  const args = [prismEntry(), options.mode, '-h', '127.0.0.1', '-p', String(port), options.contractFile];
  if (options.mode === 'proxy') {
    if (!options.upstream) throw new Error('prism proxy needs an upstream');
    args.push(options.upstream);
  }
  args.push(...(options.flags ?? []));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  await new Promise<void>((resolve, reject) => {
    const deadline = setTimeout(() => {
      void stop();
      reject(new Error(`prism ${options.mode} did not start within ${options.startTimeoutMs ?? 60000} ms:\n${log}`));
    }, options.startTimeoutMs ?? 60000);
    const poll = setInterval(() => {
      if (/Prism is listening/.test(log)) {
        clearInterval(poll);
        clearTimeout(deadline);
        resolve();
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(deadline);
      reject(new Error(`prism ${options.mode} exited with ${code}:\n${log}`));
    });
  });
  return { url: `http://127.0.0.1:${port}`, port, output: () => log, stop };
}
