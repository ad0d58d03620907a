/** What the browser apps' builds share (scripts/build-kiosk-screen.ts, scripts/build-console.ts): one esbuild pass for the script, one for the stylesheet, the page copied. */
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';

export interface StaticAppBuild {
  dir: string;
  /** Bytes of each file, for the benchmarks' first-paint and page-weight figures. */
  bytes: Record<string, number>;
}

/**
 * Bundles `<sources>/main.ts` into `<dir>/<name>.js` (one minified IIFE for chromium), `<sources>/<name>.css` into
 * `<dir>/<name>.css`, and copies `<sources>/index.html`.
 */
export async function buildStaticApp(o: { sources: string; dir: string; name: string }): Promise<StaticAppBuild> {
  const dir = path.resolve(o.dir);
  fs.mkdirSync(dir, { recursive: true });
  const built = await esbuild.build({
    entryPoints: [path.join(o.sources, 'main.ts')],
    outfile: path.join(dir, `${o.name}.js`),
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
    entryPoints: [path.join(o.sources, `${o.name}.css`)],
    outfile: path.join(dir, `${o.name}.css`),
    bundle: true,
    minify: true,
    logLevel: 'silent',
  });
  fs.copyFileSync(path.join(o.sources, 'index.html'), path.join(dir, 'index.html'));
  const bytes: Record<string, number> = {};
  for (const f of ['index.html', `${o.name}.js`, `${o.name}.css`]) bytes[f] = fs.statSync(path.join(dir, f)).size;
  return { dir, bytes };
}

/** The build's one line for a terminal: where, and each file's size. */
export function describeBuild(tool: string, r: StaticAppBuild): string {
  return `${tool}: ${r.dir} (${Object.entries(r.bytes)
    .map(([f, b]) => `${f} ${(b / 1024).toFixed(1)} KiB`)
    .join(', ')})\n`;
}
