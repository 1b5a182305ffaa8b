// The soak's ship traffic (spec 1 workflow C, 3.3, 3.4, 4.5): invoice uploads whose audits raise findings,
// findings moved along the workflow one request at a time, and claim submissions taken from DRAFT to
// CREDIT_CONFIRMED. The finding moves are the spec's plus the sandbox's choice for the source states spec
// 3.3 leaves open (credit and reject from SUBMITTED or CARRIER_REVIEW, reopen from any state but OPEN:
// simulator/domains/ship/finding.machine.ts); this is a soak of the sandbox, not a conformance check.
// A finding or submission has at most one request in flight, so every 409 is an error.
import { invoiceFile } from '../../conformance/checks/ship/support.js';
import type { SoakClient } from './soak-client.js';

interface Finding {
  status: string;
  busy: boolean;
  /** The submission bundling it while that one is active (spec 4.5 rule 3): left out of the moves. */
  claim?: string;
}
interface Submission {
  status: string;
  findingId: string;
  busy: boolean;
}

/** Moves per state and their weights; the answer must show the target state. */
const MOVES: Record<string, Array<[action: string, to: string, weight: number]>> = {
  OPEN: [['dispute', 'DISPUTED', 3], ['dismiss', 'DISMISSED', 1]],
  DISPUTED: [['submit', 'SUBMITTED', 1], ['reopen', 'OPEN', 1]],
  SUBMITTED: [['carrier-review', 'CARRIER_REVIEW', 2], ['credit', 'CREDITED', 1], ['reject', 'REJECTED', 1]],
  CARRIER_REVIEW: [['credit', 'CREDITED', 1], ['reject', 'REJECTED', 1], ['reopen', 'OPEN', 1]],
  DISMISSED: [['reopen', 'OPEN', 1]],
  CREDITED: [['reopen', 'OPEN', 1]],
  REJECTED: [['reopen', 'OPEN', 1]],
};
/** spec 3.4: the submission's next step from each state on the happy path. */
const STEPS: Record<string, [action: string, to: string, body?: (n: number) => unknown]> = {
  DRAFT: ['generate-packet', 'READY'],
  READY: ['submit', 'SUBMITTED', (n) => ({ externalReference: `SOAK-SUB-${n}` })],
  SUBMITTED: ['acknowledge', 'ACKNOWLEDGED', (n) => ({ externalReference: `SOAK-ACK-${n}` })],
  ACKNOWLEDGED: ['confirm-credit', 'CREDIT_CONFIRMED', (n) => ({ confirmation: { source: 'soak', referenceId: `SOAK-CR-${n}`, confirmedAt: new Date().toISOString() } })],
};
const CONFIRMATION = { source: 'soak', referenceId: 'SOAK-CREDIT', confirmedAt: '2026-11-20T10:00:00Z' };
/** Bounds the findings the soak keeps moving (the client's memory, and the spread of states). */
const MAX_FINDINGS = 400;
const MAX_ACTIVE_CLAIMS = 20;

export class ShipTraffic {
  readonly findings = new Map<string, Finding>();
  readonly submissions = new Map<string, Submission>();
  private lastInvoice?: { name: string; content: string };
  private n = 0;

  constructor(
    private readonly client: SoakClient,
    private readonly rng: () => number,
  ) {}

  private pick<T>(xs: T[]): T | undefined {
    return xs.length ? xs[Math.floor(this.rng() * xs.length)] : undefined;
  }

  /** spec 4.3: a new invoice file (each unique: the same file again is 409 DUPLICATE_UPLOAD). */
  async upload(): Promise<string | undefined> {
    const file = invoiceFile(3);
    const res = await this.client.send('ship-upload', 'POST', '/api/ship/upload', { form: invoiceForm(file) }, { status: [202] });
    // Only an accepted file is a duplicate to send again: one still in flight may race its original.
    if (res) this.lastInvoice = file;
    return typeof res?.body?.jobId === 'string' ? res.body.jobId : undefined;
  }

  /** The last invoice again: spec 4.3 / 7, 409 DUPLICATE_UPLOAD. */
  async duplicateUpload(): Promise<boolean> {
    if (!this.lastInvoice) return false;
    await this.client.send('invalid', 'POST', '/api/ship/upload', { form: invoiceForm(this.lastInvoice) }, { status: [409], code: 'DUPLICATE_UPLOAD' });
    return true;
  }

  /** A findings page (spec 4.5), OPEN ones first so new audits join the pool. */
  async list(): Promise<void> {
    const status = this.rng() < 0.6 || this.findings.size < 20 ? 'OPEN' : this.pick(Object.keys(MOVES))!;
    const res = await this.client.send('findings-list', 'GET', `/api/ship/findings?workflowStatus=${status}&limit=100`, {}, { status: [200] });
    if (!Array.isArray(res?.body?.findings)) return;
    for (const f of res.body.findings as Array<{ id: string; workflowStatus: string }>) {
      if (this.findings.size >= MAX_FINDINGS) break;
      if (!this.findings.has(f.id)) this.findings.set(f.id, { status: f.workflowStatus, busy: false });
    }
  }

  /** One move of an idle finding; a findings page when none is idle. */
  async transition(): Promise<void> {
    const id = this.pick([...this.findings.entries()].filter(([, f]) => !f.busy && !f.claim).map(([id]) => id));
    if (!id) return this.list();
    const f = this.findings.get(id)!;
    const moves = MOVES[f.status];
    let at = this.rng() * moves.reduce((s, m) => s + m[2], 0);
    const [action, to] = moves.find((m) => (at -= m[2]) < 0) ?? moves[0];
    f.busy = true;
    const body = action === 'credit' ? { json: { amount: 6.45, confirmation: CONFIRMATION } } : {};
    const res = await this.client.send('finding-transition', 'POST', `/api/ship/findings/${id}/${action}`, body, { status: [200] });
    f.busy = false;
    if (!res) return;
    if (res.body?.workflowStatus !== to) this.client.tally.error('finding-transition: wrong state', `${action} of a ${f.status} finding answered ${JSON.stringify(res.body?.workflowStatus)}, not ${to}`);
    f.status = res.body?.workflowStatus ?? f.status;
  }

  /** A move from a state that does not allow it: spec 3.3, 409 ACTION_NOT_ALLOWED. */
  async refusedTransition(): Promise<boolean> {
    const id = this.pick([...this.findings.entries()].filter(([, f]) => !f.busy && !f.claim && ['DISMISSED', 'CREDITED', 'REJECTED'].includes(f.status)).map(([id]) => id));
    if (!id) return false;
    const f = this.findings.get(id)!;
    f.busy = true;
    await this.client.send('invalid', 'POST', `/api/ship/findings/${id}/dispute`, {}, { status: [409], code: 'ACTION_NOT_ALLOWED' });
    f.busy = false;
    return true;
  }

  /** Creates a submission from an idle DISPUTED finding, or moves an active one a step, or reads them. */
  async claimStep(): Promise<void> {
    const r = this.rng();
    if (r < 0.15) {
      await this.client.send('claims-read', 'GET', `/api/ship/claims/submissions?limit=20`, {}, { status: [200] });
      return;
    }
    const active = [...this.submissions.entries()].filter(([, s]) => !s.busy);
    const disputed = [...this.findings.entries()].filter(([, f]) => !f.busy && !f.claim && f.status === 'DISPUTED');
    if (disputed.length && this.submissions.size < MAX_ACTIVE_CLAIMS && (r < 0.45 || !active.length)) return this.createClaim(this.pick(disputed)!);
    const entry = this.pick(active);
    if (!entry) return this.transition(); // nothing to claim yet: move findings towards DISPUTED
    const [id, s] = entry;
    if (r < 0.25) {
      await this.client.send('claims-read', 'GET', `/api/ship/claims/submissions/${id}`, {}, { status: [200] });
      return;
    }
    const [action, to, body] = STEPS[s.status];
    s.busy = true;
    const n = ++this.n;
    const res = await this.client.send('claim-step', 'POST', `/api/ship/claims/submissions/${id}/${action}`, body ? { json: body(n) } : {}, { status: [200] });
    s.busy = false;
    if (!res) return;
    const status = res.body?.submission?.status;
    if (status !== to) this.client.tally.error('claim-step: wrong state', `${action} of a ${s.status} submission answered ${JSON.stringify(status)}, not ${to}`);
    s.status = status ?? s.status;
    if (s.status === 'CREDIT_CONFIRMED') {
      // spec 4.5 rule 3: a finding of a CREDIT_CONFIRMED submission may be bundled again.
      this.submissions.delete(id);
      const f = this.findings.get(s.findingId);
      if (f) f.claim = undefined;
    }
  }

  private async createClaim([findingId, f]: [string, Finding]): Promise<void> {
    f.busy = true;
    const res = await this.client.send('claim-step', 'POST', '/api/ship/claims/submissions', { json: { carrier: 'FEDEX', findingIds: [findingId], notes: 'soak' } }, { status: [201] });
    f.busy = false;
    const sub = res?.body?.submission;
    if (!sub) return;
    if (sub.status !== 'DRAFT') this.client.tally.error('claim-step: wrong state', `create answered ${JSON.stringify(sub.status)}, not DRAFT`);
    f.claim = sub.id;
    this.submissions.set(sub.id, { status: sub.status, findingId, busy: false });
  }
}

function invoiceForm(file: { name: string; content: string }): FormData {
  const form = new FormData();
  form.append('file', new Blob([file.content], { type: 'text/csv' }), file.name);
  return form;
}
