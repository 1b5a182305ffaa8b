// Legitimate variants of the trade feed domain (README "Variants") over HTTP: each changes only what the spec
// leaves open, and the sandbox stays consistent with itself under it (the same key acknowledges the issue
// it names; the re-keyed page still holds every issue and says where the next page starts).
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { normalizedFeed } from './trade.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const dashboardToken = async (s: TestSandbox) => (await s.admin('POST', `/_sim/tenants/${s.identity.tenantId}/dashboard-token`)).body.access_token as string;
const issuesPage = (s: TestSandbox, sessionId: string, query = '') => s.call('GET', `/api/trade/feeds/${sessionId}/issues${query}`, { unchecked: true });

describe('trade variants', () => {
  it('trade.issue-key-hashed: issues carry opaque keys, and the dashboard acknowledges an issue by its opaque key', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await sandbox.admin('PUT', '/_sim/defects', { active: ['trade.issue-key-hashed'] });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-non-blocking');
    const issues = (await issuesPage(sandbox, sessionId)).body.issues as Array<{ issueKey: string }>;
    expect(issues.length).toBeGreaterThan(0);
    for (const { issueKey } of issues) expect(issueKey).toMatch(/^iss_[0-9a-f]{20}$/);
    const one = await sandbox.call('POST', `/api/trade/feeds/${sessionId}/issues/${encodeURIComponent(issues[0].issueKey)}/acknowledge`, { token: await dashboardToken(sandbox) });
    expect(one.status, one.text).toBe(200);
  });

  it('trade.feed-pages-other-keys: the issue page holds the same issues under `items`, its paging facts under `page`', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const { sessionId } = await normalizedFeed(sandbox, 'feed-non-blocking');
    const ours = (await issuesPage(sandbox, sessionId)).body;
    await sandbox.admin('PUT', '/_sim/defects', { active: ['trade.feed-pages-other-keys'] });
    const theirs = (await issuesPage(sandbox, sessionId)).body;
    expect(theirs).not.toHaveProperty('issues');
    expect(theirs).not.toHaveProperty('hasMore');
    expect(theirs.items).toEqual(ours.issues);
    expect(theirs.page).toEqual({ totalCount: ours.total, limit: ours.limit, offset: 0, nextOffset: null });
    if (ours.total > 1) expect((await issuesPage(sandbox, sessionId, '?limit=1')).body.page.nextOffset).toBe(1);
  });
});
