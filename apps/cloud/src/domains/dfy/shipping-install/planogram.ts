import { STARTER_PRODUCTS } from '../../../db/starter-products.ts';

/**
 * The starter planogram auto-onboarding loads into a done-for-you machine's ten aisles (docs/decisions/dfy.md):
 * the house's starter products, one per aisle at its list price, filled to the default max stock of a new machine.
 */
export const STARTER_PLANOGRAM: { aisleNo: number; sku: string; productName: string; priceCents: number; stock: number }[] = STARTER_PRODUCTS.map((x, i) => ({
  aisleNo: i + 1,
  ...x,
  stock: 10,
}));
