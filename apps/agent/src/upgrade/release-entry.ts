/**
 * The entry point of the packaged agent (scripts/build-agent-release bundles this file into
 * `<tree>/lib/vend-agent.cjs`; `<tree>/bin/vend-agent` runs it on `<tree>/runtime/node`).
 *
 * - `vend-agent --version` prints the release tree's VERSION (after the whole agent, native serial
 *   binding included, has loaded: the upgrade self-test and the release test rely on that).
 * - `vend-agent upgrade …` is the boot guard and the journal tools, with the install root defaulting
 *   to the directory that holds this tree (`/opt/vend-agent` for `/opt/vend-agent/current`).
 * - `vend-agent run` is the daemon: only its own command is loaded (daemon-cli.ts).
 * - everything else is the agent's CLI.
 *
 * Each path loads its own modules when it is taken (`import()`: in the release tree each is a file of
 * its own, lib/daemon.cjs, lib/cli.cjs, lib/upgrade-cli.cjs), so the daemon never parses the
 * technician's commands, the upgrade CLI or `vmc` (docs/decisions/agent.md "Footprint").
 */
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { commandOf } from '../cli-shell.ts';
import { CODE_CACHE_DIR, VERSION_FILE, releaseTreeOfBundle } from './layout.ts';

/** Node's compile cache (≥ 22.1; the tree ships 24), typed here because Node 20's types lack it. */
const compileCache = module as typeof module & {
  enableCompileCache?: (options: { directory: string; portable: boolean }) => unknown;
  flushCompileCache?: () => void;
};

/**
 * V8's code cache of the tree's own files, inside the tree (`<tree>/compile-cache`, docs/decisions/agent.md
 * "Footprint"): a script found there is not parsed whole, which leaves ≈ 5 MB less malloc'd memory behind in
 * the daemon. Portable (keyed by the path relative to the cache), so the entries the install's self-test
 * writes in the staging tree still match once it is renamed to current/, and the first start after an
 * install has them. Keyed by content, V8 flags and the user; a cache that cannot be written costs only that.
 */
function enableCodeCache(tree: string): void {
  try {
    compileCache.enableCompileCache?.({ directory: path.join(tree, CODE_CACHE_DIR), portable: true });
  } catch {
    // no cache: the scripts are parsed as before
  }
}

async function run(argv: string[]): Promise<number> {
  const tree = releaseTreeOfBundle(argv[1] ?? '.');
  const first = argv[2];
  if (first === '--version' || first === '-V') {
    // the self-test: every lazily loaded part evaluates (the daemon, the CLI, the upgrade pipeline's
    // tar and undici), and touching the OS binding makes node-gyp-build load the native addon now: a
    // tree whose prebuild does not fit this machine fails here, before it could be swapped in. Its
    // code cache is what the daemon's first start after the install reads.
    enableCodeCache(tree);
    const [daemon] = await Promise.all([import('../daemon-cli.ts'), import('../cli.ts'), import('./cli.ts'), import('tar'), import('undici')]);
    if (!daemon.serialBindingLoaded()) throw new Error('serialport binding did not load');
    compileCache.flushCompileCache?.();
    process.stdout.write(`${fs.readFileSync(path.join(tree, VERSION_FILE), 'utf8').trim()}\n`);
    return 0;
  }
  if (first === 'upgrade') return (await import('./cli.ts')).upgradeMain(argv, { defaultRoot: path.dirname(tree) });
  if (commandOf(argv) === 'run') {
    // a cache that is missing (a tree started without its self-test) is written 10 s after the start
    // (a daemon runs for months and may never stop cleanly), and at exit
    enableCodeCache(tree);
    setTimeout(() => compileCache.flushCompileCache?.(), 10_000).unref();
    return (await import('../daemon-cli.ts')).runMain(argv);
  }
  return (await import('../cli.ts')).main(argv);
}

run(process.argv).then(
  (code) => {
    process.exitCode = code;
    // everything is closed by now; don't let a native handle still winding down hold the exit up
    setTimeout(() => process.exit(), 500).unref();
  },
  (err: unknown) => {
    process.stderr.write(`vend-agent: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(70);
  },
);
