/**
 * Builds the kiosk's screen (apps/kiosk-screen, docs/kiosk-screen.md) into static files the agent serves at
 * `/screen/`: `index.html`, `screen.js` (one minified bundle, its QR encoder included) and `screen.css`.
 *
 *   npx tsx scripts/build-kiosk-screen.ts [--out-dir apps/kiosk-screen/dist]
 *
 * scripts/setup builds it for the demo and the tests; scripts/build-agent-release.ts puts it in the release
 * tree's `screen/` folder, so a cabinet shows its screen with no cloud at all.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SCREEN_DIST, SCREEN_SOURCES } from '@vend/kiosk-screen';
import { buildStaticApp, describeBuild, type StaticAppBuild } from './build-static-app.ts';

export type ScreenBuild = StaticAppBuild;

export function buildKioskScreen(o: { outDir?: string } = {}): Promise<ScreenBuild> {
  return buildStaticApp({ sources: SCREEN_SOURCES, dir: o.outDir ?? SCREEN_DIST, name: 'screen' });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  process.stdout.write(describeBuild('build-kiosk-screen', await buildKioskScreen(values['out-dir'] ? { outDir: values['out-dir'] } : {})));
}
