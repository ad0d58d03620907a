import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_CODES, main } from './cli.ts';
import { exitCodeForStatus } from './errors.ts';
import { describeRollout, renderFleet } from './format.ts';
import { silentProgress, terminalProgress } from './progress.ts';
import type { AgentFleetData } from '@vend/protocol';

/** The CLI's parsing, exit codes, renderings and progress bars: nothing here touches a file or the network. */

async function run(args: string[], env: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const code = await main(['node', 'vendctl', ...args], { env, stdout: (t) => (out += t), stderr: (t) => (err += t), progress: silentProgress });
  return { code, out, err };
}

describe('usage', () => {
  it('--help exits 0 and lists every command', async () => {
    const r = await run(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['keygen', 'pack', 'sign', 'publish', 'releases', 'rollout', 'pin', 'unpin', 'fleet']) expect(r.out).toContain(c);
  });

  it('unknown commands, missing or invalid options, a bare command group and missing configuration are 64', async () => {
    const cases: [string[], RegExp][] = [
      [['bogus'], /unknown command/],
      [['rollout'], /Usage: vendctl rollout/],
      [['rollout', 'set'], /--version/],
      [['rollout', 'set', '--version', '1.x'], /dotted-numeric/],
      [['rollout', 'set', '--version', '1.0.0', '--percent', '101'], /0\.\.100/],
      [['rollout', 'set', '--version', '1.0.0', '--phase', 'paused'], /rolling, held, complete/],
      [['rollout', 'hold'], /--reason/],
      [['pin', 'SBX-1'], /--version/],
      [['sign', '--key', 'k'], /required option/],
      [['fleet'], /VEND_CLOUD_URL/],
      [['fleet', '--cloud', 'http://127.0.0.1:9'], /VEND_API_KEY/],
      [['fleet', '--cloud', 'ftp://x', '--api-key', 'k'], /http\(s\) URL/],
      [['fleet', '--timeout', '0'], /1\.\.3600/],
      [['publish', 'm.json', '--upload-to', '/tmp'], /needs --artifact/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args, args.includes('--upload-to') ? { VEND_CLOUD_URL: 'http://127.0.0.1:9', VEND_API_KEY: 'k' } : {});
      expect(r.code, args.join(' ')).toBe(EXIT_CODES.usage);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });

  it('maps the cloud’s statuses to exit codes', () => {
    expect([400, 404, 409, 410, 422].map(exitCodeForStatus)).toEqual([1, 1, 1, 1, 1]);
    expect([401, 403].map(exitCodeForStatus)).toEqual([77, 77]);
    expect([429, 500, 502, 503].map(exitCodeForStatus)).toEqual([69, 69, 69, 69]);
  });
});

describe('renderings', () => {
  const fleet: AgentFleetData = {
    target: '1.2.0',
    rollout: {
      targetVersion: '1.2.0',
      phase: 'held',
      canary: ['CAB-1'],
      percent: 25,
      allowDowngrade: false,
      note: '',
      holdReason: 'crash loop',
      heldAt: null,
      setAt: '',
      updatedAt: '',
    },
    total: 3,
    eligible: 2,
    onTarget: 1,
    pinned: 1,
    deferring: 1,
    blocked: 1,
    noArtifact: 0,
    byArch: { x64: 1, arm64: 1, unreported: 1 },
    byVersion: { '1.10.0': 1, '1.9.0': 1, unreported: 1 },
    page: 1,
    size: 100,
    machines: [
      {
        machineNo: 'CAB-1',
        agentVersion: '1.2.0',
        arch: 'x64',
        lastSeen: null,
        pin: null,
        target: '1.2.0',
        inCohort: true,
        offerVersion: null,
        isFinalStep: null,
        offerReason: 'on-target',
        deferring: null,
        blocked: null,
      },
      {
        machineNo: 'CAB-22',
        agentVersion: '1.0.0',
        arch: 'arm64',
        lastSeen: null,
        pin: { version: '1.1.0', reason: 'site test', pinnedAt: '2026-11-20T11:00:00.000+0000', pinnedBy: null },
        target: '1.1.0',
        inCohort: false,
        offerVersion: '1.1.0',
        isFinalStep: true,
        offerReason: 'upgrade',
        deferring: {
          version: '1.1.0',
          count: 3,
          seconds: 90,
          reason: 'vend in progress',
          reportedAt: '2026-11-20T12:01:30.000+0000',
          firstReportedAt: '2026-11-20T12:00:00.000+0000',
        },
        blocked: null,
      },
      {
        machineNo: 'CAB-333',
        agentVersion: null,
        arch: null,
        lastSeen: null,
        pin: null,
        target: '1.2.0',
        inCohort: true,
        offerVersion: '1.2.0',
        isFinalStep: true,
        offerReason: 'first-install',
        deferring: null,
        blocked: { version: '1.2.0', minFrom: '1.1.0', count: 1, seconds: 0, firstReportedAt: '2026-11-20T12:00:00.000+0000' },
      },
    ],
  };

  it('the fleet table: summary, versions in numeric order, one aligned row per machine with its state', () => {
    const text = renderFleet(fleet);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('rollout 1.2.0 held — canary CAB-1 + 25% of the rest; held: crash loop');
    expect(lines[1]).toBe('target 1.2.0  total 3  eligible 2  on target 1  pinned 1  deferring 1  blocked 1  no artifact 0');
    expect(lines[2]).toBe('versions: 1.9.0: 1, 1.10.0: 1, unreported: 1');
    expect(lines[3]).toBe('architectures: arm64: 1, unreported: 1, x64: 1');
    expect(lines[5]).toBe('MACHINE  VERSION  ARCH   PIN    COHORT  STATE');
    expect(lines[6]).toBe('CAB-1    1.2.0    x64    -      yes     on-target');
    expect(lines[7]).toBe('CAB-22   1.0.0    arm64  1.1.0  no      deferring 1.1.0 ×3 (vend in progress) since 2026-11-20T12:00:00.000+0000');
    expect(lines[8]).toBe('CAB-333  -        -      -      yes     blocked on 1.2.0 (needs 1.1.0) since 2026-11-20T12:00:00.000+0000');
  });

  it('describes no rollout and a rollback', () => {
    expect(describeRollout(null)).toBe('no rollout');
    expect(describeRollout({ ...fleet.rollout!, phase: 'rolling', canary: [], percent: 100, allowDowngrade: true, note: 'roll back' })).toBe(
      'rollout 1.2.0 rolling — 100% of the rest; downgrades allowed; note: roll back',
    );
  });
});

describe('progress bars', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function sink() {
    const s = new PassThrough();
    let text = '';
    s.on('data', (d: Buffer) => (text += d.toString()));
    return { s, text: () => text };
  }

  it('stay silent when stderr is not a terminal', async () => {
    const { s, text } = sink();
    const p = terminalProgress(s);
    const bar = p.bytes('uploading', 10);
    bar.tick(10);
    bar.done();
    await p.wait('publishing', Promise.resolve(1), 30);
    expect(text()).toBe('');
  });

  it('show bytes of an upload', () => {
    const { s, text } = sink();
    const bar = terminalProgress(s, { force: true }).bytes('uploading', 2048);
    bar.tick(1024);
    bar.tick(1024);
    bar.done();
    expect(text()).toMatch(/uploading \[.*\] 100% \| 2\.0 KiB of 2\.0 KiB/);
  });

  it('show a wait only once it has lasted a second', async () => {
    vi.useFakeTimers();
    const { s, text } = sink();
    const p = terminalProgress(s, { force: true });
    await p.wait('quick', Promise.resolve('x'), 30);
    let finish: (v: string) => void = () => {};
    const slow = p.wait('publishing', new Promise<string>((r) => (finish = r)), 30);
    await vi.advanceTimersByTimeAsync(3200);
    finish('done');
    expect(await slow).toBe('done');
    expect(text()).not.toContain('quick');
    expect(text()).toMatch(/publishing \[.*\] \ds of at most 30s/);
  });
});
