/**
 * Builds the agent as a self-contained release tree and packs it, offline (docs/agent-upgrades.md):
 *
 *   npx tsx scripts/build-agent-release.ts [--version 1.0.1] [--out-dir dist] [--tree DIR] [--no-pack]
 *   (or scripts/build-agent-release, the same with bash in front)
 *
 * The tree:
 *
 *   VERSION                    the release version
 *   package.json               {name, version}: what the agent reports as its own version
 *   bin/vend-agent             sh launcher (apps/agent/packaging/vend-agent.sh)
 *   lib/vend-agent.cjs         the agent, bundled by esbuild (entry apps/agent/src/upgrade/release-entry.ts)
 *   runtime/node               the Node.js binary running this script (process.execPath): no download
 *   prebuilds/linux-x64/*.node serialport's native binding (@serialport/bindings-cpp prebuilds)
 *
 * then `vendctl pack` (deterministic tar.gz) → `<out-dir>/vend-agent-<version>-linux-x64.tar.gz`, and
 * prints its sha256 and size (one JSON line with --json). The target is this machine's OS and
 * architecture (linux-x64): the runtime is copied, not fetched, so cross-building is not possible.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AGENT = path.join(ROOT, 'apps/agent');
const TARGET = 'linux-x64';
const DOTTED = /^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8})){0,3}$/;

export interface BuildResult {
  version: string;
  tree: string;
  artifact: string | null;
  sha256: string | null;
  size: number | null;
  treeBytes: number;
  seconds: number;
}

function fail(message: string): never {
  process.stderr.write(`build-agent-release: ${message}\n`);
  process.exit(1);
}

function bytesUnder(dir: string): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    n += e.isDirectory() ? bytesUnder(p) : fs.statSync(p).size;
  }
  return n;
}

/** The directory of @serialport/bindings-cpp as the agent resolves it (through serialport). */
function bindingsDir(): string {
  const fromAgent = createRequire(path.join(AGENT, 'package.json'));
  const serialport = path.dirname(fromAgent.resolve('serialport/package.json'));
  const fromSerialport = createRequire(path.join(serialport, 'package.json'));
  return path.dirname(fromSerialport.resolve('@serialport/bindings-cpp/package.json'));
}

export async function buildAgentRelease(o: { version: string; outDir: string; tree?: string; pack: boolean }): Promise<BuildResult> {
  const started = Date.now();
  if (`${process.platform}-${process.arch}` !== TARGET)
    throw new Error(`this builds ${TARGET} releases from this machine's runtime; this is ${process.platform}-${process.arch}`);
  const tree = path.resolve(o.tree ?? fs.mkdtempSync(path.join(os.tmpdir(), `vend-agent-${o.version}-`)));
  fs.rmSync(tree, { recursive: true, force: true });
  for (const d of ['bin', 'lib', 'runtime', `prebuilds/${TARGET}`]) fs.mkdirSync(path.join(tree, d), { recursive: true });

  // 1. the agent, one CommonJS file (so the native binding's loader finds prebuilds/ beside lib/)
  const built = await esbuild.build({
    entryPoints: [path.join(AGENT, 'src/upgrade/release-entry.ts')],
    outfile: path.join(tree, 'lib/vend-agent.cjs'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: false,
    legalComments: 'none',
    logLevel: 'silent',
    // import.meta.url does not exist in CommonJS: give it the bundle's own URL, so
    // `new URL('../package.json', import.meta.url)` finds the tree's package.json
    define: { 'import.meta.url': '__vendImportMetaUrl' },
    banner: { js: "'use strict';\nconst __vendImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  for (const w of built.warnings) process.stderr.write(`esbuild: ${w.text}\n`);

  // 2. the runtime: the Node.js running this build
  fs.copyFileSync(process.execPath, path.join(tree, 'runtime/node'));
  fs.chmodSync(path.join(tree, 'runtime/node'), 0o755);

  // 3. serialport's native binding for this target
  const prebuilds = path.join(bindingsDir(), 'prebuilds', TARGET);
  const nodes = fs.readdirSync(prebuilds).filter((n) => n.endsWith('.node'));
  if (nodes.length === 0) throw new Error(`no ${TARGET} prebuilds in ${prebuilds}`);
  for (const n of nodes) fs.copyFileSync(path.join(prebuilds, n), path.join(tree, 'prebuilds', TARGET, n));

  // 4. launcher, VERSION, package.json
  fs.copyFileSync(path.join(AGENT, 'packaging/vend-agent.sh'), path.join(tree, 'bin/vend-agent'));
  fs.chmodSync(path.join(tree, 'bin/vend-agent'), 0o755);
  fs.writeFileSync(path.join(tree, 'VERSION'), `${o.version}\n`);
  fs.writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: '@vend/agent', version: o.version, private: true }, null, 2) + '\n');

  // 5. it runs: the bundle, the runtime and the native binding load, and it knows its version
  const said = execFileSync(path.join(tree, 'bin/vend-agent'), ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  if (said !== o.version) throw new Error(`the built tree says ${JSON.stringify(said)}, not ${o.version}`);

  const treeBytes = bytesUnder(tree);
  if (!o.pack) return { version: o.version, tree, artifact: null, sha256: null, size: null, treeBytes, seconds: (Date.now() - started) / 1000 };

  // 6. vendctl pack: the deterministic archive every cabinet can extract (files and directories only)
  fs.mkdirSync(o.outDir, { recursive: true });
  const artifact = path.resolve(o.outDir, `vend-agent-${o.version}-${TARGET}.tar.gz`);
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, 'apps/fleetctl/bin/vendctl.js'), 'pack', tree, '--version', o.version, '--out', artifact, '--force', '--json'],
    { encoding: 'utf8', cwd: ROOT, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const packed = JSON.parse(out) as { sha256: string; size: number };
  return { version: o.version, tree, artifact, sha256: packed.sha256, size: packed.size, treeBytes, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      'out-dir': { type: 'string', default: path.join(ROOT, 'dist') },
      tree: { type: 'string' },
      'no-pack': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const version = values.version ?? (JSON.parse(fs.readFileSync(path.join(AGENT, 'package.json'), 'utf8')) as { version: string }).version;
  if (!DOTTED.test(version)) fail(`--version ${version} is not dotted-numeric (e.g. 1.4.2)`);
  try {
    const r = await buildAgentRelease({ version, outDir: values['out-dir'], ...(values.tree ? { tree: values.tree } : {}), pack: !values['no-pack'] });
    if (values.json) process.stdout.write(JSON.stringify(r) + '\n');
    else {
      process.stdout.write(
        [
          `tree     ${r.tree} (${(r.treeBytes / 1024 / 1024).toFixed(1)} MiB)`,
          ...(r.artifact
            ? [`artifact ${r.artifact}`, `sha256   ${r.sha256}`, `size     ${r.size} bytes (${((r.size ?? 0) / 1024 / 1024).toFixed(1)} MiB)`]
            : []),
          `built in ${r.seconds.toFixed(1)} s`,
        ].join('\n') + '\n',
      );
    }
  } catch (e) {
    fail((e as Error).message);
  }
}
