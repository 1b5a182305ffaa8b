// The carrier claim packet (spec 3.4 generate-packet; the freight-audit reference section 2, "parcel
// packet": account, invoice, tracking number, ship date, charge, billed vs expected, reason code,
// evidence) rendered as a real PDF with pdfkit, kept in the artifacts directory and served at `packetUrl`
// to the owning tenant only (claim.routes.ts packetRoute).
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type PDFKit from 'pdfkit';
import type { KernelDeps } from '../../kernel/deps.js';
import type { ClaimSubmissionRecord, FindingRecord } from './ship.types.js';

export interface PacketInput {
  submission: ClaimSubmissionRecord;
  claimant: { tenantId: string; name: string };
  findings: FindingRecord[];
  generatedAt: string;
}

const money = (n: number, currency: string) => `${n.toFixed(2)} ${currency}`;

// pdfkit (with its fonts and compression) is loaded on the first packet, not at start-up: it was a sixth of
// the start-up time (issue 15 item 2) for a feature many sandbox sessions never use.
let pdfkit: Promise<typeof PDFKit> | undefined;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((m) => m.default));

/** The packet as PDF bytes. */
async function renderPacket(input: PacketInput): Promise<Buffer> {
  const PDFDocument = await loadPdfkit();
  const { submission, claimant, findings, generatedAt } = input;
  const doc = new PDFDocument({ size: 'LETTER', margin: 54, info: { Title: `Carrier claim ${submission.id}`, Author: claimant.name, Subject: `Freight billing claim to ${submission.carrier}`, CreationDate: new Date(generatedAt) } });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const accounts = [...new Set(findings.map((f) => f.accountNumber).filter((a): a is string => !!a))];
  const currency = findings[0]?.currency ?? 'USD';
  const total = findings.reduce((s, f) => s + f.recoverableAmount, 0);
  doc.font('Helvetica-Bold').fontSize(16).text('Freight billing claim', { continued: false });
  doc.font('Helvetica').fontSize(9).fillColor('#555').text('Sandbox document: references and dispute ids are fictional.').fillColor('black').moveDown();
  const line = (label: string, value: string) => doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true }).font('Helvetica').text(value);
  line('Claimant', `${claimant.name} (tenant ${claimant.tenantId})`);
  line('Carrier', submission.carrier);
  line('Account', accounts.join(', ') || 'not on the invoices');
  line('Claim submission', submission.id);
  if (submission.notes) line('Notes', submission.notes);
  line('Generated', generatedAt);
  line('Findings', String(findings.length));
  line('Total claimed', money(total, currency));
  doc.moveDown();

  findings.forEach((f, i) => {
    doc.font('Helvetica-Bold').fontSize(12).text(`${i + 1}. ${f.headline}`);
    doc.moveDown(0.2);
    line('Invoice number', f.invoiceNumber);
    line('Tracking number', f.trackingNumber);
    line('Ship date', f.shipDate);
    line('Billed', money(f.billedAmount, f.currency));
    line('Expected', money(f.expectedAmount, f.currency));
    line('Amount claimed', money(f.recoverableAmount, f.currency));
    line('Reason code', f.reasonCode ? `${f.reasonCode} (X12 426)` : 'none');
    line('Finding', `${f.findingType} (${f.id})`);
    doc.font('Helvetica-Bold').fontSize(10).text('Evidence:');
    for (const [label, value] of Object.entries(f.evidence)) doc.font('Helvetica').fontSize(9).text(`  ${label}: ${value}`);
    doc.moveDown();
  });
  doc.end();
  return done;
}

const packetsDir = (deps: Pick<KernelDeps, 'config'>) => path.join(deps.config.artifactsDir || path.join(os.tmpdir(), 'sim-artifacts'), 'claim-packets');

/** Renders and stores the packet; answers where it is kept. */
export async function writePacket(deps: Pick<KernelDeps, 'config'>, input: PacketInput): Promise<string> {
  const bytes = await renderPacket(input);
  const dir = packetsDir(deps);
  await mkdir(dir, { recursive: true });
  const target = path.join(dir, `${input.submission.id}.pdf`);
  await writeFile(target, bytes);
  return target;
}
