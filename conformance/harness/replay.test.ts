// The replay command as printed must work when pasted into a shell: the CLI reads its secrets from
// CONFORM_API_KEY, CONFORM_SECOND_API_KEY and CONFORM_ADMIN_TOKEN, and secrets never go on the command line
// (npm echoes it). The command is run by sh with `npm run conform --` swapped for a program that prints
// what the CLI would receive.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../cli.js';
import { replayCommand } from './runner.js';
import type { TargetOptions } from './types.js';

const OPTIONS: TargetOptions = {
  baseUrl: 'http://127.0.0.1:4010',
  apiKey: 'tfk_secret_primary',
  secondApiKey: 'tfk_secret_second',
  adminToken: 'sim_admin_secret',
  contract: 'v1.3.0',
  profile: 'simulator',
  seed: 1234567,
  runs: 100,
};

/** What the CLI would receive when the shell runs `command` with these shell variables set (not exported). */
function received(command: string, shellVariables: Record<string, string>): { argv: string[]; env: Record<string, string | undefined> } {
  const printer = `node -e 'console.log(JSON.stringify({ argv: process.argv.slice(1), env: process.env }))' --`;
  const assignments = Object.entries(shellVariables).map(([name, value]) => `${name}='${value}'`).join('; ');
  const script = `${assignments}; ${command.replace('npm run conform --', printer)}`;
  return JSON.parse(execFileSync('sh', ['-c', script], { env: { PATH: process.env.PATH }, encoding: 'utf8' }));
}

describe('the replay command', () => {
  it('names no secret and passes none as a flag, only the variables the CLI reads', () => {
    const command = replayCommand(OPTIONS, ['auth.expired-token']);
    for (const secret of [OPTIONS.apiKey, OPTIONS.secondApiKey!, OPTIONS.adminToken!]) expect(command).not.toContain(secret);
    expect(command).not.toMatch(/--(api-key|second-api-key|admin-token)\b/);
    expect(command).toBe(
      'CONFORM_API_KEY="$CONFORM_API_KEY" CONFORM_SECOND_API_KEY="$CONFORM_SECOND_API_KEY" CONFORM_ADMIN_TOKEN="$CONFORM_ADMIN_TOKEN" ' +
        'npm run conform -- --base-url http://127.0.0.1:4010 --contract v1.3.0 --profile simulator --seed 1234567 --runs 100 --only auth.expired-token',
    );
  });

  it('pasted into a shell where the secrets are set, gives the CLI the same run', () => {
    const command = replayCommand(OPTIONS, ['auth.expired-token']);
    const { argv, env } = received(command, { CONFORM_API_KEY: OPTIONS.apiKey, CONFORM_SECOND_API_KEY: OPTIONS.secondApiKey!, CONFORM_ADMIN_TOKEN: OPTIONS.adminToken! });
    const settings = parseCli(argv, env);
    if (settings === 'help') throw new Error('parsed as --help');
    expect(settings.target).toMatchObject({ ...OPTIONS, only: ['auth.expired-token'] });
  });
});
