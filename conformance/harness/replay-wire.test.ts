// Faithful replay (issue 26 item 4): a check sends the same bytes for the same seed whether it runs in a run
// of many checks or alone with `--only`, in every profile, multipart bodies and query strings included. Each
// profile runs the operation checks against a recording target that answers every request the same way
// (testing/recording-target.ts), once as a whole and once per sampled check with `--only`, alone checks first
// (a fresh process state) and the whole after, and compares what each sampled check sent, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationChecks } from '../checks/operations.js';
import { startRecordingTarget, wireText, type RecordingTarget } from '../testing/recording-target.js';
import { loadTargetContract } from './contract.js';
import { runSuite } from './runner.js';
import { PROFILES, type Profile, type TargetOptions } from './types.js';

const SEED = 502948126;
const contract = loadTargetContract('v1.3.0');
const checks = operationChecks(contract);

/** Every multipart and every query-taking operation's checks, and every fifth other check, in suite order. */
function sample(): string[] {
  const takes = (id: string, test: (op: (typeof contract.operations)[number]) => boolean) => contract.operations.some((op) => id.startsWith(`operations.${op.operationId}.`) && test(op));
  const multipart = (op: (typeof contract.operations)[number]) => JSON.stringify(op.operation.requestBody ?? {}).includes('multipart/form-data');
  const query = (op: (typeof contract.operations)[number]) => JSON.stringify(op.operation.parameters ?? []).includes('"in":"query"');
  return checks.map((c) => c.id).filter((id, index) => takes(id, multipart) || takes(id, query) || index % 5 === 0 || id === 'operations.normalizations');
}

let target: RecordingTarget;
beforeAll(async () => {
  target = await startRecordingTarget();
});
afterAll(async () => {
  await target?.close();
});

async function recorded(profile: Profile, only?: string[]): Promise<Map<string, string[]>> {
  target.byCheck.clear();
  const options: TargetOptions = { baseUrl: target.url, apiKey: target.apiKey, contract: 'v1.3.0', profile, seed: SEED, runs: 100, only, ...(profile === 'simulator' ? { adminToken: target.adminToken } : {}) };
  await runSuite(options, checks, { onCheckStart: (check) => target.startCheck(check.id) });
  return new Map([...target.byCheck].map(([id, requests]) => [id, wireText(requests)]));
}

describe.each(PROFILES)('in the %s profile', (profile) => {
  it('every sampled check sends the same bytes alone (--only) as in the whole run', async () => {
    const ids = sample();
    const alone = new Map<string, string[]>();
    for (const id of ids) alone.set(id, (await recorded(profile, [id])).get(id) ?? []);
    const whole = await recorded(profile);
    let compared = 0;
    for (const id of ids) {
      expect({ id, requests: alone.get(id) }).toEqual({ id, requests: whole.get(id) ?? [] });
      compared += alone.get(id)!.length;
    }
    // The sample sent something to compare: multipart bodies and query strings among it.
    expect(compared).toBeGreaterThan(profile === 'readonly' ? 20 : 100);
    const sent = [...alone.values()].flat().join('\n');
    if (profile !== 'readonly') expect(sent).toContain('multipart/form-data; boundary=<boundary>');
    expect(sent).toMatch(/^GET \/api\/[^\s?]+\?[^\s]+=/m);
  });
});
