import { fileURLToPath } from 'node:url';

/** The screen's sources (built by scripts/build-kiosk-screen.ts into a folder the agent serves). */
export const SCREEN_SOURCES = fileURLToPath(new URL('./src/', import.meta.url));
/** Where `scripts/setup` builds the screen for the demo and the tests: `apps/kiosk-screen/dist/`. */
export const SCREEN_DIST = fileURLToPath(new URL('./dist/', import.meta.url));
