import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { encodeBase64, parseReleaseSecretKey, signRelease } from '@vend/protocol';
import type { SignedReleaseFields, UpgradeOffer } from '@vend/protocol';
import { notQuietReason, preflight } from './preflight.ts';
import type { PreflightContext, QuietState } from './preflight.ts';

// Spec 2 §4.4 steps 1–7, in order: each step refuses on its own, and an earlier step wins.

const keys = parseReleaseSecretKey('3RZyHJFkF0CiteVWobavUM5rkSGaPZU6smwNhkXYHOA=')!;
const other = parseReleaseSecretKey('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')!;
const PREFIX = 'https://artifacts.example.com/agent/';
const QUIET: QuietState = { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 600 };

function offer(fields: Partial<SignedReleaseFields> = {}, policy: Partial<UpgradeOffer> = {}, secretKey = keys.secretKey): UpgradeOffer {
  const f: SignedReleaseFields = {
    version: '1.0.1',
    sha256: 'ab'.repeat(32),
    size: 1234,
    url: `${PREFIX}vend-agent-1.0.1-linux-x64.tar.gz`,
    migration: false,
    minFrom: null,
    ...fields,
  };
  const m = signRelease(f, secretKey);
  return { ...m, minFrom: m.minFrom ?? null, sequence: 1, target: f.version, isFinalStep: true, allowDowngrade: false, ...policy };
}

function ctx(c: Partial<PreflightContext> = {}): PreflightContext {
  return { running: '1.0.0', arch: 'x64', publicKey: keys.publicKey, artifactPrefix: PREFIX, floor: '1.0.0', bad: [], quiet: QUIET, quietSeconds: 180, ...c };
}

/** An offer of a release with an artifact per architecture, carrying `pick`'s artifact at the top level. */
function multiOffer(pick: 'x64' | 'arm64', arches: ('x64' | 'arm64')[] = ['x64', 'arm64'], version = '1.0.1'): UpgradeOffer {
  const artifacts = arches.map((arch) => ({
    arch,
    sha256: (arch === 'x64' ? 'ab' : 'cd').repeat(32),
    size: arch === 'x64' ? 1234 : 2345,
    url: `${PREFIX}vend-agent-${version}-linux-${arch}.tar.gz`,
  }));
  const m = signRelease({ version, artifacts, migration: false, minFrom: null }, keys.secretKey);
  const top = artifacts.find((a) => a.arch === pick) ?? artifacts[0]!;
  return { ...m, ...top, minFrom: null, sequence: 1, target: version, isFinalStep: true, allowDowngrade: false };
}

describe('preflight: the artifact for this architecture (defence in depth)', () => {
  it('proceeds with the signed artifact of its own architecture', () => {
    expect(preflight(multiOffer('arm64'), ctx({ arch: 'arm64' }))).toMatchObject({ kind: 'proceed', offer: { arch: 'arm64', size: 2345 } });
    expect(preflight(multiOffer('x64'), ctx({ arch: 'x64' }))).toMatchObject({ kind: 'proceed', offer: { arch: 'x64', size: 1234 } });
  });

  it("refuses another architecture's artifact even though it is validly signed, before anything is downloaded", () => {
    expect(preflight(multiOffer('x64'), ctx({ arch: 'arm64' }))).toMatchObject({ kind: 'refused', step: 4, code: 'wrong-arch' });
    // the top level relabelled as arm64 but still the x64 bytes: the signed arm64 artifact is another one
    expect(preflight({ ...multiOffer('x64'), arch: 'arm64' }, ctx({ arch: 'arm64' }))).toMatchObject({ code: 'wrong-arch' });
    // a release with no artifact for this architecture at all
    expect(preflight(multiOffer('x64', ['x64']), ctx({ arch: 'arm64' }))).toMatchObject({
      code: 'wrong-arch',
      reason: expect.stringMatching(/no artifact for .* arm64 \(it ships x64\)/),
    });
    expect(preflight(multiOffer('arm64', ['arm64']), ctx({ arch: 'x64' }))).toMatchObject({ code: 'wrong-arch' });
  });

  it('reads a single-artifact offer (no arch, from an older cloud) as x64: an arm64 agent refuses it', () => {
    expect(preflight(offer(), ctx({ arch: 'x64' }))).toMatchObject({ kind: 'proceed' });
    expect(preflight(offer(), ctx({ arch: 'arm64' }))).toMatchObject({ kind: 'refused', step: 4, code: 'wrong-arch' });
  });
});

describe('preflight (spec 2 §4.4 steps 1-7)', () => {
  it('proceeds with a good offer on a quiet cabinet', () => {
    expect(preflight(offer(), ctx())).toMatchObject({ kind: 'proceed', offer: { version: '1.0.1' } });
  });

  it('1: refuses a malformed offer (missing url, bad digest, not an object)', () => {
    const { url: _url, ...noUrl } = offer();
    expect(preflight(noUrl, ctx())).toMatchObject({ kind: 'refused', step: 1, code: 'bad-offer', version: '1.0.1' });
    expect(preflight({ ...offer(), sha256: 'AB'.repeat(32) }, ctx())).toMatchObject({ step: 1, code: 'bad-offer' });
    expect(preflight('1.0.1', ctx())).toMatchObject({ step: 1, code: 'bad-offer', version: null });
  });

  it('2: refuses http, a URL outside the prefix, a look-alike host, and everything without a valid prefix', () => {
    // http cannot even be signed as a release URL: an offer carrying one fails its shape
    expect(preflight({ ...offer(), url: 'http://artifacts.example.com/agent/a.tar.gz' }, ctx())).toMatchObject({ step: 1, code: 'bad-offer' });
    expect(preflight(offer({ url: 'https://artifacts.example.com/other/a.tar.gz' }), ctx())).toMatchObject({ step: 2, code: 'untrusted-url' });
    expect(preflight(offer({ url: 'https://artifacts.example.com/agentx/a.tar.gz' }), ctx())).toMatchObject({ step: 2 });
    expect(preflight(offer({ url: 'https://artifacts.example.com.evil.test/agent/a.tar.gz' }), ctx())).toMatchObject({ step: 2 });
    expect(preflight(offer(), ctx({ artifactPrefix: null }))).toMatchObject({ step: 2, code: 'untrusted-url' });
    expect(preflight(offer(), ctx({ artifactPrefix: 'https://artifacts.example.com/agent' }))).toMatchObject({ step: 2 }); // no trailing slash
  });

  it('3: with no signing key installed nothing is ever installed', () => {
    expect(preflight(offer(), ctx({ publicKey: null }))).toMatchObject({ kind: 'refused', step: 3, code: 'no-signing-key' });
  });

  it('4: refuses a signature by another key, and any signed field changed after signing', () => {
    expect(preflight(offer({}, {}, other.secretKey), ctx())).toMatchObject({ step: 4, code: 'bad-signature' });
    const o = offer();
    for (const tampered of [
      { size: o.size + 1 },
      { sha256: 'cd'.repeat(32) },
      { version: '1.0.2' },
      { minFrom: '0.9.0' },
      { migration: true },
      { url: `${PREFIX}other.tar.gz` },
    ]) {
      expect(preflight({ ...o, ...tampered }, ctx())).toMatchObject({ kind: 'refused', step: 4 });
    }
    // the unsigned policy fields do not break the signature
    expect(preflight({ ...o, sequence: 9, target: '2.0.0', isFinalStep: false }, ctx())).toMatchObject({ kind: 'proceed' });
  });

  it('says "current" for the running version (1.0 is 1.0.0)', () => {
    expect(preflight(offer({ version: '1.0' }), ctx({ running: '1.0.0' }))).toMatchObject({ kind: 'current' });
  });

  it('5: blocked when the signed floor is above the running version, compared numerically', () => {
    expect(preflight(offer({ version: '1.10.0', minFrom: '1.9.0' }), ctx({ running: '1.8.5' }))).toMatchObject({
      kind: 'blocked',
      version: '1.10.0',
      minFrom: '1.9.0',
    });
    expect(preflight(offer({ version: '1.10.0', minFrom: '1.9.0' }), ctx({ running: '1.9.0' }))).toMatchObject({ kind: 'proceed' });
    expect(preflight(offer({ version: '1.10.0', minFrom: '1.9.0' }), ctx({ running: '1.10.0' }))).toMatchObject({ kind: 'current' });
  });

  it('5: blocked when the boot guard reverted this version here', () => {
    const bad = [{ version: '1.0.1', sha256: 'ab'.repeat(32), reason: 'did not reach the cloud', at: 0 }];
    expect(preflight(offer(), ctx({ bad }))).toMatchObject({ kind: 'blocked', version: '1.0.1', minFrom: '1.0.1' });
  });

  it('6: no downgrade without allowDowngrade, and never below the floor either', () => {
    expect(preflight(offer({ version: '0.9.0' }), ctx())).toMatchObject({ kind: 'refused', step: 6, code: 'downgrade' });
    expect(preflight(offer({ version: '0.9.0' }, { allowDowngrade: true }), ctx())).toMatchObject({ kind: 'proceed' });
    // the floor holds even when the running version went back (a hand-restored tree)
    expect(preflight(offer({ version: '1.0.1' }), ctx({ running: '0.9.0', floor: '1.2.0' }))).toMatchObject({ step: 6, code: 'below-floor' });
    expect(preflight(offer({ version: '1.0.1' }, { allowDowngrade: true }), ctx({ running: '0.9.0', floor: '1.2.0' }))).toMatchObject({ kind: 'proceed' });
  });

  it('7: deferred while the cabinet is busy, naming every reason', () => {
    const busy = preflight(offer(), ctx({ quiet: { vendLockFree: false, leased: 2, spoolDepth: 1, secondsSinceActivity: 42 } }));
    expect(busy).toEqual({
      kind: 'deferred',
      version: '1.0.1',
      reason: 'a vend holds the VMC lock; 2 remote dispense commands leased; 1 report waiting in the spool; last activity 42 s ago (quiet after 180 s)',
    });
    expect(preflight(offer(), ctx({ quiet: { ...QUIET, secondsSinceActivity: 179 } }))).toMatchObject({ kind: 'deferred' });
    expect(preflight(offer(), ctx({ quiet: { ...QUIET, secondsSinceActivity: 180 } }))).toMatchObject({ kind: 'proceed' });
  });

  it('an earlier step decides: a busy cabinet with a bad signature is refused, not deferred', () => {
    const busy = { ...QUIET, vendLockFree: false };
    expect(preflight(offer({}, {}, other.secretKey), ctx({ quiet: busy }))).toMatchObject({ kind: 'refused', step: 4 });
    expect(preflight(offer({ version: '0.9.0' }), ctx({ quiet: busy }))).toMatchObject({ kind: 'refused', step: 6 });
    expect(preflight(offer({ minFrom: '1.0.0' }), ctx({ quiet: busy, publicKey: null }))).toMatchObject({ kind: 'refused', step: 3 });
  });

  it('never throws on arbitrary input, and proceeds only on a verified signature', () => {
    const good = offer();
    fc.assert(
      fc.property(fc.anything(), fc.record({ signature: fc.uint8Array({ minLength: 64, maxLength: 64 }) }), (junk, s) => {
        const a = preflight(junk, ctx());
        expect(a.kind).toBe('refused');
        const b = preflight({ ...good, signature: encodeBase64(s.signature) }, ctx());
        expect(b.kind === 'proceed').toBe(encodeBase64(s.signature) === good.signature);
      }),
      { numRuns: 200 },
    );
  });

  it('notQuietReason is null exactly when quiet', () => {
    expect(notQuietReason(QUIET, 180)).toBeNull();
    expect(notQuietReason({ ...QUIET, secondsSinceActivity: Number.NaN }, 180)).toMatch(/last activity/);
  });
});
