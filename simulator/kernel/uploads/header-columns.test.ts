import { describe, expect, it } from 'vitest';
import { cellOf, headerColumns } from './header-columns.js';

describe('header columns', () => {
  it('names each column by the first header key among its aliases, and leaves out a column the header lacks', () => {
    const columns = headerColumns(['order', 'orderId', 'addressType'], { orderId: ['orderId', 'order'], addressType: ['addressType'], zip: ['zip', 'postalCode'] });
    expect([...columns]).toEqual([['orderId', 'order'], ['addressType', 'addressType']]);
  });

  it("reads a row's cell trimmed, and '' for a column the header lacks or a short row", () => {
    const columns = new Map([['orderId', 'order'], ['note', 'note']]);
    expect(cellOf(columns, { order: ' SO-1 ' }, 'orderId')).toBe('SO-1');
    expect(cellOf(columns, { order: 'SO-1' }, 'note')).toBe('');
    expect(cellOf(columns, { order: 'SO-1' }, 'zip')).toBe('');
  });
});
