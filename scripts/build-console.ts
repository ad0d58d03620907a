/**
 * Builds the operator's console (apps/console, docs/console.md) into the static files the cloud serves under
 * `/console/`: `index.html` (the cloud adds the session's CSRF token to it), `console.js` (one minified bundle, its
 * typed API client included) and `console.css`.
 *
 *   npx tsx scripts/build-console.ts [--out-dir apps/console/dist]
 *
 * scripts/setup builds it for the demo and the tests.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CONSOLE_DIST, CONSOLE_SOURCES } from '@vend/console';
import { buildStaticApp, describeBuild, type StaticAppBuild } from './build-static-app.ts';

export function buildConsole(o: { outDir?: string } = {}): Promise<StaticAppBuild> {
  return buildStaticApp({ sources: CONSOLE_SOURCES, dir: o.outDir ?? CONSOLE_DIST, name: 'console' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  process.stdout.write(describeBuild('build-console', await buildConsole(values['out-dir'] ? { outDir: values['out-dir'] } : {})));
}
