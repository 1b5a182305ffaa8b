// The compliance check's gates (compliance.ts): quoteable only with a valid code, no pending classification
// review, a known origin and destination, and a screening that neither finds a measure nor stays undecided.
import { describe, expect, it } from 'vitest';
import { checkCompliance, hsCodeProblem } from './compliance.js';

const clean = { pendingReviews: 0 };
const outcome = (result: ReturnType<typeof checkCompliance>, check: string) => result.checks.find((c) => c.check === check)?.outcome;

describe('the compliance check', () => {
  it('is quoteable for cotton T-shirts from China into the US', () => {
    const result = checkCompliance({ hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US' }, clean);
    expect(result).toMatchObject({ quoteReadiness: 'quoteable', blockers: [] });
    expect(result.checks.every((c) => c.outcome === 'pass')).toBe(true);
  });

  it('is not quoteable with an origin that is not an assigned country code', () => {
    for (const origin of ['ZZ', 'XX', 'QM']) {
      const result = checkCompliance({ hsCode: '6109.10', originCountry: origin, destinationCountry: 'US' }, clean);
      expect(result.quoteReadiness).toBe('not_quoteable');
      expect(outcome(result, 'origin_known')).toBe('fail');
      expect(result.blockers.map((b) => b.code)).toContain('origin_unknown');
    }
  });

  it('is not quoteable with a malformed code or a subheading HS 2022 does not have', () => {
    expect(hsCodeProblem('61')).toContain('2 digits');
    expect(hsCodeProblem('abc')).toContain('not an HS code');
    expect(hsCodeProblem('9401.40')).toContain('not a subheading');
    expect(hsCodeProblem('9401.61.10')).toBeUndefined();
    expect(hsCodeProblem('0402.10')).toBeUndefined(); // a heading the sandbox does not list: the format decides
    const result = checkCompliance({ hsCode: '61', originCountry: 'CN', destinationCountry: 'US' }, clean);
    expect(result.quoteReadiness).toBe('not_quoteable');
    expect(result.blockers.map((b) => b.code)).toEqual(['hs_code_invalid']);
  });

  it('needs review while the SKU has a PENDING classification review', () => {
    const result = checkCompliance({ sku: 'TEE-1', hsCode: '6109.10', originCountry: 'CN', destinationCountry: 'US' }, { pendingReviews: 1 });
    expect(result.quoteReadiness).toBe('needs_review');
    expect(result.blockers.map((b) => b.code)).toEqual(['classification_review_pending']);
  });

  it('needs review when SIMA screening finds the product AT_RISK (UDS seating from Vietnam into Canada)', () => {
    const result = checkCompliance({ hsCode: '9401.61.10', originCountry: 'VN', destinationCountry: 'CA' }, clean);
    expect(result.quoteReadiness).toBe('needs_review');
    expect(outcome(result, 'trade_remedy_exposure')).toBe('warn');
    expect(result.checks.find((c) => c.check === 'trade_remedy_exposure')?.message).toContain('UDS');
    expect(result.blockers.map((b) => b.code)).toEqual(['trade_remedy_review']);
  });

  it('needs review when screening cannot decide, and passes an origin the measure does not name', () => {
    // 9401.61 is too short to tell whether it is the UDS tariff item 9401.61.10 (Vietnam is subject).
    const undecided = checkCompliance({ hsCode: '9401.61', originCountry: 'VN', destinationCountry: 'CA' }, clean);
    expect(undecided.quoteReadiness).toBe('needs_review');
    expect(undecided.blockers.map((b) => b.code)).toEqual(['trade_remedy_screening_incomplete']);
    expect(checkCompliance({ hsCode: '9401.61.10', originCountry: 'MY', destinationCountry: 'CA' }, clean).quoteReadiness).toBe('quoteable');
  });

  it('screens nothing for a destination without a measures table', () => {
    const result = checkCompliance({ hsCode: '9401.61', originCountry: 'VN', destinationCountry: 'DE' }, clean);
    expect(result.quoteReadiness).toBe('quoteable');
    expect(result.checks.find((c) => c.check === 'trade_remedy_exposure')?.message).toContain('DE');
  });

  it('lets a product through the gates a deviation turns off', () => {
    expect(checkCompliance({ hsCode: '6109.10', originCountry: 'ZZ', destinationCountry: 'US' }, { ...clean, originGateEnforced: false }).quoteReadiness).toBe('quoteable');
    expect(checkCompliance({ hsCode: '9401.61.10', originCountry: 'VN', destinationCountry: 'CA' }, { ...clean, atRiskBlocksQuote: false }).quoteReadiness).toBe('quoteable');
  });
});
