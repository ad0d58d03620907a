/**
 * Builds the cloud for production: one ES module bundle of the cloud's own code and the workspace's
 * `@vend/protocol` (TypeScript, which Node does not run), with every npm dependency of apps/cloud left
 * external and loaded from apps/cloud/node_modules as installed (native modules — better-sqlite3, sharp —
 * and packages that read their own files — swagger-ui-dist, @fontsource/inter, pino's transports — stay
 * where they are).
 *
 *   npx tsx scripts/build-cloud.ts [--out-dir apps/cloud/dist]     (or scripts/build-cloud)
 *   NODE_ENV=production node apps/cloud/dist/main.js
 *
 * The out dir must sit inside apps/cloud so that Node resolves the dependencies from there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLOUD = path.join(ROOT, 'apps/cloud');

export interface CloudBuild {
  main: string;
  bytes: number;
  seconds: number;
}

/** Dependencies of apps/cloud that stay external (all but the workspace's TypeScript packages). */
function externals(): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(CLOUD, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.entries(pkg.dependencies)
    .filter(([, spec]) => !spec.startsWith('workspace:'))
    .flatMap(([name]) => [name, `${name}/*`]);
}

export async function buildCloud(o: { outDir?: string } = {}): Promise<CloudBuild> {
  const started = Date.now();
  const outDir = path.resolve(o.outDir ?? path.join(CLOUD, 'dist'));
  if (!`${outDir}${path.sep}`.startsWith(`${CLOUD}${path.sep}`)) throw new Error(`the out dir must be inside ${CLOUD} (its node_modules): ${outDir}`);
  fs.rmSync(outDir, { recursive: true, force: true });
  const main = path.join(outDir, 'main.js');
  const built = await esbuild.build({
    entryPoints: [path.join(CLOUD, 'src/main.ts')],
    outfile: main,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: externals(),
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'silent',
    // CommonJS code bundled from the workspace (tweetnacl, through @vend/protocol) calls require()
    banner: { js: "import { createRequire as __vendCreateRequire } from 'node:module';\nconst require = __vendCreateRequire(import.meta.url);" },
  });
  for (const w of built.warnings) process.stderr.write(`esbuild: ${w.text}\n`);
  // the out dir is an ES module scope whatever the package says
  fs.writeFileSync(path.join(outDir, 'package.json'), JSON.stringify({ type: 'module' }) + '\n');
  return { main, bytes: fs.statSync(main).size, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  const r = await buildCloud(values['out-dir'] ? { outDir: values['out-dir'] } : {});
  process.stdout.write(`build-cloud: ${path.relative(ROOT, r.main)} (${(r.bytes / 1024).toFixed(0)} KiB) in ${r.seconds.toFixed(1)} s\n`);
}
