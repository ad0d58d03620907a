import { describe, expect, it } from 'vitest';
import { RUN_ACTIONS, RUN_STATUSES, duplicateAisles, isOpen, mayCancel, nextStatus, pickList, refusalOf, sourcesOf, totalsOf } from './restock.rules.ts';

describe('restock run states', () => {
  it('allows exactly: start planned; complete planned or in_progress; cancel planned or in_progress', () => {
    const table: Record<string, Record<string, string | null>> = {};
    for (const from of RUN_STATUSES) {
      table[from] = {};
      for (const action of RUN_ACTIONS) table[from][action] = nextStatus(from, action);
    }
    expect(table).toEqual({
      planned: { start: 'in_progress', complete: 'done', cancel: 'cancelled' },
      in_progress: { start: null, complete: 'done', cancel: 'cancelled' },
      done: { start: null, complete: null, cancel: null },
      cancelled: { start: null, complete: null, cancel: null },
    });
  });

  it('each move leaves only from its sources, and a refusal names the current status', () => {
    for (const action of RUN_ACTIONS) for (const from of RUN_STATUSES) expect(sourcesOf(action).includes(from)).toBe(nextStatus(from, action) !== null);
    expect(refusalOf('start', 'done')).toBe('Cannot start a restock run that is done');
    expect(RUN_STATUSES.filter(isOpen)).toEqual(['planned', 'in_progress']);
  });

  it('the creator, owners and admins may cancel; other members may not', () => {
    expect([mayCancel('owner', false), mayCancel('admin', false), mayCancel('member', false), mayCancel('member', true)]).toEqual([true, true, false, true]);
  });
});

describe('pick list', () => {
  const aisle = (
    aisleNo: number,
    currentStock: number,
    maxStock: number,
    more: { faulted?: boolean; sku?: string | null; productName?: string | null } = {},
  ) => ({
    aisleNo,
    currentStock,
    maxStock,
    faulted: more.faulted ?? false,
    sku: more.sku ?? null,
    productName: more.productName ?? null,
  });

  it('par is maxStock, pick what is missing, never negative; faulted aisles pick nothing; aisle order', () => {
    const lines = pickList([aisle(3, 12, 10), aisle(1, 2, 10), aisle(2, 0, 8, { faulted: true })]);
    expect(lines.map((l) => [l.aisleNo, l.stockAtPlan, l.par, l.pick, l.faulted])).toEqual([
      [1, 2, 10, 8, false],
      [2, 0, 8, 0, true],
      [3, 12, 10, 0, false],
    ]);
  });

  it('totals by SKU; an aisle without a SKU is its own "aisle N"; nothing to pick is left out', () => {
    const lines = pickList([
      aisle(1, 0, 10, { sku: 'COLA', productName: 'Cola' }),
      aisle(2, 4, 10, { sku: 'WATER', productName: 'Water' }),
      aisle(3, 7, 10, { sku: 'COLA', productName: 'Cola (old label)' }),
      aisle(4, 1, 5),
      aisle(5, 2, 5),
      aisle(6, 5, 5, { sku: 'GUM' }),
      aisle(7, 0, 5, { sku: 'TEA', faulted: true }),
      aisle(8, 0, 3, { sku: 'BAR' }),
    ]);
    expect(totalsOf(lines)).toEqual([
      { sku: 'COLA', productName: 'Cola', pick: 13 },
      { sku: 'WATER', productName: 'Water', pick: 6 },
      { sku: null, productName: 'aisle 4', pick: 4 },
      { sku: null, productName: 'aisle 5', pick: 3 },
      { sku: 'BAR', productName: 'BAR', pick: 3 },
    ]);
  });

  it('finds aisles listed twice', () => {
    expect(duplicateAisles([1, 2, 3])).toEqual([]);
    expect(duplicateAisles([4, 2, 4, 2, 2, 1])).toEqual([2, 4]);
  });
});
