// Acknowledging non-blocking feed issues is dashboard-only (spec 1, 5.5): the dashboard routes
// (contracts/sandbox-dashboard.openapi.yaml) refuse an integration bearer with 403 PRINCIPAL_DENIED and
// serve a dashboard principal; the control API offers the same action to the operator.
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { issuesOf, normalizedFeed } from './trade.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const dashboardToken = async (s: TestSandbox) => (await s.admin('POST', `/_sim/tenants/${s.identity.tenantId}/dashboard-token`)).body.access_token as string;

describe('the acknowledgement paths', () => {
  it('refuse an integration bearer with 403 PRINCIPAL_DENIED, on every acknowledgement path', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-non-blocking');
    const key = (await issuesOf(sandbox, sessionId)).issues[0].issueKey as string;
    for (const path of [`/api/trade/feeds/${sessionId}/issues/acknowledge`, `/api/trade/feeds/${sessionId}/issues/${encodeURIComponent(key)}/acknowledge`]) {
      const refused = await sandbox.call('POST', path, { body: {} });
      expect([path, refused.status, refused.body]).toEqual([path, 403, expect.objectContaining({ code: 'PRINCIPAL_DENIED', details: { required: 'dashboard', actual: 'integration' } })]);
    }
    expect((await issuesOf(sandbox, sessionId)).issues.every((i: { acknowledged: boolean }) => !i.acknowledged)).toBe(true);
  });

  it('serve a dashboard principal: one issue, then the rest, and the session becomes READY', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-non-blocking');
    const token = await dashboardToken(sandbox);
    const key = (await issuesOf(sandbox, sessionId)).issues[0].issueKey as string;
    const one = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/issues/${encodeURIComponent(key)}/acknowledge`, { token });
    expect(one.status, one.text).toBe(200);
    expect(one.body).toMatchObject({ sessionId, status: 'PREVIEW_BLOCKED' });
    const rest = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/issues/acknowledge`, { token, body: {} });
    expect(rest.body).toMatchObject({ status: 'READY', applyable: true });
    const again = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/issues/acknowledge`, { token, body: {} });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ACTION_NOT_ALLOWED', details: { currentState: 'READY', action: 'acknowledge' } });
  });
});
