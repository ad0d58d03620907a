// Temporary stand-in until the screen branch lands (replaced by the real module on merge).
export interface ScreenBlock {
  address: { city: string | null; postalCode: string | null } | null;
  loop: { slots: number; slotSeconds: number };
  impressionsPerPlay: number;
  resolution: { width: number; height: number } | null;
  geo: { lat: number; lng: number } | null;
  venueCategoryId: string | null;
}
export function screenOf(row: { screen_json: string | null }): ScreenBlock | null {
  return row.screen_json ? (JSON.parse(row.screen_json) as ScreenBlock) : null;
}
export function loopShapeOf(screen: ScreenBlock | null): { slots: number; slotSeconds: number } {
  return screen?.loop ?? { slots: 8, slotSeconds: 15 };
}
export function impressionsPerPlayOf(screen: ScreenBlock | null): number {
  return screen?.impressionsPerPlay ?? 1;
}
