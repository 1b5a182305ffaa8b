import { describe, expect, it } from 'vitest';
import { loadExceljs, loadKoaBody, warmDeferredLoads } from './deferred-loads.js';

describe('the packages a start defers', () => {
  it('are loaded once each, by their first use or by the warm-up, whichever comes first', async () => {
    const first = loadKoaBody();
    await warmDeferredLoads(0);
    expect(loadKoaBody()).toBe(first);
    expect(typeof (await loadKoaBody()).koaBody).toBe('function');
    expect(typeof (await loadExceljs()).default.stream.xlsx.WorkbookReader).toBe('function');
  });
});
