import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import nacl from 'tweetnacl';
import { ED25519_L, decodePointStrict, hasSmallOrder, isAcceptablePublicKey, verifyEd25519Strict } from './ed25519.ts';

/**
 * The strict verifier against the shared vector files. They live in `shared/vectors/` beside the
 * repository (CI checks it out there); a missing file fails the run loudly instead of skipping.
 */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const vectorsDir = path.resolve(repoRoot, '../shared/vectors');

function readVectors<T>(name: string): T {
  const file = path.join(vectorsDir, name);
  if (!fs.existsSync(file)) {
    throw new Error(
      `signature test vectors missing: ${file} not found. Check out the shared/ directory beside the repository (CI does) — these tests never skip.`,
    );
  }
  return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
}

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));

interface Wycheproof {
  numberOfTests: number;
  testGroups: { publicKey: { pk: string }; tests: { tcId: number; msg: string; sig: string; result: 'valid' | 'invalid'; flags: string[] }[] }[];
}
interface SpecCheck {
  cases: { case: number; message: string; pub_key: string; signature: string; strict_expected: 'valid' | 'invalid' }[];
}

const wycheproof = readVectors<Wycheproof>('wycheproof-ed25519_test.json');
const speccheck = readVectors<SpecCheck>('ed25519-speccheck-cases.json');

describe('strict Ed25519 verification: Wycheproof', () => {
  const cases = wycheproof.testGroups.flatMap((g) => g.tests.map((t) => ({ ...t, pk: g.publicKey.pk })));

  it('holds all 151 vectors (88 valid, 63 invalid)', () => {
    expect(cases).toHaveLength(151);
    expect(wycheproof.numberOfTests).toBe(151);
    expect(cases.filter((c) => c.result === 'valid')).toHaveLength(88);
  });

  it.each(cases.map((c) => [c.tcId, c.result, c.flags.join(','), c] as const))('tcId %i is %s (%s)', (_id, result, _flags, c) => {
    expect(verifyEd25519Strict(hex(c.msg), hex(c.sig), hex(c.pk))).toBe(result === 'valid');
  });

  it('is stricter than tweetnacl alone exactly where it must be (S ≥ L and the known-invalid KTV)', () => {
    const naclSays = (c: (typeof cases)[number]) => {
      try {
        return nacl.sign.detached.verify(hex(c.msg), hex(c.sig), hex(c.pk));
      } catch {
        return false; // tweetnacl throws on a signature of the wrong length
      }
    };
    const naclWrong = cases.filter((c) => naclSays(c) !== (c.result === 'valid')).map((c) => c.tcId);
    expect(naclWrong).toEqual([63, 64, 65, 66, 85]);
  }, 60_000); // 151 verifications by tweetnacl take seconds on a slow machine
});

describe('strict Ed25519 verification: ed25519-speccheck (libsodium behaviour)', () => {
  it('has 15 cases, of which only case 6 is valid', () => {
    expect(speccheck.cases).toHaveLength(15);
    expect(speccheck.cases.filter((c) => c.strict_expected === 'valid').map((c) => c.case)).toEqual([6]);
  });

  it.each(speccheck.cases.map((c) => [c.case, c.strict_expected, c] as const))('case %i is %s', (_n, expected, c) => {
    expect(verifyEd25519Strict(hex(c.message), hex(c.signature), hex(c.pub_key))).toBe(expected === 'valid');
  });
});

describe('strict Ed25519 verification: the pieces', () => {
  const kp = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(7));
  const msg = new TextEncoder().encode('vend');
  const sig = nacl.sign.detached(msg, kp.secretKey);

  it('accepts an honest signature and refuses any flipped bit of message, signature or key', () => {
    expect(verifyEd25519Strict(msg, sig, kp.publicKey)).toBe(true);
    for (let i = 0; i < 64; i++) {
      const s = Uint8Array.from(sig);
      s[i] = s[i]! ^ 1;
      expect(verifyEd25519Strict(msg, s, kp.publicKey)).toBe(false);
    }
    const k = Uint8Array.from(kp.publicKey);
    k[0] = k[0]! ^ 1;
    expect(verifyEd25519Strict(msg, sig, k)).toBe(false);
    expect(verifyEd25519Strict(new TextEncoder().encode('vend!'), sig, kp.publicKey)).toBe(false);
  });

  it('refuses S + L, which tweetnacl alone accepts', () => {
    let s = 0n;
    for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(sig[i]!);
    s += ED25519_L;
    const malleated = Uint8Array.from(sig);
    for (let i = 32; i < 64; i++) {
      malleated[i] = Number(s & 0xffn);
      s >>= 8n;
    }
    expect(nacl.sign.detached.verify(msg, malleated, kp.publicKey)).toBe(true);
    expect(verifyEd25519Strict(msg, malleated, kp.publicKey)).toBe(false);
  });

  it('refuses wrong lengths and non-byte input without throwing', () => {
    expect(verifyEd25519Strict(msg, sig.subarray(0, 63), kp.publicKey)).toBe(false);
    expect(verifyEd25519Strict(msg, new Uint8Array([...sig, 0]), kp.publicKey)).toBe(false);
    expect(verifyEd25519Strict(msg, sig, kp.publicKey.subarray(0, 31))).toBe(false);
    expect(verifyEd25519Strict(msg, 'nope' as unknown as Uint8Array, kp.publicKey)).toBe(false);
  });

  it('decodes canonically: y ≥ p, negative zero and off-curve encodings name no point', () => {
    expect(decodePointStrict(kp.publicKey)).not.toBeNull();
    // y = p (encodes 0 non-canonically) and y = 2^255 - 1
    expect(decodePointStrict(hex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'))).toBeNull();
    expect(decodePointStrict(hex('ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'))).toBeNull();
    // y = 1 is the identity (x = 0): with the sign bit set it is "-0", refused
    expect(decodePointStrict(hex('0100000000000000000000000000000000000000000000000000000000000000'))).not.toBeNull();
    expect(decodePointStrict(hex('0100000000000000000000000000000000000000000000000000000000000080'))).toBeNull();
    // y = 2 is not on the curve
    expect(decodePointStrict(hex('0200000000000000000000000000000000000000000000000000000000000000'))).toBeNull();
  });

  it('knows the small-order points: identity and the order-2 point are small, an honest key is not', () => {
    expect(hasSmallOrder(decodePointStrict(hex('0100000000000000000000000000000000000000000000000000000000000000'))!)).toBe(true);
    expect(hasSmallOrder(decodePointStrict(hex('ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f'))!)).toBe(true);
    expect(hasSmallOrder(decodePointStrict(kp.publicKey)!)).toBe(false);
    expect(isAcceptablePublicKey(kp.publicKey)).toBe(true);
    expect(isAcceptablePublicKey(hex('0100000000000000000000000000000000000000000000000000000000000000'))).toBe(false);
  });
});
