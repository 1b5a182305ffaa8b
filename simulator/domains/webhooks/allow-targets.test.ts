// The webhook allow list at run time (PUT /_sim/webhooks/allow-targets): a local receiver refused by the SSRF
// rules (spec 6 rule 4: loopback, and https when signed) is let through once listed, with no restart, and
// refused again once the list is put back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { allowTargets } from './allow-targets.js';

let sandbox: TestSandbox | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await sandbox?.close();
  receiver?.close();
  sandbox = receiver = undefined;
});

describe('the webhook allow list', () => {
  it('trims, lower-cases and de-duplicates what it is given, and replaces the list as a whole', () => {
    const list = allowTargets([' 127.0.0.1 ', 'Hooks.Example.com:8443', '127.0.0.1', '']);
    expect(list.list()).toEqual(['127.0.0.1', 'hooks.example.com:8443']);
    expect(list.replace(['10.0.0.5'])).toEqual(['10.0.0.5']);
    expect(list.list()).toEqual(['10.0.0.5']);
  });

  it('lets a signed webhook to a loopback receiver through once the control API lists it, without a restart, and refuses it again after', async () => {
    const received: string[] = [];
    receiver = createServer((req, res) => {
      received.push(req.headers['x-svc-event'] as string);
      req.resume().on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    sandbox = await startTestSandbox({ config: { webhookAllowTargets: [] } });
    const enqueue = () => sandbox!.call('POST', '/api/sima/batch', { body: { skus: null, webhookUrl: `http://${target}/hooks`, webhookSecret: 'whsec_allow_list_test' } });

    const refused = await enqueue();
    expect([refused.status, refused.body.details?.field]).toEqual([400, 'webhookUrl']);
    expect((await sandbox.admin('GET', '/_sim/webhooks/allow-targets')).body).toEqual({ targets: [] });

    const set = await sandbox.admin('PUT', '/_sim/webhooks/allow-targets', { targets: [target] });
    expect([set.status, set.body]).toEqual([200, { targets: [target] }]);
    const accepted = await enqueue();
    expect(accepted.status, accepted.text).toBe(202);
    await sandbox.admin('POST', '/_sim/clock/advance', { seconds: 5 });
    for (let i = 0; i < 100 && !received.length; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toEqual(['job.completed']);

    expect((await sandbox.admin('PUT', '/_sim/webhooks/allow-targets', { targets: [] })).body).toEqual({ targets: [] });
    expect((await enqueue()).status).toBe(400);
  });

  it('refuses a target with a scheme or a path with 400', async () => {
    sandbox = await startTestSandbox();
    const bad = await sandbox.admin('PUT', '/_sim/webhooks/allow-targets', { targets: ['http://127.0.0.1/hooks'] });
    expect([bad.status, bad.body.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
