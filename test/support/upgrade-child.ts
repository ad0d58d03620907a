/**
 * A stand-in agent process for the crash tests (test/upgrade-crash.test.ts): drives the real
 * UpgradeManager against a temp install root and kills itself with SIGKILL at the named step — a
 * power cut at that exact point. Run as `node --import tsx test/support/upgrade-child.ts '<json>'`.
 *
 *   mode install: check(offer) (download over HTTPS from the test server, extract, swap) then "restart"
 *   mode boot:    onBoot() — count the attempt, wait for the cloud (reachable or not) to commit or revert
 */
import fs from 'node:fs';
import path from 'node:path';
import { Agent } from 'undici';
import { systemClock } from '@vend/protocol';
import { UpgradeManager, undiciArtifactFetch } from '@vend/agent';
import type { UpgradeStep } from '@vend/agent';

interface ChildArgs {
  root: string;
  mode: 'install' | 'boot';
  offer?: unknown;
  ca?: string;
  publicKey: string;
  prefix: string;
  crashAt?: UpgradeStep | null;
  reachable?: boolean;
  healthTimeoutMs?: number;
}

const args = JSON.parse(process.argv[2] ?? '{}') as ChildArgs;
const say = (o: object): void => void process.stdout.write(JSON.stringify(o) + '\n');
const quiet = { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 3600 };

const manager = new UpgradeManager({
  root: args.root,
  clock: systemClock,
  // The in-process health timeout here is 2 s, so the boot guard's own deadline (an attempt counted more
  // than the timeout ago in this kernel boot) would revert between two children. These tests are about
  // SIGKILL consistency; an unknown boot id turns that deadline off (it is tested in manager.boot.int.test.ts).
  machine: { bootId: () => null, monotonicMs: () => 0 },
  releasePublicKey: args.publicKey,
  artifactPrefix: args.prefix,
  // the offers here are single-artifact releases (x64 trees), whatever machine runs the tests
  arch: 'x64',
  ...(args.ca ? { fetch: undiciArtifactFetch({ dispatcher: new Agent({ connect: { ca: args.ca } }) }) } : {}),
  limits: { healthTimeoutMs: args.healthTimeoutMs ?? 2_000, healthPollMs: 50 },
  onStep: (step) => {
    say({ step });
    if (step === args.crashAt) process.kill(process.pid, 'SIGKILL');
  },
  host: {
    runningVersion: () => fs.readFileSync(path.join(args.root, 'current', 'VERSION'), 'utf8').trim(),
    quiet: () => quiet,
    fetchOffer: async () => args.offer ?? null,
    reportDeferral: (r) => say({ deferral: r }),
    reportBlocked: (r) => say({ blocked: r }),
    clearReports: () => {},
    holdVendLock: () => ({ release: () => {} }),
    restart: () => {
      say({ restart: true });
      process.exit(0);
    },
    cloudReachable: async () => args.reachable === true,
  },
});

if (args.mode === 'install') {
  say({ outcome: await manager.check(args.offer) });
  process.exit(0);
} else {
  say({ boot: await manager.onBoot() });
  // wait (bounded) for the health timer to commit or revert
  const deadline = Date.now() + (args.healthTimeoutMs ?? 2_000) + 5_000;
  while (Date.now() < deadline) {
    const j = await manager.status();
    if (j?.state === 'idle') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  say({ journal: await manager.status() });
  process.exit(0);
}
