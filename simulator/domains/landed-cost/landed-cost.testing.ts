// Helpers for the landed-cost tests: the engine on a pinned date (no clock), and the operation over HTTP
// (every response contract-checked by the test client) with corridors and usage through the control API.
import { expect } from 'vitest';
import type { CheckedResponse, TestSandbox } from '../../testing/contract-client.js';
import { createDefects, NO_DEFECTS } from '../../kernel/defects.js';
import { quoteLandedCost, type QuotePolicy } from './engine.js';
import { LANDED_COST_DEFECTS } from './landed-cost.defects.js';
import type { QuoteDeviations } from './landed-cost.hooks.js';
import type { Breakdown, LandedCostResponse, QuoteInput } from './landed-cost.types.js';
import { loadReferenceData, type ReferenceData } from './reference-data.js';
import type { QuoteCorridor } from './corridor.js';

export const DATA: ReferenceData = loadReferenceData();
const UNRESTRICTED: QuotePolicy = { policyMode: 'unrestricted', corridorConfigured: false };

/** A value-only request (no shipping, insurance, quantity or provider) with what the test sets. */
export const request = (input: Pick<QuoteInput, 'productValue' | 'hsCode' | 'originCountry' | 'destinationCountry'> & Partial<QuoteInput>): QuoteInput => ({
  shippingCost: 0,
  insurance: 0,
  currency: null,
  quantity: null,
  quantityUnit: null,
  provider: null,
  ...input,
});

/** The engine's answer on `date` (YYYY-MM-DD). */
export const quoteOn = (date: string, input: QuoteInput, options: { defects?: QuoteDeviations; data?: ReferenceData; policy?: QuotePolicy } = {}): LandedCostResponse =>
  quoteLandedCost(input, { date, data: options.data ?? DATA, policy: options.policy ?? UNRESTRICTED, defects: options.defects ?? NO_DEFECTS });

/** The breakdown of an authoritative result (fails the test otherwise). */
export function breakdownOf(result: LandedCostResponse): Breakdown {
  expect(result.status, JSON.stringify(result)).toBe('authoritative');
  return result.breakdown as Breakdown;
}

/** Whole cents of the parts and of the total: the parts add up exactly. */
export function expectAddsUp(breakdown: Breakdown): void {
  const parts = [breakdown.productValue, breakdown.shippingCost, breakdown.insurance, breakdown.dutyAmount, breakdown.taxAmount, breakdown.feesAmount];
  expect(Math.round(parts.reduce((sum, p) => sum + Math.round(p * 100), 0))).toBe(Math.round(breakdown.totalLandedCost * 100));
  expect(Math.round(breakdown.taxes.reduce((sum, t) => sum + Math.round(t.amount * 100), 0))).toBe(Math.round(breakdown.taxAmount * 100));
  expect(Math.round(breakdown.fees.reduce((sum, f) => sum + Math.round(f.amount * 100), 0))).toBe(Math.round(breakdown.feesAmount * 100));
}

/** The landed-cost catalogue with these entries on (their rules apply at the hook points). */
export const defectsOn = (...ids: string[]): QuoteDeviations => createDefects(ids, LANDED_COST_DEFECTS);

// ---------------------------------------------------------------------------------------------------------
// Over HTTP.

const LANDED_COST = '/api/trade/landed-cost';

/** POST /api/trade/landed-cost as the default tenant (or with the given token / headers). */
export const postQuote = (sandbox: TestSandbox, body: unknown, options: { token?: string | null; headers?: Record<string, string> } = {}): Promise<CheckedResponse> =>
  sandbox.call('POST', LANDED_COST, { body, ...options });

export async function setCorridors(sandbox: TestSandbox, corridors: QuoteCorridor[], tenantId = sandbox.identity.tenantId): Promise<void> {
  expect((await sandbox.admin('PUT', `/_sim/tenants/${tenantId}/settings`, { quoteCorridors: corridors })).status).toBe(200);
}

export async function usageOf(sandbox: TestSandbox, tenantId = sandbox.identity.tenantId) {
  const res = await sandbox.admin('GET', `/_sim/tenants/${tenantId}/usage`);
  expect(res.status).toBe(200);
  return res.body as { billableQuotes: number; records: Array<{ status: string; destinationCountry: string; principalType: string }> };
}

/** A new tenant (POST /_sim/tenants) with a bearer token for its key, its clock first moved to `date` if given. */
export async function quotingTenant(sandbox: TestSandbox, options: { date?: string } = {}): Promise<{ tenantId: string; token: string; integrationKey: string }> {
  const created = await sandbox.admin('POST', '/_sim/tenants', { name: 'Landed-cost importer' });
  expect(created.status).toBe(201);
  const tenantId = created.body.tenantId as string;
  if (options.date) await advanceTenantTo(sandbox, tenantId, options.date);
  const exchanged = await sandbox.call('POST', '/api/auth/token/integration', { token: null, headers: { 'x-api-key': created.body.integrationKey } });
  return { tenantId, token: exchanged.body.access_token, integrationKey: created.body.integrationKey };
}

/** Moves a tenant's clock forward to noon UTC of `date` (nothing when it is already past it). */
async function advanceTenantTo(sandbox: TestSandbox, tenantId: string, date: string): Promise<void> {
  const YEAR = 31_536_000;
  for (;;) {
    const now = Date.parse((await sandbox.admin('GET', `/_sim/clock?tenantId=${tenantId}`)).body.now);
    const seconds = Math.floor((Date.parse(`${date}T12:00:00Z`) - now) / 1000);
    if (seconds <= 0) return;
    expect((await sandbox.admin('POST', '/_sim/clock/advance', { seconds: Math.min(seconds, YEAR), tenantId })).status).toBe(200);
  }
}
