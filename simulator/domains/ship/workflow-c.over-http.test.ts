// Workflow C over HTTP (spec 1, 3.3, 3.4, 4.5): upload -> findings -> dispute -> claim submission ->
// packet -> submit -> acknowledge -> confirm credit -> per-finding credit, every response checked against
// the contract by the shared test client; the packet is opened with a PDF parser.
import { afterEach, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { startTestSandbox, type TestSandbox } from '../../testing/contract-client.js';
import { SLOW_JOBS } from '../jobs/jobs.testing.js';
import { allFindings, auditSamples } from './ship.testing.js';

let sandbox: TestSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const parts: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    parts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return parts.join('\n');
}

describe('workflow C end to end', () => {
  it('runs upload, findings, dispute, claim, packet, submit, acknowledge, confirm credit and per-finding credit', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    const job = await auditSamples(sandbox);
    expect(job).toMatchObject({ type: 'ship_upload', status: 'COMPLETED', progress: 100, reconciliation: { rowsUploaded: 13, rowsSkipped: 0 }, outcomes: { atRisk: 7, cleared: 6, needsReview: 0 } });
    const findings = await allFindings(sandbox);
    expect(findings.map((f) => f.findingType).sort()).toEqual(['accessorial_not_in_agreement', 'address_correction', 'dim_overbilling', 'discount_not_applied', 'duplicate_billing', 'late_delivery', 'residential_misapplied']);
    // spec 4.5 rule 1: an OPEN finding cannot be bundled, so it does not read ELIGIBLE.
    for (const f of findings) expect(f).toMatchObject({ workflowStatus: 'OPEN', claimEligibility: 'INELIGIBLE', claimBlockerReason: 'Dispute the finding before adding it to a claim', actionability: expect.stringMatching(/^(disputable|needs_evidence)$/) });

    const picked = findings.filter((f) => ['residential_misapplied', 'address_correction'].includes(f.findingType));
    for (const f of picked) expect((await sandbox.call('POST', `/api/ship/findings/${f.id}/dispute`)).body).toMatchObject({ workflowStatus: 'DISPUTED', claimBlockerReason: null, actionability: 'claimable' });

    const created = await sandbox.call('POST', '/api/ship/claims/submissions', { body: { carrier: 'FEDEX', findingIds: picked.map((f) => f.id), notes: 'accessorial overcharges' } });
    expect(created.status).toBe(201);
    const id = created.body.submission.id;
    expect(created.body.submission).toMatchObject({ status: 'DRAFT', packetUrl: null, findingIds: picked.map((f) => f.id) });
    expect(created.body.submission.findings[0]).toHaveProperty('claimBlockerReason');
    // spec 3.4: creating a submission does not change the findings' states.
    const afterCreate = await allFindings(sandbox);
    expect(afterCreate.filter((f) => f.workflowStatus === 'DISPUTED')).toHaveLength(2);
    // spec 4.5 rule 1: a finding an active submission holds is no longer ELIGIBLE.
    for (const f of afterCreate.filter((x) => x.workflowStatus === 'DISPUTED')) expect(f).toMatchObject({ claimEligibility: 'INELIGIBLE', claimBlockerReason: `Already linked to claim submission ${id} (DRAFT)`, actionability: 'informational' });

    const ready = await sandbox.call('POST', `/api/ship/claims/submissions/${id}/generate-packet`);
    expect(ready.body.submission).toMatchObject({ status: 'READY' });
    const url = new URL(ready.body.submission.packetUrl);
    const packet = await sandbox.call('GET', url.pathname, { unchecked: true });
    expect(packet.status).toBe(200);
    expect(packet.headers['content-type']).toBe('application/pdf');
    const raw = await (await import('supertest')).default(sandbox.server).get(url.pathname).set('Authorization', `Bearer ${await sandbox.token()}`).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    const text = await pdfText(raw.body as Buffer);
    for (const f of picked) {
      expect(text).toContain(f.trackingNumber);
      expect(text).toContain(f.invoiceNumber);
      expect(text).toContain(`${f.recoverableAmount.toFixed(2)} USD`);
    }
    expect(text).toContain('FICT612345678');
    expect(text).toContain('Reason code');

    expect((await sandbox.call('POST', `/api/ship/claims/submissions/${id}/submit`, { body: { externalReference: '  ' } })).status).toBe(400);
    const submitted = await sandbox.call('POST', `/api/ship/claims/submissions/${id}/submit`, { body: { externalReference: 'FICT-FDX-DSP-2026-004417' } });
    expect(submitted.body.submission).toMatchObject({ status: 'SUBMITTED', externalReference: 'FICT-FDX-DSP-2026-004417' });
    expect(submitted.body.submission.submittedAt).toEqual(expect.any(String));
    const acknowledged = await sandbox.call('POST', `/api/ship/claims/submissions/${id}/acknowledge`, { body: { externalReference: 'FICT-FDX-ACK-7730215' } });
    expect(acknowledged.body.submission).toMatchObject({ status: 'ACKNOWLEDGED', externalReference: 'FICT-FDX-ACK-7730215' });
    const confirmation = { source: 'fedex_billing_online', referenceId: 'FICT-CR-1', confirmedAt: new Date().toISOString() };
    const confirmed = await sandbox.call('POST', `/api/ship/claims/submissions/${id}/confirm-credit`, { body: { confirmation } });
    expect(confirmed.body.submission).toMatchObject({ status: 'CREDIT_CONFIRMED' });
    expect(confirmed.body.submission.creditConfirmedAt).toEqual(expect.any(String));
    // spec 7: confirm-credit after CREDIT_CONFIRMED is ACTION_NOT_ALLOWED.
    expect((await sandbox.call('POST', `/api/ship/claims/submissions/${id}/confirm-credit`, { body: { confirmation } })).status).toBe(409);

    // spec 4.5 rule 5: the per-finding credit is the billing record (SUBMITTED or CARRIER_REVIEW first).
    for (const f of picked) {
      await sandbox.call('POST', `/api/ship/findings/${f.id}/submit`);
      const credited = await sandbox.call('POST', `/api/ship/findings/${f.id}/credit`, { body: { amount: f.recoverableAmount, confirmation } });
      expect(credited.body).toMatchObject({ workflowStatus: 'CREDITED', credit: { amount: f.recoverableAmount }, actionability: 'no_action' });
    }
    const list = await sandbox.call('GET', '/api/ship/findings?workflowStatus=CREDITED');
    expect(list.body).toMatchObject({ total: 2, statusCounts: { CREDITED: 2, OPEN: 5 } });
  });

  it('serves a packet to the owning tenant only', async () => {
    sandbox = await startTestSandbox({ config: SLOW_JOBS });
    await auditSamples(sandbox);
    const [f] = await allFindings(sandbox);
    await sandbox.call('POST', `/api/ship/findings/${f.id}/dispute`);
    const id = (await sandbox.call('POST', '/api/ship/claims/submissions', { body: { carrier: 'FEDEX', findingIds: [f.id] } })).body.submission.id;
    const url = new URL((await sandbox.call('POST', `/api/ship/claims/submissions/${id}/generate-packet`)).body.submission.packetUrl);
    const other = await sandbox.admin('POST', '/_sim/tenants', { name: 'Other' });
    const token = (await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': other.body.integrationKey } })).body.access_token;
    expect((await sandbox.call('GET', url.pathname, { token, unchecked: true })).status).toBe(404);
    expect((await sandbox.call('GET', url.pathname, { token: null, unchecked: true })).status).toBe(401);
    expect((await sandbox.call('GET', url.pathname, { unchecked: true })).status).toBe(200);
  });
});
