/**
 * FIFO cost allocation (docs/fifo.md): a sale of `quantity` units draws from the oldest layer first,
 * moving to the next when one runs out. Pure: layers (oldest first) and a quantity in, the draws out.
 * Money is exact: a draw costs `qty × unitCostCents`, integer cents, no rounding anywhere.
 */

/** A cost layer as the allocation sees it: what is left of it and what one unit cost. */
export interface FifoLayer {
  id: string;
  qtyRemaining: number;
  unitCostCents: number;
}

/** One draw of a sale from one layer. */
export interface FifoDraw {
  lotId: string;
  qty: number;
  unitCostCents: number;
  costCents: number;
}

export interface FifoAllocation {
  draws: FifoDraw[];
  /** Units no layer covered: they cost zero ("FIFO cost is zero until a purchase order is received"). */
  uncovered: number;
  /** Sum of the draws' cost. */
  costCents: number;
}

/** Allocates `quantity` units over `layers`, which must be given oldest first. Empty layers are skipped. */
export function allocateFifo(layers: readonly FifoLayer[], quantity: number): FifoAllocation {
  if (!Number.isInteger(quantity) || quantity < 0) throw new RangeError(`quantity must be a whole number ≥ 0, got ${quantity}`);
  const draws: FifoDraw[] = [];
  let need = quantity;
  let costCents = 0;
  for (const layer of layers) {
    if (need === 0) break;
    if (layer.qtyRemaining <= 0) continue;
    const qty = Math.min(need, layer.qtyRemaining);
    const cost = qty * layer.unitCostCents;
    draws.push({ lotId: layer.id, qty, unitCostCents: layer.unitCostCents, costCents: cost });
    costCents += cost;
    need -= qty;
  }
  return { draws, uncovered: need, costCents };
}
