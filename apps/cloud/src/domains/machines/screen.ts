import { DEFAULT_IMPRESSIONS_PER_PLAY, DEFAULT_LOOP, ScreenView, type ScreenBlock } from './screen.schemas.ts';
import { normalizeCity, normalizePostalCode } from './screen.rules.ts';

/**
 * A machine's screen block as the other domains read it (the ad loop, reports, the DOOH export):
 * pure functions over the stored row, no I/O.
 */
export type { ScreenBlock } from './screen.schemas.ts';
export { DEFAULT_IMPRESSIONS_PER_PLAY, DEFAULT_LOOP } from './screen.schemas.ts';
export { normalizeCity, normalizePostalCode } from './screen.rules.ts';

/** The stored block, or null when none was set or what is stored is not a block (never a throw). */
export function screenOf(row: { screen_json: string | null }): ScreenBlock | null {
  if (row.screen_json === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(row.screen_json);
  } catch {
    return null;
  }
  const parsed = ScreenView.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The loop shape of a machine's screen: its own, or 8 slots × 15 s (spec 1 §8). */
export function loopShapeOf(screen: ScreenBlock | null): { slots: number; slotSeconds: number } {
  return screen ? { slots: screen.loop.slots, slotSeconds: screen.loop.slotSeconds } : { ...DEFAULT_LOOP };
}

/** Estimated viewers per showing: the operator's estimate, or DEFAULT_IMPRESSIONS_PER_PLAY (1) without a screen block. */
export function impressionsPerPlayOf(screen: ScreenBlock | null): number {
  return screen ? screen.impressionsPerPlay : DEFAULT_IMPRESSIONS_PER_PLAY;
}

/** Whether the screen's city is `city` (normalised like the stored one, compared case-insensitively). */
export function screenInCity(screen: ScreenBlock | null, city: string): boolean {
  if (!screen) return false;
  return normalizeCity(screen.address.city).toLowerCase() === normalizeCity(city).toLowerCase();
}

/** Whether the screen's postal code is one of `postalCodes` (each normalised like the stored one). */
export function screenInPostalCodes(screen: ScreenBlock | null, postalCodes: readonly string[]): boolean {
  const own = screen?.address.postalCode;
  if (!own) return false;
  const key = normalizePostalCode(own);
  return postalCodes.some((z) => normalizePostalCode(z) === key);
}
