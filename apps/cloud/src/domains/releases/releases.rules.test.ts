import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareVersions, parseReleaseSecretKey, releaseArtifacts, signRelease, type ReleaseManifest, type SingleArtifactManifest } from '@vend/protocol';
import { AppError } from '../../http/errors.ts';
import { loadConfig, SANDBOX_RELEASES } from '../../config.ts';
import { judgePublication, versionKey, type PublishedRelease, type Trust } from './releases.rules.ts';

const key = parseReleaseSecretKey('11'.repeat(32))!;
const stranger = parseReleaseSecretKey('22'.repeat(32))!;
const prefix = 'https://cdn.vend.test/agent/';
const trust: Trust = { publicKey: key.publicKey, artifactUrlPrefix: prefix };

function signed(version: string, o: { minFrom?: string; sha?: string; url?: string; by?: Uint8Array } = {}): SingleArtifactManifest {
  return signRelease(
    { version, sha256: o.sha ?? 'c'.repeat(64), size: 42, url: o.url ?? `${prefix}${version}.tar.gz`, migration: false, minFrom: o.minFrom ?? null },
    o.by ?? key.secretKey,
  );
}

const published = (...versions: string[]): PublishedRelease[] => versions.map((v) => ({ ...signed(v), artifacts: releaseArtifacts(signed(v)), minFrom: null }));

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return { status: e.status, message: e.message };
    throw e;
  }
  throw new Error('expected a refusal');
}

describe('publishing rules (pure)', () => {
  const rows: [string, ReleaseManifest, PublishedRelease[], number, RegExp][] = [
    ['foreign signature', signed('1.0.0', { by: stranger.secretKey }), [], 400, /signature/],
    ['url outside the prefix', signed('1.0.0', { url: 'https://cdn.vend.test/other/1.0.0.tar.gz' }), [], 400, /prefix/],
    ['url equal to the prefix', signed('1.0.0', { url: prefix }), [], 400, /prefix/],
    ['same version, other bytes', signed('1.0.0', { sha: 'd'.repeat(64) }), published('1.0.0'), 409, /immutable/],
    ['1.0 is 1.0.0', signed('1.0', { sha: 'd'.repeat(64) }), published('1.0.0'), 409, /immutable/],
    ['floor equal to the version', signed('2.0.0', { minFrom: '2.0.0' }), [], 400, /below/],
    ['floor above the version', signed('2.0.0', { minFrom: '2.1.0' }), [], 400, /below/],
    ['no rung between floor and version while one lies below', signed('2.0.0', { minFrom: '1.5.0' }), published('1.0.0', '2.5.0'), 400, /rung first/],
  ];
  it.each(rows)('%s is refused', (_name, m, registry, status, message) => {
    const r = refusal(() => judgePublication(m, registry, trust));
    expect(r.status).toBe(status);
    expect(r.message).toMatch(message);
  });

  const accepted: [string, ReleaseManifest, PublishedRelease[]][] = [
    ['no floor', signed('2.0.0'), published('1.0.0')],
    ['floor at the oldest release', signed('2.0.0', { minFrom: '1.0.0' }), published('1.0.0', '1.1.0')],
    ['floor below the oldest release', signed('2.0.0', { minFrom: '0.9.0' }), published('1.0.0')],
    ['floor naming an unpublished factory build with a rung above it', signed('2.0.0', { minFrom: '1.4.7' }), published('1.0.0', '1.5.0')],
    ['out of order', signed('1.5.0'), published('1.0.0', '2.0.0')],
    ['empty registry with a floor', signed('2.0.0', { minFrom: '1.9.0' }), []],
  ];
  it.each(accepted)('%s is accepted as new', (_name, m, registry) => {
    expect(judgePublication(m, registry, trust)).toEqual({ kind: 'new' });
  });

  it('the same version with the same bytes is the existing record, even under another valid signature', () => {
    const registry = published('1.0.0');
    expect(judgePublication(signed('1.0.0'), registry, trust)).toEqual({ kind: 'existing', release: registry[0] });
  });

  it('checks the signature before anything else: an unsigned copy of a published release is not "the same bytes"', () => {
    const registry = published('1.0.0');
    const copy = { ...signed('1.0.0'), signature: signed('1.0.0', { by: stranger.secretKey }).signature };
    expect(refusal(() => judgePublication(copy, registry, trust)).status).toBe(400);
  });
});

describe('versionKey', () => {
  it('normalises trailing zeros and sorts like compareVersions', () => {
    expect(versionKey('1.0')).toBe(versionKey('1.0.0.0'));
    const v = fc.array(fc.nat({ max: 2000 }), { minLength: 1, maxLength: 4 }).map((a) => a.join('.'));
    fc.assert(
      fc.property(v, v, (a, b) => {
        const byKey = versionKey(a) < versionKey(b) ? -1 : versionKey(a) > versionKey(b) ? 1 : 0;
        expect(byKey).toBe(compareVersions(a, b));
      }),
    );
  });
});

describe('release configuration', () => {
  it('the sandbox trusts its documented key pair and prefix', () => {
    const c = loadConfig({});
    expect(c.releases).toEqual({ publicKey: SANDBOX_RELEASES.publicKey, artifactUrlPrefix: SANDBOX_RELEASES.artifactUrlPrefix });
    expect(Buffer.from(parseReleaseSecretKey(SANDBOX_RELEASES.privateKey)!.publicKey).toString('base64')).toBe(SANDBOX_RELEASES.publicKey);
  });

  it('reads the key as base64 or hex and normalises it to base64', () => {
    const hex = Buffer.from(key.publicKey).toString('hex');
    expect(loadConfig({ RELEASE_PUBLIC_KEY: hex }).releases.publicKey).toBe(Buffer.from(key.publicKey).toString('base64'));
  });

  it('production requires both settings and never falls back to the sandbox pair', () => {
    const prod = {
      VEND_MODE: 'production',
      DATA_KEY: 'k'.repeat(40),
      FLEET_SECRET: 'fleet-secret-1',
      WEBHOOK_SECRET: 'w'.repeat(20),
      AD_PAYMENTS_WEBHOOK_SECRET: 'a'.repeat(20),
    };
    expect(() => loadConfig(prod)).toThrow(/RELEASE_PUBLIC_KEY: is required[\s\S]*ARTIFACT_URL_PREFIX: is required/);
    const c = loadConfig({ ...prod, RELEASE_PUBLIC_KEY: Buffer.from(key.publicKey).toString('base64'), ARTIFACT_URL_PREFIX: prefix });
    expect(c.releases).toEqual({ publicKey: Buffer.from(key.publicKey).toString('base64'), artifactUrlPrefix: prefix });
  });

  it('refuses a malformed or small-order key and a prefix that is not https or lacks the trailing slash', () => {
    for (const bad of ['abc', '00'.repeat(32), '01' + '00'.repeat(31)]) expect(() => loadConfig({ RELEASE_PUBLIC_KEY: bad })).toThrow(/RELEASE_PUBLIC_KEY/);
    for (const bad of ['http://cdn.vend.test/agent/', 'https://cdn.vend.test/agent', 'https://cdn.vend.test/agent/?x=/', 'cdn.vend.test/agent/']) {
      expect(() => loadConfig({ ARTIFACT_URL_PREFIX: bad }), bad).toThrow(/ARTIFACT_URL_PREFIX/);
    }
  });
});
