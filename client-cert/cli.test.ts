// The command line: what it needs (a sandbox, an admin token, a command after --) and refuses.
import { describe, expect, it } from 'vitest';
import { parseCli } from './cli.js';

describe('certify:client arguments', () => {
  it('takes the command after --, the admin token from CONFORM_ADMIN_TOKEN, and scenario all by default', () => {
    const parsed = parseCli(['--base-url', 'http://127.0.0.1:4010', '--', 'python3', 'client.py', '--flag'], { CONFORM_ADMIN_TOKEN: 'adm' });
    expect(parsed).toMatchObject({ help: false, baseUrl: 'http://127.0.0.1:4010', adminToken: 'adm', scenario: 'all', command: ['python3', 'client.py', '--flag'], webhookHosts: ['127.0.0.1'], timeoutMs: 300_000 });
  });

  it('refuses a run without a command, without an admin token, or with an unknown scenario', () => {
    expect(() => parseCli(['--base-url', 'http://x'], { CONFORM_ADMIN_TOKEN: 'adm' })).toThrow(/command goes after --/);
    expect(() => parseCli(['--base-url', 'http://x', '--', 'node'], {})).toThrow(/admin-token/);
    expect(() => parseCli(['--base-url', 'http://x', '--scenario', 'chaos', '--', 'node'], { CONFORM_ADMIN_TOKEN: 'adm' })).toThrow(/steady, throttled, flaky, webhooks, all/);
    expect(() => parseCli(['--', 'node'], { CONFORM_ADMIN_TOKEN: 'adm' })).toThrow(/base-url/);
  });
});
