import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cohortBucket, decide, decideOffer, inCohort, type OfferInput, type OfferReason, type OfferableRelease, type RolloutPolicy } from './offer.ts';

/** Registry factory: a release per spec, sequence in the order given. */
function registry(...specs: (string | { v: string; migration?: boolean; minFrom?: string })[]): OfferableRelease[] {
  return specs.map((s, i) => {
    const spec = typeof s === 'string' ? { v: s } : s;
    const sha256 = String(i % 10).repeat(64);
    const url = `https://artifacts.vend.test/agent/${spec.v}.tar.gz`;
    return {
      version: spec.v,
      sha256,
      size: 1000 + i,
      url,
      artifacts: [{ arch: 'x64', sha256, size: 1000 + i, url }],
      migration: spec.migration ?? false,
      minFrom: spec.minFrom ?? null,
      signature: `${'A'.repeat(86)}==`,
      signatureAlg: 'ed25519',
      sequence: i + 1,
    };
  });
}

const everyone = (targetVersion: string, more: Partial<RolloutPolicy> = {}): RolloutPolicy => ({
  targetVersion,
  phase: 'rolling',
  canary: [],
  percent: 100,
  allowDowngrade: false,
  ...more,
});

const releases = registry('1.0.0', '1.1.0', { v: '1.5.0', migration: true }, '1.6.0', { v: '2.0.0', migration: true }, '2.1.0', '2.2.0');

interface Row {
  name: string;
  input: Partial<OfferInput>;
  offer: string | null;
  final?: boolean;
  reason: OfferReason;
  allowDowngrade?: boolean;
}

const M = 'CAB-0001';

const rows: Row[] = [
  { name: 'no rollout, no pin: nothing', input: { running: '1.0.0', rollout: null }, offer: null, reason: 'no-rollout' },
  { name: 'published but no rollout names it: nothing', input: { running: '2.1.0', rollout: null }, offer: null, reason: 'no-rollout' },
  { name: 'plain upgrade inside the cohort', input: { running: '2.1.0', rollout: everyone('2.2.0') }, offer: '2.2.0', final: true, reason: 'upgrade' },
  { name: 'on target: nothing', input: { running: '2.2.0', rollout: everyone('2.2.0') }, offer: null, reason: 'on-target' },
  { name: '2.2 and 2.2.0 are the same version', input: { running: '2.2', rollout: everyone('2.2.0') }, offer: null, reason: 'on-target' },
  {
    name: 'never reported a version: the target directly, past every rung',
    input: { running: null, rollout: everyone('2.2.0') },
    offer: '2.2.0',
    final: true,
    reason: 'first-install',
  },
  {
    name: 'ladder: below both rungs climbs to the first',
    input: { running: '1.0.0', rollout: everyone('2.2.0') },
    offer: '1.5.0',
    final: false,
    reason: 'migration-rung',
  },
  {
    name: 'ladder: on the first rung climbs to the second',
    input: { running: '1.5.0', rollout: everyone('2.2.0') },
    offer: '2.0.0',
    final: false,
    reason: 'migration-rung',
  },
  {
    name: 'ladder: between rungs skips the non-migration 1.6.0',
    input: { running: '1.5.1', rollout: everyone('2.2.0') },
    offer: '2.0.0',
    final: false,
    reason: 'migration-rung',
  },
  {
    name: 'ladder: above every rung goes to the target',
    input: { running: '2.0.0', rollout: everyone('2.2.0') },
    offer: '2.2.0',
    final: true,
    reason: 'upgrade',
  },
  {
    name: 'ladder: a rung that is the target is the final step',
    input: { running: '1.6.0', rollout: everyone('2.0.0') },
    offer: '2.0.0',
    final: true,
    reason: 'upgrade',
  },
  {
    name: 'ladder: a rung above the target is never offered',
    input: { running: '1.0.0', rollout: everyone('1.1.0') },
    offer: '1.1.0',
    final: true,
    reason: 'upgrade',
  },
  {
    name: 'newer than the target without allowDowngrade: nothing',
    input: { running: '2.2.0', rollout: everyone('2.1.0') },
    offer: null,
    reason: 'newer-than-target',
  },
  {
    name: 'rollback: a rollout at an older version with allowDowngrade',
    input: { running: '2.2.0', rollout: everyone('2.1.0', { allowDowngrade: true }) },
    offer: '2.1.0',
    final: true,
    reason: 'downgrade',
    allowDowngrade: true,
  },
  {
    name: 'a downgrade goes straight to the target, never down a rung',
    input: { running: '2.2.0', rollout: everyone('1.1.0', { allowDowngrade: true }) },
    offer: '1.1.0',
    final: true,
    reason: 'downgrade',
  },
  { name: 'held: nobody else is offered it', input: { running: '2.1.0', rollout: everyone('2.2.0', { phase: 'held' }) }, offer: null, reason: 'held' },
  {
    name: 'held: an upgraded cabinet keeps the version',
    input: { running: '2.2.0', rollout: everyone('2.2.0', { phase: 'held' }) },
    offer: null,
    reason: 'held',
  },
  {
    name: 'held: not even a rollback is offered',
    input: { running: '2.2.0', rollout: everyone('2.1.0', { phase: 'held', allowDowngrade: true }) },
    offer: null,
    reason: 'held',
  },
  {
    name: 'complete still brings stragglers to the target',
    input: { running: '2.1.0', rollout: everyone('2.2.0', { phase: 'complete' }) },
    offer: '2.2.0',
    reason: 'upgrade',
  },
  {
    name: 'percent 0 and no canary reaches nobody',
    input: { running: '2.1.0', rollout: everyone('2.2.0', { percent: 0 }) },
    offer: null,
    reason: 'not-in-cohort',
  },
  {
    name: 'a canary is in at percent 0',
    input: { running: '2.1.0', rollout: everyone('2.2.0', { percent: 0, canary: [M] }) },
    offer: '2.2.0',
    reason: 'upgrade',
  },
  {
    name: 'pin upward outranks a rollout that does not reach it',
    input: { running: '2.1.0', rollout: everyone('2.2.0', { percent: 0 }), pin: { version: '2.2.0' } },
    offer: '2.2.0',
    reason: 'upgrade',
  },
  {
    name: 'pin downward outranks the rollout without allowDowngrade',
    input: { running: '2.2.0', rollout: everyone('2.2.0'), pin: { version: '2.1.0' } },
    offer: '2.1.0',
    reason: 'downgrade',
    allowDowngrade: true,
  },
  {
    name: 'pin holds a cabinet back while the fleet moves on',
    input: { running: '2.1.0', rollout: everyone('2.2.0'), pin: { version: '2.1.0' } },
    offer: null,
    reason: 'on-target',
  },
  { name: 'pin works with no rollout at all', input: { running: '2.1.0', rollout: null, pin: { version: '2.2.0' } }, offer: '2.2.0', reason: 'upgrade' },
  {
    name: 'pin works while the rollout is held',
    input: { running: '2.1.0', rollout: everyone('2.2.0', { phase: 'held' }), pin: { version: '2.2.0' } },
    offer: '2.2.0',
    reason: 'upgrade',
  },
  {
    name: 'a pin upward still climbs the ladder',
    input: { running: '1.0.0', rollout: null, pin: { version: '2.2.0' } },
    offer: '1.5.0',
    final: false,
    reason: 'migration-rung',
  },
  {
    name: 'a version that is not dotted-numeric is told nothing',
    input: { running: '2.1.0-dev', rollout: everyone('2.2.0') },
    offer: null,
    reason: 'unreadable-version',
  },
  {
    name: 'a target missing from the registry is never offered',
    input: { running: '2.1.0', rollout: everyone('9.9.9') },
    offer: null,
    reason: 'target-unpublished',
  },
];

describe('decideOffer (table)', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
    const input: OfferInput = { running: null, arch: null, machineCode: M, releases, rollout: null, pin: null, ...row.input };
    const d = decide(input);
    expect(d.reason).toBe(row.reason);
    expect(d.offer?.version ?? null).toBe(row.offer);
    expect(decideOffer(input)).toEqual(d.offer);
    if (row.final !== undefined) expect(d.offer?.isFinalStep).toBe(row.final);
    if (row.allowDowngrade !== undefined) expect(d.offer?.allowDowngrade).toBe(row.allowDowngrade);
  });

  it('an offer carries the signed release, its signature, sequence and the target', () => {
    const offer = decideOffer({ running: '1.0.0', arch: null, machineCode: M, releases, rollout: everyone('2.2.0'), pin: null })!;
    const rung = releases.find((r) => r.version === '1.5.0')!;
    const { artifacts: _one, ...signed } = rung;
    expect(offer).toEqual({ ...signed, arch: 'x64', target: '2.2.0', isFinalStep: false, allowDowngrade: false });
  });
});

describe('signed floors (minFrom)', () => {
  const floored = registry('1.0.0', '1.4.0', { v: '1.5.0', minFrom: '1.2.0' }, { v: '2.0.0', minFrom: '1.5.0' });

  it('climbs through published releases at or above each floor, then reaches the target', () => {
    const at = (running: string) => decide({ running, arch: null, machineCode: M, releases: floored, rollout: everyone('2.0.0'), pin: null });
    // 2.0.0 needs 1.5.0; 1.5.0 needs 1.2.0; from 1.0.0 the chain starts at 1.4.0
    expect(at('1.0.0')).toMatchObject({ reason: 'stepping-stone', offer: { version: '1.4.0', isFinalStep: false, target: '2.0.0' } });
    expect(at('1.4.0')).toMatchObject({ reason: 'stepping-stone', offer: { version: '1.5.0', isFinalStep: false } });
    expect(at('1.5.0')).toMatchObject({ reason: 'upgrade', offer: { version: '2.0.0', isFinalStep: true } });
  });

  it('prefers the highest stepping stone the cabinet can install directly', () => {
    const stones = registry('1.0.0', { v: '1.6.0', minFrom: '1.0.0' }, { v: '1.7.0', minFrom: '1.2.0' }, { v: '2.0.0', minFrom: '1.5.0' });
    expect(decide({ running: '1.1.0', arch: null, machineCode: M, releases: stones, rollout: everyone('2.0.0'), pin: null })).toMatchObject({
      reason: 'stepping-stone',
      offer: { version: '1.6.0' },
    });
    expect(decide({ running: '1.2.0', arch: null, machineCode: M, releases: stones, rollout: everyone('2.0.0'), pin: null })).toMatchObject({
      reason: 'stepping-stone',
      offer: { version: '1.7.0' },
    });
  });

  it('with no release to step through, offers the target anyway: the cabinet checks the floor and reports itself blocked', () => {
    const gap = registry('1.0.0', { v: '2.0.0', minFrom: '1.5.0' });
    expect(decide({ running: '1.0.0', arch: null, machineCode: M, releases: gap, rollout: everyone('2.0.0'), pin: null })).toMatchObject({
      reason: 'below-floor',
      offer: { version: '2.0.0', minFrom: '1.5.0' },
    });
  });

  it('a floor at or below the running version changes nothing', () => {
    expect(decide({ running: '1.5.0', arch: null, machineCode: M, releases: floored, rollout: everyone('2.0.0'), pin: null }).reason).toBe('upgrade');
  });
});

describe('percentage cohorts', () => {
  const codes = Array.from({ length: 1000 }, (_, i) => `CAB-${String(i).padStart(5, '0')}`);

  it('buckets are stable: the same machine and target always land in the same bucket', () => {
    for (const c of codes.slice(0, 50)) expect(cohortBucket(c, '2.2.0')).toBe(cohortBucket(c, '2.2.0'));
    expect(cohortBucket('CAB-00001', '2.2.0')).toBe(cohortBucket('CAB-00001', '2.2.0'));
  });

  it('membership is roughly proportional over 1,000 machine codes', () => {
    for (const percent of [1, 10, 25, 50, 90]) {
      const n = codes.filter((c) => inCohort(c, { targetVersion: '2.2.0', canary: [], percent })).length;
      expect(n, `percent ${percent}`).toBeGreaterThan(percent * 10 - 40);
      expect(n, `percent ${percent}`).toBeLessThan(percent * 10 + 40);
    }
    expect(codes.filter((c) => inCohort(c, { targetVersion: '2.2.0', canary: [], percent: 0 }))).toHaveLength(0);
    expect(codes.filter((c) => inCohort(c, { targetVersion: '2.2.0', canary: [], percent: 100 }))).toHaveLength(1000);
  });

  it('raising the percent only adds machines; nobody already in drops out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        for (const c of codes.slice(0, 200)) {
          if (inCohort(c, { targetVersion: '3.0.0', canary: [], percent: lo }))
            expect(inCohort(c, { targetVersion: '3.0.0', canary: [], percent: hi })).toBe(true);
        }
      }),
      { numRuns: 50 },
    );
  });

  it('a new target draws a fresh sample', () => {
    const a = codes.filter((c) => inCohort(c, { targetVersion: '2.2.0', canary: [], percent: 10 }));
    const b = codes.filter((c) => inCohort(c, { targetVersion: '2.3.0', canary: [], percent: 10 }));
    expect(a).not.toEqual(b);
  });

  it('a cabinet outside the cohort is told nothing; inside, it is offered the target', () => {
    const rollout = everyone('2.2.0', { percent: 30 });
    for (const c of codes.slice(0, 100)) {
      const offer = decideOffer({ running: '2.1.0', arch: null, machineCode: c, releases, rollout, pin: null });
      expect(offer?.version ?? null).toBe(cohortBucket(c, '2.2.0') < 30 ? '2.2.0' : null);
    }
  });
});

describe('the decision never throws and never offers an unpublished version', () => {
  it('over random registries, rollouts, pins and running versions', () => {
    const version = fc.array(fc.nat({ max: 4 }), { minLength: 1, maxLength: 3 }).map((a) => a.join('.'));
    const release = fc.record({ v: version, migration: fc.boolean(), minFrom: fc.option(version, { nil: undefined }) });
    fc.assert(
      fc.property(
        fc.uniqueArray(release, { selector: (r) => r.v.replace(/(\.0)+$/, ''), maxLength: 8 }),
        fc.option(version, { nil: null }),
        fc.option(
          fc.record({
            targetVersion: version,
            phase: fc.constantFrom('rolling', 'held', 'complete' as const),
            percent: fc.integer({ min: 0, max: 100 }),
            allowDowngrade: fc.boolean(),
          }),
          {
            nil: null,
          },
        ),
        fc.option(version, { nil: null }),
        (specs, running, rollout, pinVersion) => {
          const regs = registry(...specs.map((s) => (s.minFrom ? { v: s.v, migration: s.migration, minFrom: s.minFrom } : { v: s.v, migration: s.migration })));
          const d = decide({
            running,
            arch: null,
            machineCode: M,
            releases: regs,
            rollout: rollout ? { ...rollout, canary: [] } : null,
            pin: pinVersion ? { version: pinVersion } : null,
          });
          if (d.offer) {
            expect(regs.some((r) => r.version === d.offer!.version)).toBe(true);
            expect(regs.some((r) => r.version === d.offer!.target)).toBe(true);
            if (running !== null && d.reason !== 'downgrade') expect(d.offer.version).not.toBe(running);
          }
        },
      ),
    );
  });
});

describe("the artifact for the cabinet's architecture", () => {
  const art = (arch: 'x64' | 'arm64', v: string) => ({
    arch,
    sha256: (arch === 'x64' ? 'a' : 'b').repeat(64),
    size: arch.length * 100,
    url: `https://artifacts.vend.test/agent/${v}-${arch}.tar.gz`,
  });
  const withArches = (v: string, arches: ('x64' | 'arm64')[], more: Partial<OfferableRelease> = {}): OfferableRelease => {
    const artifacts = arches.map((a) => art(a, v));
    return { ...registry(v)[0]!, sha256: artifacts[0]!.sha256, size: artifacts[0]!.size, url: artifacts[0]!.url, artifacts, ...more };
  };
  const input = (rels: OfferableRelease[], arch: string | null, running: string | null = '1.0.0'): OfferInput => ({
    running,
    arch,
    machineCode: M,
    releases: rels,
    rollout: everyone(rels[rels.length - 1]!.version),
    pin: null,
  });

  it('offers each architecture its own artifact, with the whole signed list', () => {
    const rels = [withArches('1.0.0', ['x64']), withArches('2.0.0', ['x64', 'arm64'])];
    for (const arch of ['x64', 'arm64'] as const) {
      const d = decide(input(rels, arch));
      expect(d.reason).toBe('upgrade');
      expect(d.offer).toMatchObject({ version: '2.0.0', arch, sha256: art(arch, '2.0.0').sha256, size: art(arch, '2.0.0').size, url: art(arch, '2.0.0').url });
      expect(d.offer?.artifacts).toEqual([art('x64', '2.0.0'), art('arm64', '2.0.0')]);
    }
  });

  it('offers nothing to an architecture the release has no artifact for, whatever the step (never another binary)', () => {
    const rels = [withArches('1.0.0', ['x64']), withArches('1.5.0', ['x64'], { migration: true }), withArches('2.0.0', ['x64', 'arm64'])];
    expect(decide(input(rels, 'arm64'))).toMatchObject({ offer: null, reason: 'no-artifact-for-arch', target: '2.0.0' });
    expect(decide(input(rels, 'riscv64'))).toMatchObject({ offer: null, reason: 'no-artifact-for-arch' });
    expect(decide(input(rels, 'arm64', null))).toMatchObject({ offer: { version: '2.0.0', arch: 'arm64' }, reason: 'first-install' });
    expect(decide(input([withArches('2.0.0', ['arm64'])], 'x64', null))).toMatchObject({ offer: null, reason: 'no-artifact-for-arch' });
  });

  it('offers a cabinet that reports no architecture only a single-artifact x64 release (what its agent can verify)', () => {
    expect(decide(input([withArches('2.0.0', ['x64'])], null))).toMatchObject({ offer: { version: '2.0.0', arch: 'x64' }, reason: 'upgrade' });
    expect(decide(input([withArches('2.0.0', ['x64'])], null)).offer).not.toHaveProperty('artifacts');
    expect(decide(input([withArches('2.0.0', ['x64', 'arm64'])], null))).toMatchObject({ offer: null, reason: 'arch-unknown' });
  });

  it('never offers an artifact of another architecture, over random registries', () => {
    const arches = fc.subarray(['x64', 'arm64'] as ('x64' | 'arm64')[], { minLength: 1 });
    fc.assert(
      fc.property(fc.array(arches, { minLength: 1, maxLength: 5 }), fc.constantFrom('x64', 'arm64', 'arm', null), (sets, arch) => {
        const rels = sets.map((a, i) => withArches(`${i + 1}.0.0`, a));
        const d = decide(input(rels, arch, null));
        const target = rels[rels.length - 1]!;
        if (d.offer) {
          expect(d.offer.arch).toBe(arch ?? 'x64');
          expect(target.artifacts.find((a) => a.arch === d.offer!.arch)).toMatchObject({ sha256: d.offer.sha256, size: d.offer.size, url: d.offer.url });
        } else {
          expect(['no-artifact-for-arch', 'arch-unknown']).toContain(d.reason);
        }
      }),
    );
  });
});
