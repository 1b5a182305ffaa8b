import { describe, expect, it } from 'vitest';
import { atCrashPoint, parseCrashPoint } from './crash-point.js';

describe('SIM_CRASH_AT', () => {
  it('is off when unset or empty', () => {
    expect(parseCrashPoint(undefined)).toBeNull();
    expect(parseCrashPoint('')).toBeNull();
  });

  it('names a job type or a type/variant, and a moment: settled or progress with a percent', () => {
    expect(parseCrashPoint('ship_upload@progress:40')).toEqual({ kind: 'ship_upload', at: 'progress', percent: 40 });
    expect(parseCrashPoint('catalog_upload/trade_feed_preview@settled')).toEqual({ kind: 'catalog_upload/trade_feed_preview', at: 'settled' });
  });

  it('refuses any other form, naming the accepted ones', () => {
    for (const bad of ['ship_upload', 'ship_upload@', 'ship_upload@progress', 'ship_upload@progress:x', 'Ship@settled', 'a/b/c@settled']) {
      expect(() => parseCrashPoint(bad), bad).toThrow(/SIM_CRASH_AT must be/);
    }
  });

  it('is reached by a job of its kind only: at its first progress of at least the percent, or once settled', () => {
    const point = parseCrashPoint('catalog_upload/classification_batch@progress:50');
    const batch = { type: 'catalog_upload' as const, variant: 'classification_batch' };
    expect(atCrashPoint(point, batch, { percent: 40 })).toBe(false);
    expect(atCrashPoint(point, batch, { percent: 50 })).toBe(true);
    expect(atCrashPoint(point, batch, { settled: true })).toBe(false);
    expect(atCrashPoint(point, { type: 'catalog_upload' }, { percent: 90 })).toBe(false);
    expect(atCrashPoint(parseCrashPoint('carrier_agreement_upload@settled'), { type: 'carrier_agreement_upload' }, { settled: true })).toBe(true);
    expect(atCrashPoint(null, batch, { percent: 100 })).toBe(false);
  });
});
