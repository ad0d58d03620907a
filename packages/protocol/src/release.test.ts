import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import nacl from 'tweetnacl';
import {
  RELEASE_SIGNED_FIELDS,
  ReleaseManifest,
  artifactForArch,
  releaseArtifacts,
  type MultiArchReleaseFields,
  SignedReleaseFields,
  UpgradeOffer,
  canonicalReleaseBytes,
  canonicalReleaseText,
  canonicalSignedBytes,
  decodeBase64Canonical,
  encodeBase64,
  isCanonicalHttpsUrl,
  isTrustedArtifactUrl,
  isValidArtifactPrefix,
  parseReleasePublicKey,
  parseReleaseSecretKey,
  sameSignedBytes,
  signRelease,
  verifyReleaseSignature,
  type SignedReleaseFields as Fields,
} from './release.ts';
import { EXAMPLE_FIELDS, renderMultiArchExample, renderSigningExample, signingExample } from './release.example.ts';

const pair = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(42));
const other = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(43));
const base: Fields = {
  version: '2.1.0',
  sha256: 'a'.repeat(64),
  size: 1234,
  url: 'https://artifacts.vend.test/agent/vend-agent-2.1.0.tar.gz',
  migration: false,
  minFrom: '1.0.0',
};

describe('canonical signed bytes', () => {
  it('are the domain line then every signed field in order as key=value lines', () => {
    expect(canonicalReleaseText(base)).toBe(
      'vend-release-v1\nversion=2.1.0\nsha256=' +
        'a'.repeat(64) +
        '\nsize=1234\nurl=https://artifacts.vend.test/agent/vend-agent-2.1.0.tar.gz\nmigration=false\nminFrom=1.0.0\n',
    );
  });

  it('write an absent floor as the bare key, the same whether minFrom is missing or null', () => {
    const { minFrom: _drop, ...noFloor } = base;
    expect(canonicalReleaseText(noFloor)).toMatch(/\nmigration=false\nminFrom\n$/);
    expect(canonicalReleaseText({ ...base, minFrom: null })).toBe(canonicalReleaseText(noFloor));
  });

  it('change when any signed field changes', () => {
    const variants: Fields[] = [
      { ...base, version: '2.1.1' },
      { ...base, sha256: 'b'.repeat(64) },
      { ...base, size: 1235 },
      { ...base, url: base.url + 'x' },
      { ...base, migration: true },
      { ...base, minFrom: '1.0.1' },
      { ...base, minFrom: null },
    ];
    const all = new Set([canonicalReleaseText(base), ...variants.map(canonicalReleaseText)]);
    expect(all.size).toBe(variants.length + 1);
  });

  it('list exactly the fields of the signed schema (a new signed field must join the list)', () => {
    expect([...RELEASE_SIGNED_FIELDS].sort()).toEqual(Object.keys(SignedReleaseFields.shape).sort());
  });

  it('change when a signed field is added, even while the new field is absent, so old signatures stop verifying', () => {
    const values = { ...base, minFrom: base.minFrom ?? null };
    const today = canonicalSignedBytes(values, RELEASE_SIGNED_FIELDS);
    expect(Buffer.from(today).equals(Buffer.from(canonicalReleaseBytes(base)))).toBe(true);
    const withChannelAbsent = canonicalSignedBytes(values, [...RELEASE_SIGNED_FIELDS, 'channel']);
    const withChannel = canonicalSignedBytes({ ...values, channel: 'stable' }, [...RELEASE_SIGNED_FIELDS, 'channel']);
    expect(Buffer.from(withChannelAbsent).equals(Buffer.from(today))).toBe(false);
    expect(Buffer.from(withChannel).equals(Buffer.from(withChannelAbsent))).toBe(false);
    const oldSignature = nacl.sign.detached(today, pair.secretKey);
    expect(nacl.sign.detached.verify(today, oldSignature, pair.publicKey)).toBe(true);
    expect(nacl.sign.detached.verify(withChannelAbsent, oldSignature, pair.publicKey)).toBe(false);
  });

  it('refuse values with no canonical form instead of writing something ambiguous', () => {
    expect(() => canonicalSignedBytes({ a: 'x\ny' }, ['a'])).toThrow(RangeError);
    expect(() => canonicalSignedBytes({ a: 1.5 }, ['a'])).toThrow(RangeError);
    expect(() => canonicalSignedBytes({ a: -1 }, ['a'])).toThrow(RangeError);
    expect(() => canonicalSignedBytes({}, ['a', 'a'])).toThrow(RangeError);
    expect(() => canonicalSignedBytes({}, ['a=b'])).toThrow(RangeError);
  });

  it('are injective over random releases: different fields never share bytes', () => {
    const version = fc.array(fc.nat({ max: 99 }), { minLength: 1, maxLength: 4 }).map((a) => a.join('.'));
    const release = fc.record({
      version,
      sha256: fc.stringMatching(/^[0-9a-f]{64}$/),
      size: fc.integer({ min: 1, max: 1e9 }),
      url: fc.stringMatching(/^[a-z0-9]{1,12}$/).map((s) => `https://artifacts.vend.test/agent/${s}`),
      migration: fc.boolean(),
      minFrom: fc.option(version, { nil: null }),
    });
    fc.assert(
      fc.property(release, release, (a, b) => {
        const same = JSON.stringify(a) === JSON.stringify(b);
        expect(canonicalReleaseText(a) === canonicalReleaseText(b)).toBe(same);
      }),
    );
  });
});

describe('signing and verifying a release', () => {
  const manifest = signRelease(base, pair.secretKey);

  it('writes a manifest that parses and verifies under the signing key only', () => {
    expect(ReleaseManifest.parse(manifest)).toEqual(manifest);
    expect(manifest.signatureAlg).toBe('ed25519');
    expect(verifyReleaseSignature(manifest, pair.publicKey)).toBe(true);
    expect(verifyReleaseSignature(manifest, other.publicKey)).toBe(false);
  });

  it('fails verification when any signed field is changed after signing (mix-and-match)', () => {
    for (const change of [
      { version: '2.1.1' },
      { sha256: 'b'.repeat(64) },
      { size: 1 },
      { url: 'https://artifacts.vend.test/agent/other.tar.gz' },
      { migration: true },
      { minFrom: '0.9.0' },
      { minFrom: null },
    ]) {
      expect(verifyReleaseSignature({ ...manifest, ...change }, pair.publicKey)).toBe(false);
    }
  });

  it('ignores unsigned fields: sequence and cloud policy never change the verdict', () => {
    expect(verifyReleaseSignature({ ...manifest, sequence: 7, allowDowngrade: true, target: '9.9.9', isFinalStep: false } as never, pair.publicKey)).toBe(true);
  });

  it('refuses another algorithm name, a non-canonical signature encoding and malformed fields without throwing', () => {
    expect(verifyReleaseSignature({ ...manifest, signatureAlg: 'ed448' }, pair.publicKey)).toBe(false);
    const sig = decodeBase64Canonical(manifest.signature)!;
    const hexSig = Buffer.from(sig).toString('hex');
    expect(verifyReleaseSignature({ ...manifest, signature: hexSig }, pair.publicKey)).toBe(false);
    expect(verifyReleaseSignature({ ...manifest, size: -1 }, pair.publicKey)).toBe(false);
    expect(verifyReleaseSignature({ ...manifest, version: 'v2' }, pair.publicKey)).toBe(false);
    expect(verifyReleaseSignature({} as never, pair.publicKey)).toBe(false);
    expect(verifyReleaseSignature(manifest, new Uint8Array(3))).toBe(false);
  });

  it('treats two manifests as the same bytes exactly when their signed fields agree', () => {
    expect(sameSignedBytes(base, { ...base })).toBe(true);
    expect(sameSignedBytes(base, { ...base, minFrom: null })).toBe(false);
    expect(sameSignedBytes({ ...base, minFrom: null }, { ...base, minFrom: undefined })).toBe(true);
  });
});

describe('manifest and offer schemas', () => {
  const manifest = signRelease(base, pair.secretKey);

  it('refuse cloud-policy fields and unknown fields in a manifest', () => {
    for (const extra of [{ allowDowngrade: true }, { target: '2.1.0' }, { isFinalStep: true }, { reason: 'x' }, { channel: 'beta' }]) {
      expect(ReleaseManifest.safeParse({ ...manifest, ...extra }).success).toBe(false);
    }
    expect(ReleaseManifest.safeParse({ ...manifest, sequence: 3 }).success).toBe(true);
  });

  it('hold every field rule', () => {
    const bad: Record<string, unknown>[] = [
      { version: '1.0.0-beta' },
      { version: '01.0' },
      { sha256: 'A'.repeat(64) },
      { sha256: 'a'.repeat(63) },
      { size: 0 },
      { size: 1.5 },
      { url: 'http://artifacts.vend.test/agent/x.tar.gz' },
      { url: 'https://artifacts.vend.test/agent/../x.tar.gz' },
      { url: 'https://user:pw@artifacts.vend.test/agent/x.tar.gz' },
      { migration: 'false' },
      { minFrom: 'latest' },
      { signature: 'AAAA' },
      { signatureAlg: 'ED25519' },
    ];
    for (const b of bad) expect(ReleaseManifest.safeParse({ ...manifest, ...b }).success, JSON.stringify(b)).toBe(false);
  });

  it('describe an offer as the signed release plus target, isFinalStep and allowDowngrade', () => {
    const offer = { ...manifest, minFrom: manifest.minFrom ?? null, sequence: 4, target: '3.0.0', isFinalStep: false, allowDowngrade: false };
    expect(UpgradeOffer.parse(offer)).toEqual(offer);
    expect(verifyReleaseSignature(offer, pair.publicKey)).toBe(true);
    expect(UpgradeOffer.safeParse({ ...offer, isFinalStep: undefined }).success).toBe(false);
  });
});

describe('artifacts per architecture', () => {
  const x64 = { arch: 'x64' as const, sha256: base.sha256, size: base.size, url: base.url };
  const arm64 = { arch: 'arm64' as const, sha256: 'b'.repeat(64), size: 987, url: 'https://artifacts.vend.test/agent/vend-agent-2.1.0-linux-arm64.tar.gz' };
  const multi: MultiArchReleaseFields = { version: base.version, artifacts: [arm64, x64], migration: false, minFrom: '1.0.0' };

  it('a release whose one artifact is for x64 signs the single-artifact bytes exactly, whichever shape carries it', () => {
    const shaped: MultiArchReleaseFields = { version: base.version, artifacts: [x64], migration: base.migration, minFrom: base.minFrom ?? null };
    expect(canonicalReleaseText(shaped)).toBe(canonicalReleaseText(base));
    const m = signRelease(shaped, pair.secretKey);
    // written in the single-artifact shape, with the very signature the single-artifact fields give
    expect(m).toEqual(signRelease(base, pair.secretKey));
    expect(m).not.toHaveProperty('artifacts');
  });

  it('several artifacts sign the v2 form: its own domain line, every artifact in canonical order', () => {
    expect(canonicalReleaseText(multi)).toBe(
      [
        'vend-release-v2',
        'version=2.1.0',
        'migration=false',
        'minFrom=1.0.0',
        'arches=x64,arm64',
        `x64Sha256=${'a'.repeat(64)}`,
        'x64Size=1234',
        'x64Url=https://artifacts.vend.test/agent/vend-agent-2.1.0.tar.gz',
        `arm64Sha256=${'b'.repeat(64)}`,
        'arm64Size=987',
        'arm64Url=https://artifacts.vend.test/agent/vend-agent-2.1.0-linux-arm64.tar.gz',
        '',
      ].join('\n'),
    );
    expect(canonicalReleaseText({ ...multi, artifacts: [x64, arm64] })).toBe(canonicalReleaseText(multi));
    // one arm64 artifact alone is not a v1 release (v1 means x64)
    expect(canonicalReleaseText({ ...multi, artifacts: [arm64] })).toMatch(/^vend-release-v2\n[^]*\narches=arm64\n/);
  });

  it('the signature covers every artifact: changing any field of any artifact, or dropping one, fails verification', () => {
    const m = signRelease(multi, pair.secretKey);
    expect(ReleaseManifest.parse(m)).toEqual(m);
    expect(verifyReleaseSignature(m, pair.publicKey)).toBe(true);
    if (!('artifacts' in m)) throw new Error('expected the artifacts shape');
    const [first, second] = m.artifacts as [typeof x64, typeof arm64];
    for (const changed of [
      [{ ...first, sha256: 'c'.repeat(64) }, second],
      [first, { ...second, size: 988 }],
      [first, { ...second, url: second.url + 'x' }],
      [
        { ...first, arch: 'arm64' as const },
        { ...second, arch: 'x64' as const },
      ],
      [first],
      [second],
    ]) {
      expect(verifyReleaseSignature({ ...m, artifacts: changed }, pair.publicKey), JSON.stringify(changed)).toBe(false);
    }
    // a v2 signature never passes for the single-artifact release of one of its artifacts
    const { artifacts: _all, ...rest } = m;
    expect(verifyReleaseSignature({ ...rest, ...x64 }, pair.publicKey)).toBe(false);
  });

  it('an offer verifies over its artifacts list, and names the artifact for each architecture', () => {
    const m = signRelease(multi, pair.secretKey);
    const offer = { ...m, ...arm64, minFrom: '1.0.0', sequence: 2, target: '2.1.0', isFinalStep: true, allowDowngrade: false };
    expect(UpgradeOffer.parse(offer)).toEqual(offer);
    expect(verifyReleaseSignature(offer, pair.publicKey)).toBe(true);
    expect(artifactForArch(offer, 'arm64')).toEqual(arm64);
    expect(artifactForArch(offer, 'x64')).toEqual(x64);
    expect(artifactForArch(offer, 'riscv64')).toBeNull();
    // a single-artifact offer is an x64 artifact
    expect(artifactForArch(signRelease(base, pair.secretKey), 'x64')).toEqual(x64);
    expect(artifactForArch(signRelease(base, pair.secretKey), 'arm64')).toBeNull();
  });

  it('refuses two artifacts for one architecture, an unknown architecture, none at all, and both shapes at once', () => {
    const m = signRelease(multi, pair.secretKey);
    expect(ReleaseManifest.safeParse({ ...m, artifacts: [x64, { ...x64, sha256: 'd'.repeat(64) }] }).success).toBe(false);
    expect(ReleaseManifest.safeParse({ ...m, artifacts: [{ ...arm64, arch: 'riscv64' }] }).success).toBe(false);
    expect(ReleaseManifest.safeParse({ ...m, artifacts: [] }).success).toBe(false);
    expect(ReleaseManifest.safeParse({ ...m, sha256: x64.sha256, size: x64.size, url: x64.url }).success).toBe(false);
  });

  it('are injective over random artifact sets: different releases never share bytes', () => {
    const artifact = (arch: 'x64' | 'arm64') =>
      fc.record({
        arch: fc.constant(arch),
        sha256: fc.constantFrom('a', 'b').map((c) => c.repeat(64)),
        size: fc.integer({ min: 1, max: 3 }),
        url: fc.constantFrom('a', 'b').map((s) => `https://artifacts.vend.test/agent/${s}`),
      });
    const release = fc.record({
      version: fc.constantFrom('1.0.0', '1.0.1'),
      artifacts: fc.oneof(
        artifact('x64').map((a) => [a]),
        artifact('arm64').map((a) => [a]),
        fc.tuple(artifact('x64'), artifact('arm64')).map((t) => [...t]),
      ),
      migration: fc.boolean(),
      minFrom: fc.constantFrom(null, '0.9.0'),
    });
    fc.assert(
      fc.property(release, release, (a, b) => {
        const same =
          JSON.stringify(releaseArtifacts(a)) === JSON.stringify(releaseArtifacts(b)) &&
          a.version === b.version &&
          a.migration === b.migration &&
          a.minFrom === b.minFrom;
        expect(canonicalReleaseText(a) === canonicalReleaseText(b)).toBe(same);
      }),
    );
  });
});

describe('artifact URLs and the trusted prefix', () => {
  const prefix = 'https://artifacts.vend.test/agent/';

  it('accepts only canonical https URLs under the prefix', () => {
    expect(isTrustedArtifactUrl(`${prefix}vend-agent-2.1.0.tar.gz`, prefix)).toBe(true);
    expect(isTrustedArtifactUrl(`${prefix}builds/2.1.0/a.tar.gz?sig=abc`, prefix)).toBe(true);
    for (const url of [
      'http://artifacts.vend.test/agent/a.tar.gz',
      'https://artifacts.vend.test/agentx/a.tar.gz',
      'https://artifacts.vend.test/agent',
      prefix,
      'https://artifacts.vend.test/agent/../evil/a.tar.gz',
      'https://artifacts.vend.test/agent/%2e%2e/evil',
      'https://ARTIFACTS.vend.test/agent/a.tar.gz',
      'https://artifacts.vend.test:443/agent/a.tar.gz',
      'https://artifacts.vend.test/agent/a.tar.gz#frag',
      'https://artifacts.vend.test.evil.com/agent/a.tar.gz',
      'https://artifacts.vend.test/agent/a b.tar.gz',
    ]) {
      expect(isTrustedArtifactUrl(url, prefix), url).toBe(false);
    }
  });

  it('requires the prefix itself to be https and end with a slash', () => {
    expect(isValidArtifactPrefix(prefix)).toBe(true);
    expect(isValidArtifactPrefix('https://artifacts.vend.test/agent')).toBe(false);
    expect(isValidArtifactPrefix('http://artifacts.vend.test/agent/')).toBe(false);
    expect(isValidArtifactPrefix('https://artifacts.vend.test/agent/?x=1/')).toBe(false);
    expect(isTrustedArtifactUrl(`${prefix}a.tar.gz`, 'https://artifacts.vend.test/agent')).toBe(false);
    expect(isCanonicalHttpsUrl('https://artifacts.vend.test/')).toBe(true);
  });
});

describe('key text', () => {
  it('reads a public key as base64 or hex, and refuses small-order or malformed keys', () => {
    const b64 = encodeBase64(pair.publicKey);
    const hexKey = Buffer.from(pair.publicKey).toString('hex');
    expect(parseReleasePublicKey(b64)).toEqual(pair.publicKey);
    expect(parseReleasePublicKey(` ${hexKey}\n`)).toEqual(pair.publicKey);
    expect(parseReleasePublicKey(hexKey.toUpperCase())).toEqual(pair.publicKey);
    expect(parseReleasePublicKey('0100000000000000000000000000000000000000000000000000000000000000')).toBeNull();
    expect(parseReleasePublicKey(b64.slice(1))).toBeNull();
    expect(parseReleasePublicKey('')).toBeNull();
  });

  it('reads a secret key as a 32-byte seed or a consistent 64-byte key', () => {
    const seed = new Uint8Array(32).fill(42);
    expect(parseReleaseSecretKey(encodeBase64(seed))?.publicKey).toEqual(pair.publicKey);
    expect(parseReleaseSecretKey(Buffer.from(pair.secretKey).toString('hex'))?.publicKey).toEqual(pair.publicKey);
    const mismatched = Uint8Array.from(pair.secretKey);
    mismatched.set(other.publicKey, 32);
    expect(parseReleaseSecretKey(encodeBase64(mismatched))).toBeNull();
    expect(parseReleaseSecretKey('not a key')).toBeNull();
  });
});

describe('docs/release-signing.md', () => {
  it('embeds the worked example exactly as the code computes it', () => {
    const doc = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/release-signing.md');
    const text = fs.readFileSync(doc, 'utf8');
    expect(text).toContain(renderSigningExample());
    expect(text).toContain(renderMultiArchExample());
    const e = signingExample();
    expect(verifyReleaseSignature(e.manifest, parseReleasePublicKey(e.publicKeyBase64)!)).toBe(true);
    expect(e.manifest).toMatchObject(EXAMPLE_FIELDS);
  });
});
