import { describe, expect, it } from 'vitest';
import { allocateFifo } from './fifo.ts';

const L = (id: string, qtyRemaining: number, unitCostCents: number) => ({ id, qtyRemaining, unitCostCents });

describe('allocateFifo', () => {
  it('draws from the oldest layer only while it covers the sale', () => {
    expect(allocateFifo([L('a', 5, 40), L('b', 5, 55)], 3)).toEqual({
      draws: [{ lotId: 'a', qty: 3, unitCostCents: 40, costCents: 120 }],
      uncovered: 0,
      costCents: 120,
    });
  });

  it('spans layers in the given order when the oldest runs out', () => {
    expect(allocateFifo([L('a', 2, 40), L('b', 5, 55)], 4)).toEqual({
      draws: [
        { lotId: 'a', qty: 2, unitCostCents: 40, costCents: 80 },
        { lotId: 'b', qty: 2, unitCostCents: 55, costCents: 110 },
      ],
      uncovered: 0,
      costCents: 190,
    });
  });

  it('skips empty layers and leaves units beyond every layer uncovered, at zero cost', () => {
    expect(allocateFifo([L('a', 0, 40), L('b', 1, 55)], 3)).toEqual({
      draws: [{ lotId: 'b', qty: 1, unitCostCents: 55, costCents: 55 }],
      uncovered: 2,
      costCents: 55,
    });
    expect(allocateFifo([], 2)).toEqual({ draws: [], uncovered: 2, costCents: 0 });
  });

  it('draws nothing for zero units and refuses a fractional or negative quantity', () => {
    expect(allocateFifo([L('a', 3, 40)], 0)).toEqual({ draws: [], uncovered: 0, costCents: 0 });
    expect(() => allocateFifo([L('a', 3, 40)], 1.5)).toThrow(RangeError);
    expect(() => allocateFifo([L('a', 3, 40)], -1)).toThrow(RangeError);
  });

  it('conserves units: drawn + uncovered = quantity, no layer overdrawn', () => {
    for (let q = 0; q <= 12; q++) {
      const layers = [L('a', 3, 10), L('b', 0, 20), L('c', 4, 30), L('d', 2, 40)];
      const r = allocateFifo(layers, q);
      expect(r.draws.reduce((n, d) => n + d.qty, 0) + r.uncovered).toBe(q);
      for (const d of r.draws) expect(d.qty).toBeLessThanOrEqual(layers.find((l) => l.id === d.lotId)!.qtyRemaining);
      expect(r.costCents).toBe(r.draws.reduce((n, d) => n + d.costCents, 0));
    }
  });
});
