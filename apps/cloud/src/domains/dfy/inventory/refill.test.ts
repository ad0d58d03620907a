import { describe, expect, it } from 'vitest';
import { estimatedCents, overCap, refillLines, type AisleStock } from './refill.ts';

const aisle = (n: number, current: number, over: Partial<AisleStock> = {}): AisleStock => ({
  aisle_no: n,
  current_stock: current,
  max_stock: 12,
  price_cents: 200,
  sku: `SKU-${n}`,
  product_name: `P${n}`,
  faulted: 0,
  ...over,
});

describe('inventory refill planning (spec 3 key rule 6)', () => {
  it('orders aisles at or below 25% of max back to max, at 55% of retail, and nothing else', () => {
    const lines = refillLines([aisle(1, 3), aisle(2, 4), aisle(3, 0), aisle(4, 1, { sku: null }), aisle(5, 0, { faulted: 1 }), aisle(6, 0, { max_stock: 0 })]);
    expect(lines).toEqual([
      { aisleNo: 1, sku: 'SKU-1', productName: 'P1', quantity: 9, retailCents: 200, estUnitCostCents: 110 },
      { aisleNo: 3, sku: 'SKU-3', productName: 'P3', quantity: 12, retailCents: 200, estUnitCostCents: 110 },
    ]);
    expect(estimatedCents(lines)).toBe(21 * 110);
  });

  it('rounds the estimated unit cost to the cent', () => {
    expect(refillLines([aisle(1, 0, { price_cents: 175 })])[0]!.estUnitCostCents).toBe(96); // 96.25
  });

  it('is over the cap only when the month would exceed it', () => {
    expect(overCap(40_000, 10_000, 500)).toBe(false);
    expect(overCap(40_000, 10_001, 500)).toBe(true);
  });
});
