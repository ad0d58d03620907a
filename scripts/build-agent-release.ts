/**
 * Builds the agent as a self-contained release tree and packs it, offline (docs/agent-upgrades.md):
 *
 *   npx tsx scripts/build-agent-release.ts [--arch x64|arm64] [--version 1.0.1] [--out-dir dist] [--tree DIR] [--no-pack] [--map DIR]
 *   (or scripts/build-agent-release, the same with bash in front)
 *
 * The tree:
 *
 *   VERSION                    the release version
 *   package.json               {name, version}: what the agent reports as its own version
 *   bin/vend-agent             sh launcher (apps/agent/packaging/vend-agent.sh)
 *   lib/vend-agent.cjs         the agent, bundled and minified by esbuild (entry apps/agent/src/upgrade/release-entry.ts),
 *   lib/{daemon,cli,upgrade-cli,undici,tar}.cjs  and the parts it loads when a command needs them; their
 *                              source maps are not in the tree (see below)
 *   runtime/node               Node.js 24 LTS for the target (npm registry: node-linux-<arch>, the version
 *                              in scripts/node24-version, as scripts/setup-node24 installs), + its LICENSE
 *   runtime/certs/<hash>.<n>   the root certificates that Node.js bundles, as OpenSSL's hashed directory
 *                              (scripts/ca-dir.ts): the launcher's trust store (docs/decisions/agent.md "Footprint")
 *   prebuilds/linux-<arch>/*.node  serialport's native binding (@serialport/bindings-cpp prebuilds, N-API)
 *   screen/{index.html,screen.js,screen.css}  the kiosk's own screen (scripts/build-kiosk-screen.ts), served at /screen/
 *
 * then `vendctl pack` (deterministic tar.gz) → `<out-dir>/vend-agent-<version>-linux-<arch>.tar.gz`, and
 * prints its sha256 and size (one JSON line with --json). The source maps go beside the artifact, in
 * `<out-dir>/vend-agent-<version>-linux-<arch>.maps/<file>.cjs.map` (with --no-pack: `--map DIR`, else none): a
 * cabinet never loads them, and `npx tsx scripts/agent-stack.ts <maps-dir> < trace.txt` turns a cabinet's
 * stack trace back into source positions (docs/decisions/agent.md "Footprint"). The target is linux-x64 (default) or
 * linux-arm64, from a linux-x64 or linux-arm64 machine: the runtime is not the Node running the build (that may be
 * past its end of life, and is of one architecture only) but the registry's package, fetched once with `npm pack`
 * and kept unpacked under .tmp/node-runtime/ (later builds are offline); the same version for this machine's
 * architecture lists the roots it bundles. The built tree runs its own `--version` when the target is this
 * machine's; a foreign one cannot run here and is packed unrun.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { buildKioskScreen } from './build-kiosk-screen.ts';
import { hashedCaFiles } from './ca-dir.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const AGENT = path.join(ROOT, 'apps/agent');
export const ARCHES = ['x64', 'arm64'] as const;
export type Arch = (typeof ARCHES)[number];
const NODE_VERSION = fs.readFileSync(path.join(ROOT, 'scripts/node24-version'), 'utf8').trim();
const DOTTED = /^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8})){0,3}$/;

export interface BuildResult {
  version: string;
  arch: Arch;
  nodeVersion: string;
  tree: string;
  artifact: string | null;
  /** The directory of the source maps (outside the tree), or null when none was asked for. */
  sourceMap: string | null;
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

/**
 * How the lib/ files refer to each other: undici and tar are their own files everywhere (loaded at first
 * use), and the entry's import() of the daemon, the CLI and the upgrade CLI load their files.
 */
const PROTOCOL = Symbol('protocol');
const ZOD_LOCALES = 'zod-locales';
const PINO_UNUSED = 'pino-unused';
function partsPlugin(self: string, parts: Record<string, string>): esbuild.Plugin {
  return {
    name: 'vend-agent-parts',
    setup(build) {
      build.onResolve({ filter: /^(undici|tar)$/ }, (a) => (a.kind === 'entry-point' ? undefined : { path: `./${a.path}.cjs`, external: true }));
      // @vend/protocol is pure code (no I/O, nothing registered at import): a file that takes one function
      // from it (the entry: a version check) does not carry every schema
      build.onResolve({ filter: /.*/ }, async (a) => {
        const protocol = a.path === '@vend/protocol' || (a.importer.includes('/packages/protocol/src/') && a.path.startsWith('.'));
        if (!protocol || a.pluginData === PROTOCOL) return undefined;
        const r = await build.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, importer: a.importer, pluginData: PROTOCOL });
        return r.errors.length > 0 ? undefined : { path: r.path, sideEffects: false };
      });
      // zod's namespace re-exports its 60-odd locales (≈ 260 KB of the daemon's 870 KB, all of it held in
      // the heap as source): the agent speaks English only, so `z.locales` carries `en` alone
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) =>
        /[/\\]zod[/\\]/.test(a.importer) ? { path: path.join(a.resolveDir, '../locales/en.js'), namespace: ZOD_LOCALES } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: ZOD_LOCALES }, (a) => ({
        contents: `export { default as en } from ${JSON.stringify(a.path)};`,
        resolveDir: path.dirname(a.path),
        loader: 'js',
      }));
      // pino loads its own destinations and transports at import (sonic-boom, thread-stream, and with them
      // Node's assert and worker_threads: ≈ 1 MB resident); the agent logs through streams of its own and
      // never calls pino.destination() nor pino.transport(), which fail loudly in the tree if ever called
      build.onResolve({ filter: /^(sonic-boom|thread-stream|worker_threads)$/ }, (a) =>
        /[/\\]pino[/\\]/.test(a.importer) ? { path: a.path, namespace: PINO_UNUSED } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: PINO_UNUSED }, (a) => ({
        contents:
          a.path === 'worker_threads'
            ? // pino reads isMainThread only to flush a sonic-boom destination at exit
              'module.exports = { isMainThread: true };'
            : `module.exports = class { constructor() { throw new Error('vend-agent: pino\\'s ${a.path} is not in the release tree'); } };`,
        loader: 'js',
      }));
      if (self !== 'vend-agent') return;
      build.onResolve({ filter: /^\.\.?\// }, (a) => {
        if (a.kind !== 'dynamic-import') return undefined;
        const target = path.resolve(a.resolveDir, a.path);
        const part = Object.entries(parts).find(([, entry]) => entry === target)?.[0];
        return part ? { path: `./${part}.cjs`, external: true } : undefined;
      });
    },
  };
}

/** The directory of @serialport/bindings-cpp as the agent resolves it (through serialport). */
function bindingsDir(): string {
  const fromAgent = createRequire(path.join(AGENT, 'package.json'));
  const serialport = path.dirname(fromAgent.resolve('serialport/package.json'));
  const fromSerialport = createRequire(path.join(serialport, 'package.json'));
  return path.dirname(fromSerialport.resolve('@serialport/bindings-cpp/package.json'));
}

/**
 * bin/node and LICENSE of the registry's node-linux-<arch> package, unpacked once into
 * .tmp/node-runtime/ (npm's own cache keeps the tarball too). Parallel builds may both fetch: each
 * unpacks into its own directory and the first rename wins.
 */
function nodeRuntime(arch: Arch): string {
  const pkg = `node-linux-${arch}`;
  const dir = path.join(ROOT, '.tmp/node-runtime', `${pkg}-${NODE_VERSION}`);
  if (fs.existsSync(path.join(dir, 'bin/node'))) return dir;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const work = fs.mkdtempSync(`${dir}.partial-`);
  try {
    try {
      // npm checks the tarball against the registry's sha512 integrity before writing it
      execFileSync('npm', ['pack', '--silent', '--prefer-offline', `${pkg}@${NODE_VERSION}`], {
        cwd: work,
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: 300_000,
      });
    } catch (e) {
      throw new Error(`could not fetch the runtime ${pkg}@${NODE_VERSION} from the npm registry (npm pack): ${(e as Error).message}`);
    }
    const tgz = path.join(work, `${pkg}-${NODE_VERSION}.tgz`);
    execFileSync('tar', ['xzf', tgz, '-C', work, '--strip-components=1', 'package/bin/node', 'package/LICENSE'], { stdio: 'inherit' });
    fs.rmSync(tgz);
    try {
      fs.renameSync(work, dir);
    } catch (e) {
      if (!fs.existsSync(path.join(dir, 'bin/node'))) throw e;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/**
 * The root certificates Node.js bundles in the target's runtime version (tls.rootCertificates, the same list for every
 * architecture): read by running that version built for this machine (the target's own when it is this machine's).
 */
function bundledRoots(): string[] {
  const runner = ARCHES.find((a) => `${process.platform}-${process.arch}` === `linux-${a}`);
  if (runner === undefined)
    throw new Error(`the roots of Node ${NODE_VERSION} are read by running it: build on linux-x64 or linux-arm64, not ${process.platform}-${process.arch}`);
  const node = path.join(nodeRuntime(runner), 'bin/node');
  const roots = JSON.parse(
    execFileSync(node, ['-p', "JSON.stringify(require('tls').rootCertificates)"], { encoding: 'utf8', env: {}, timeout: 30_000 }),
  ) as string[];
  if (roots.length < 50) throw new Error(`Node ${NODE_VERSION} lists ${roots.length} root certificates: expected its bundled store`);
  return roots;
}

export async function buildAgentRelease(o: {
  version: string;
  arch: Arch;
  outDir: string;
  tree?: string;
  pack: boolean;
  /** The directory the source maps go to (default: beside the artifact when packing, none otherwise). */
  sourceMap?: string;
}): Promise<BuildResult> {
  const started = Date.now();
  const TARGET = `linux-${o.arch}`;
  const tree = path.resolve(o.tree ?? fs.mkdtempSync(path.join(os.tmpdir(), `vend-agent-${o.version}-`)));
  fs.rmSync(tree, { recursive: true, force: true });
  for (const d of ['bin', 'lib', 'runtime', `prebuilds/${TARGET}`]) fs.mkdirSync(path.join(tree, d), { recursive: true });

  // 1. the agent: CommonJS files in lib/ (so the native binding's loader finds prebuilds/ beside lib/), minified
  // (V8 keeps a script's whole source in the heap, and the unminified bundle's comments, some not ASCII, made
  // it a two-byte string of 5.5 MB). Parsing a script also leaves malloc'd memory behind in proportion to
  // its size (≈ 5 MB per MB), so each command line loads only the file it needs: vend-agent.cjs (the entry)
  // import()s daemon.cjs for `run`, cli.cjs for the technician's commands, upgrade-cli.cjs for the boot
  // guard, and undici.cjs / tar.cjs are loaded by whichever needs them, when it does
  // (docs/decisions/agent.md "Footprint"). The source maps go outside the tree: Node would read them only
  // with --enable-source-maps.
  const lib = path.join(tree, 'lib');
  const maps = o.sourceMap ?? (o.pack ? path.resolve(o.outDir, `vend-agent-${o.version}-${TARGET}.maps`) : null);
  const fromAgent = createRequire(path.join(AGENT, 'package.json'));
  const parts: Record<string, string> = {
    'vend-agent': path.join(AGENT, 'src/upgrade/release-entry.ts'),
    daemon: path.join(AGENT, 'src/daemon-cli.ts'),
    cli: path.join(AGENT, 'src/cli.ts'),
    'upgrade-cli': path.join(AGENT, 'src/upgrade/cli.ts'),
    undici: fromAgent.resolve('undici'),
    tar: fromAgent.resolve('tar'),
  };
  for (const [part, entry] of Object.entries(parts)) {
    const outfile = path.join(lib, `${part}.cjs`);
    const bundled = await esbuild.build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      target: `node${NODE_VERSION.split('.')[0]}`,
      format: 'cjs',
      minify: true,
      // names stay readable in the commands' stack traces and output; not in the daemon's file: esbuild keeps a
      // name by defining it on each function, which gives each of them a property store of its own — ≈ 1 MB of the
      // daemon's heap (1,700 functions). scripts/agent-stack.ts gives a cabinet's trace its names back from the map.
      keepNames: part !== 'daemon',
      sourcemap: 'external',
      sourcesContent: true,
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
      plugins: [partsPlugin(part, parts)],
      // import.meta.url does not exist in CommonJS: give it the file's own URL, so
      // `new URL('../package.json', import.meta.url)` finds the tree's package.json
      define: { 'import.meta.url': '__vendImportMetaUrl' },
      banner: { js: "'use strict';\nconst __vendImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    });
    for (const w of bundled.warnings) process.stderr.write(`esbuild: ${w.text}\n`);
    for (const f of bundled.outputFiles) {
      if (f.path === outfile) fs.writeFileSync(outfile, f.contents);
      else if (maps !== null) {
        fs.mkdirSync(maps, { recursive: true });
        fs.writeFileSync(path.join(maps, path.basename(f.path)), f.contents);
      }
    }
  }

  // 2. the runtime: Node.js 24 LTS for the target, with the licence its redistribution requires
  const runtime = nodeRuntime(o.arch);
  fs.copyFileSync(path.join(runtime, 'bin/node'), path.join(tree, 'runtime/node'));
  fs.chmodSync(path.join(tree, 'runtime/node'), 0o755);
  fs.copyFileSync(path.join(runtime, 'LICENSE'), path.join(tree, 'runtime/LICENSE'));
  // its trust store: the roots it bundles, one file each, named for OpenSSL's lookup by subject, so that a TLS
  // connection parses the root its chain ends at rather than all of them (the launcher: --use-openssl-ca, SSL_CERT_DIR)
  fs.mkdirSync(path.join(tree, 'runtime/certs'));
  for (const [name, pem] of hashedCaFiles(bundledRoots())) fs.writeFileSync(path.join(tree, 'runtime/certs', name), pem);

  // 3. serialport's native binding for this target
  const prebuilds = path.join(bindingsDir(), 'prebuilds', TARGET);
  const nodes = fs.readdirSync(prebuilds).filter((n) => n.endsWith('.node'));
  if (nodes.length === 0) throw new Error(`no ${TARGET} prebuilds in ${prebuilds}`);
  for (const n of nodes) fs.copyFileSync(path.join(prebuilds, n), path.join(tree, 'prebuilds', TARGET, n));

  // the kiosk's screen: the agent serves it from here (config.ts packagedScreenDir), with no cloud needed
  await buildKioskScreen({ outDir: path.join(tree, 'screen') });

  // 4. launcher, VERSION, package.json
  fs.copyFileSync(path.join(AGENT, 'packaging/vend-agent.sh'), path.join(tree, 'bin/vend-agent'));
  fs.chmodSync(path.join(tree, 'bin/vend-agent'), 0o755);
  fs.writeFileSync(path.join(tree, 'VERSION'), `${o.version}\n`);
  fs.writeFileSync(path.join(tree, 'package.json'), JSON.stringify({ name: '@vend/agent', version: o.version, private: true }, null, 2) + '\n');

  // 5. it runs: the bundle, the runtime and the native binding load, and it knows its version
  if (`${process.platform}-${process.arch}` === TARGET) {
    const said = execFileSync(path.join(tree, 'bin/vend-agent'), ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
    if (said !== o.version) throw new Error(`the built tree says ${JSON.stringify(said)}, not ${o.version}`);
    // the run wrote V8's code cache into the tree: it belongs to this machine's user and flags, and a
    // cabinet writes its own (the install's self-test, release-entry.ts), so it never ships
    fs.rmSync(path.join(tree, 'compile-cache'), { recursive: true, force: true });
  }

  const treeBytes = bytesUnder(tree);
  const built = { version: o.version, arch: o.arch, nodeVersion: NODE_VERSION, tree, treeBytes, sourceMap: maps };
  if (!o.pack) return { ...built, artifact: null, sha256: null, size: null, seconds: (Date.now() - started) / 1000 };

  // 6. vendctl pack: the deterministic archive every cabinet can extract (files and directories only)
  fs.mkdirSync(o.outDir, { recursive: true });
  const artifact = path.resolve(o.outDir, `vend-agent-${o.version}-${TARGET}.tar.gz`);
  const out = execFileSync(
    process.execPath,
    [path.join(ROOT, 'apps/fleetctl/bin/vendctl.js'), 'pack', tree, '--version', o.version, '--out', artifact, '--force', '--json'],
    { encoding: 'utf8', cwd: ROOT, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
  );
  const packed = JSON.parse(out) as { sha256: string; size: number };
  return { ...built, artifact, sha256: packed.sha256, size: packed.size, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      version: { type: 'string' },
      arch: { type: 'string', default: 'x64' },
      'out-dir': { type: 'string', default: path.join(ROOT, 'dist') },
      tree: { type: 'string' },
      'no-pack': { type: 'boolean', default: false },
      map: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const version = values.version ?? (JSON.parse(fs.readFileSync(path.join(AGENT, 'package.json'), 'utf8')) as { version: string }).version;
  if (!DOTTED.test(version)) fail(`--version ${version} is not dotted-numeric (e.g. 1.4.2)`);
  const arch = values.arch as Arch;
  if (!ARCHES.includes(arch)) fail(`--arch ${values.arch} is not one of ${ARCHES.join(', ')}`);
  try {
    const r = await buildAgentRelease({
      version,
      arch,
      outDir: values['out-dir'],
      ...(values.tree ? { tree: values.tree } : {}),
      ...(values.map ? { sourceMap: path.resolve(values.map) } : {}),
      pack: !values['no-pack'],
    });
    if (values.json) process.stdout.write(JSON.stringify(r) + '\n');
    else {
      process.stdout.write(
        [
          `target   linux-${r.arch}, Node ${r.nodeVersion}`,
          `tree     ${r.tree} (${(r.treeBytes / 1024 / 1024).toFixed(1)} MiB)`,
          ...(r.artifact
            ? [`artifact ${r.artifact}`, `sha256   ${r.sha256}`, `size     ${r.size} bytes (${((r.size ?? 0) / 1024 / 1024).toFixed(1)} MiB)`]
            : []),
          ...(r.sourceMap ? [`maps     ${r.sourceMap} (not in the tree)`] : []),
          `built in ${r.seconds.toFixed(1)} s`,
        ].join('\n') + '\n',
      );
    }
  } catch (e) {
    fail((e as Error).message);
  }
}
