import { fileURLToPath } from 'node:url';

/** The console's sources (built by scripts/build-console.ts into a folder the cloud serves at /console/). */
export const CONSOLE_SOURCES = fileURLToPath(new URL('./src/', import.meta.url));
/** Where `scripts/setup` builds the console: `apps/console/dist/` (`index.html`, `console.js`, `console.css`). */
export const CONSOLE_DIST = fileURLToPath(new URL('./dist/', import.meta.url));
/** The typed client's schema, generated from the cloud's /openapi.json by scripts/gen-console-api.ts (committed). */
export const CONSOLE_API_SCHEMA = fileURLToPath(new URL('./src/api-schema.d.ts', import.meta.url));
