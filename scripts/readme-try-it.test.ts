// The README's "Try it" block is a claim that is a command: this test runs it verbatim (issue 29), in a
// folder that links the repository's top level (so `sandbox.log` and the store land there, not in the
// checkout), on a free port, and checks that every step answered and that the sandbox it started is gone.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The first ```bash block after the README's "## Try it" heading, as written. */
export function tryItBlock(readme: string): string {
  const section = readme.indexOf('\n## Try it\n');
  if (section < 0) throw new Error('README.md has no "## Try it" section');
  const start = readme.indexOf('```bash\n', section);
  const end = readme.indexOf('\n```', start + 8);
  return readme.slice(start + 8, end + 1);
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

const answers = async (url: string) => fetch(url).then(() => true, () => false);

const folder = mkdtempSync(path.join(os.tmpdir(), 'readme-try-it-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("README.md's Try it", () => {
  it('runs verbatim: every workflow answers, and the sandbox it started stops at the end', async () => {
    for (const entry of readdirSync(ROOT)) {
      if (entry === '.git' || entry === '.sim-data' || entry === 'reports') continue;
      symlinkSync(path.join(ROOT, entry), path.join(folder, entry));
    }
    const port = await freePort();
    const script = tryItBlock(readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    const run = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: folder,
      env: { ...process.env, PORT: String(port), SIM_DB: path.join(folder, '.sim-data', 'store.mdb') },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: the sandbox the block starts in the background is in it too, so a block that
      // stops half-way (before its `kill $SANDBOX`) leaves nothing running.
      detached: true,
    });
    const stopAll = () => {
      try {
        process.kill(-run.pid!, 'SIGTERM');
      } catch {
        // the group is gone already
      }
    };
    let out = '';
    run.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
    try {
      const log = () => `${out}\n--- sandbox.log ---\n${readFileSync(path.join(folder, 'sandbox.log'), 'utf8').slice(-3000)}`;
      expect(code, log()).toBe(0);
      // What the steps printed: screening results and summary (spec 4.2), the feed session and its issue page
      // (2.5), a page of findings (2.6).
      for (const printed of [/"outcomes":\[\{/, /"totalSkus":/, /"sessionId":/, /"issues":\[/, /"findings":\[\{/]) expect(out, log()).toMatch(printed);
      expect(out).not.toMatch(/"code":"(INVALID|NOT_FOUND|ACTION_NOT_ALLOWED|RATE_LIMITED|INTERNAL)/);
      let stopped = false;
      for (let i = 0; i < 20 && !stopped; i++) {
        stopped = !(await answers(`http://127.0.0.1:${port}/healthz`));
        if (!stopped) await new Promise((r) => setTimeout(r, 250));
      }
      expect(stopped, 'the sandbox still answers after `kill $SANDBOX`').toBe(true);
    } finally {
      stopAll();
    }
  }, 240_000);
});
