/**
 * The ten products a new machine's aisles carry, aisle 1 first: the sandbox seed fills its machines with
 * them and done-for-you onboarding loads them as the starter planogram. One list, so the two never drift.
 */
export const STARTER_PRODUCTS: readonly { sku: string; productName: string; priceCents: number }[] = [
  { sku: 'SKU-COLA-355', productName: 'Cola 355ml', priceCents: 175 },
  { sku: 'SKU-WATER-500', productName: 'Spring water 500ml', priceCents: 125 },
  { sku: 'SKU-CHIPS-SALT', productName: 'Sea salt chips', priceCents: 150 },
  { sku: 'SKU-BAR-CHOC', productName: 'Chocolate bar', priceCents: 195 },
  { sku: 'SKU-NUTS-MIX', productName: 'Trail mix', priceCents: 250 },
  { sku: 'SKU-GUM-MINT', productName: 'Mint gum', priceCents: 100 },
  { sku: 'SKU-TEA-ICED', productName: 'Iced tea', priceCents: 225 },
  { sku: 'SKU-COOKIE-OAT', productName: 'Oat cookie', priceCents: 175 },
  { sku: 'SKU-JUICE-OJ', productName: 'Orange juice', priceCents: 275 },
  { sku: 'SKU-ENERGY-250', productName: 'Energy drink', priceCents: 325 },
];
