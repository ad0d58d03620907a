/** Spec 3 §8 and key rule 6: an aisle at or below 25% of its max stock is refilled to max. */
export const REFILL_THRESHOLD = 0.25;
/** Estimated wholesale cost: 55% of retail (flagged as an estimate until the order is received). */
export const WHOLESALE_OF_RETAIL = 0.55;

export interface AisleStock {
  aisle_no: number;
  current_stock: number;
  max_stock: number;
  price_cents: number;
  sku: string | null;
  product_name: string | null;
  faulted: number;
}

export interface RefillLine {
  aisleNo: number;
  sku: string;
  productName: string | null;
  quantity: number;
  retailCents: number;
  estUnitCostCents: number;
}

/**
 * The refill lines of a machine: every stocked aisle (a SKU, a max above zero, not faulted) at or below
 * 25% of max, filled back to max. An aisle without a SKU has nothing to order. Pure.
 */
export function refillLines(aisles: readonly AisleStock[]): RefillLine[] {
  return aisles
    .filter((a) => a.sku !== null && a.faulted === 0 && a.max_stock > 0 && a.current_stock <= a.max_stock * REFILL_THRESHOLD)
    .map((a) => ({
      aisleNo: a.aisle_no,
      sku: a.sku!,
      productName: a.product_name,
      quantity: a.max_stock - Math.max(0, a.current_stock),
      retailCents: a.price_cents,
      estUnitCostCents: Math.round(a.price_cents * WHOLESALE_OF_RETAIL),
    }));
}

export function estimatedCents(lines: readonly RefillLine[]): number {
  return lines.reduce((n, l) => n + l.quantity * l.estUnitCostCents, 0);
}

/** Whether an order of `cents` would take the machine's month over its cap (then it waits for approval). */
export function overCap(spentThisMonthCents: number, cents: number, capUsd: number): boolean {
  return spentThisMonthCents + cents > Math.round(capUsd * 100);
}
