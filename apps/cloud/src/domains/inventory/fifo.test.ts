import { describe, expect, it } from 'vitest';
import { allocateFifo } from './fifo.ts';
import { fifoDocSteps } from './fifo-doc.test-support.ts';

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

describe('the hand-worked example of docs/fifo.md', () => {
  it('allocating each sale over the layers reproduces every step: the cost and the layer table after it', () => {
    const steps = fifoDocSteps();
    expect(steps.length).toBeGreaterThanOrEqual(5);
    const layers: { id: string; po: string; sku: string; unitCostCents: number; received: number; qtyRemaining: number }[] = [];
    for (const step of steps) {
      if (step.kind === 'receive') {
        for (const l of step.lines)
          layers.push({
            id: `${step.po}/${l.sku}`,
            po: step.po,
            sku: l.sku,
            unitCostCents: Math.round(l.unitCostUsd * 100),
            received: l.qty,
            qtyRemaining: l.qty,
          });
      } else {
        const r = allocateFifo(
          layers.filter((l) => l.sku === step.sku),
          step.qty,
        );
        expect(r.costCents).toBe(step.costCents);
        for (const d of r.draws) layers.find((l) => l.id === d.lotId)!.qtyRemaining -= d.qty;
      }
      expect(layers.map((l) => ({ po: l.po, sku: l.sku, unitCostCents: l.unitCostCents, received: l.received, remaining: l.qtyRemaining }))).toEqual(
        step.layers,
      );
    }
  });
});
