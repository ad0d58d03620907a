/**
 * The starter planogram auto-onboarding loads into a done-for-you machine's ten aisles (docs/decisions/dfy.md):
 * one product per aisle at its list price, filled to the default max stock of a new machine.
 */
export const STARTER_PLANOGRAM: { aisleNo: number; sku: string; productName: string; priceCents: number; stock: number }[] = [
  ['SKU-COLA-355', 'Cola 355ml', 175],
  ['SKU-WATER-500', 'Spring water 500ml', 125],
  ['SKU-CHIPS-SALT', 'Sea salt chips', 150],
  ['SKU-BAR-CHOC', 'Chocolate bar', 195],
  ['SKU-NUTS-MIX', 'Trail mix', 250],
  ['SKU-GUM-MINT', 'Mint gum', 100],
  ['SKU-TEA-ICED', 'Iced tea', 225],
  ['SKU-COOKIE-OAT', 'Oat cookie', 175],
  ['SKU-JUICE-OJ', 'Orange juice', 275],
  ['SKU-ENERGY-250', 'Energy drink', 325],
].map(([sku, productName, priceCents], i) => ({
  aisleNo: i + 1,
  sku: sku as string,
  productName: productName as string,
  priceCents: priceCents as number,
  stock: 10,
}));
