/**
 * Builds the kiosk's screen (apps/kiosk-screen, docs/kiosk-screen.md) into static files the agent serves at
 * `/screen/`: `index.html`, `screen.js` (one minified bundle, its QR encoder included) and `screen.css`.
 *
 *   npx tsx scripts/build-kiosk-screen.ts [--out-dir apps/kiosk-screen/dist]
 *
 * scripts/setup builds it for the demo and the tests; scripts/build-agent-release.ts puts it in the release
 * tree's `screen/` folder, so a cabinet shows its screen with no cloud at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { SCREEN_DIST, SCREEN_SOURCES } from '@vend/kiosk-screen';

export interface ScreenBuild {
  dir: string;
  /** Bytes of each file, for the benchmarks' first-paint figures. */
  bytes: Record<string, number>;
}

export async function buildKioskScreen(o: { outDir?: string } = {}): Promise<ScreenBuild> {
  const dir = path.resolve(o.outDir ?? SCREEN_DIST);
  fs.mkdirSync(dir, { recursive: true });
  const built = await esbuild.build({
    entryPoints: [path.join(SCREEN_SOURCES, 'main.ts')],
    outfile: path.join(dir, 'screen.js'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'chrome110',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  for (const w of built.warnings) process.stderr.write(`esbuild: ${w.text}\n`);
  await esbuild.build({
    entryPoints: [path.join(SCREEN_SOURCES, 'screen.css')],
    outfile: path.join(dir, 'screen.css'),
    bundle: true,
    minify: true,
    logLevel: 'silent',
  });
  fs.copyFileSync(path.join(SCREEN_SOURCES, 'index.html'), path.join(dir, 'index.html'));
  const bytes: Record<string, number> = {};
  for (const f of ['index.html', 'screen.js', 'screen.css']) bytes[f] = fs.statSync(path.join(dir, f)).size;
  return { dir, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const r = await buildKioskScreen(values['out-dir'] ? { outDir: values['out-dir'] } : {});
  process.stdout.write(
    `build-kiosk-screen: ${r.dir} (${Object.entries(r.bytes)
      .map(([f, b]) => `${f} ${(b / 1024).toFixed(1)} KiB`)
      .join(', ')})\n`,
  );
}
