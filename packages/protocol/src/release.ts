import { Buffer } from 'node:buffer';
import nacl from 'tweetnacl';
import { z } from 'zod';
import { isDottedVersion } from './version.ts';
import { isAcceptablePublicKey, verifyEd25519Strict } from './ed25519.ts';

/**
 * Signed agent releases (spec 2 §2.6, §2.8, §4.4, §4.5, §9): the release manifest, its canonical
 * signed bytes, Ed25519 signing and strict verification, the trusted-prefix rule for artifact URLs,
 * and the upgrade offer the gateway hands a cabinet. Pure code: no I/O.
 *
 * The byte form that is signed (documented with a worked example in docs/release-signing.md):
 *
 *     vend-release-v1\n
 *     version=<version>\n
 *     sha256=<64 lowercase hex>\n
 *     size=<decimal integer>\n
 *     url=<url>\n
 *     migration=<true|false>\n
 *     minFrom=<version>\n          — or, when the release has no floor, the bare line `minFrom\n`
 *
 * ASCII, every line ending in one LF, fields in exactly this order. A present value is `key=value`;
 * an absent optional field is its bare key with no `=`, so "absent" can never collide with a value and
 * adding a signed field changes the bytes of every release, present or not (spec 2 §9).
 */

/** The value of `signatureAlg`: Ed25519 (RFC 8032, pure, no pre-hash) over the canonical bytes. */
export const RELEASE_SIGNATURE_ALG = 'ed25519';
/** The first line of the signed bytes: a signature over anything else can never pass for a release. */
export const RELEASE_SIGNING_DOMAIN = 'vend-release-v1';
/** The signed fields, in the order they are written. */
export const RELEASE_SIGNED_FIELDS = ['version', 'sha256', 'size', 'url', 'migration', 'minFrom'] as const;
export type ReleaseSignedField = (typeof RELEASE_SIGNED_FIELDS)[number];
/** Largest artifact a release may name (4 GiB); the agent stops downloading at the signed size. */
export const MAX_RELEASE_SIZE = 4 * 1024 ** 3;
/**
 * What a release may unpack to is bounded by what was signed: at most this many times its signed
 * (compressed) `size`, plus RELEASE_UNPACK_ALLOWANCE for the headers and padding of a small tree, and
 * never more than MAX_RELEASE_UNPACKED_BYTES. Measured over the decompressed tar stream (headers
 * included), so it bounds the work of reading the archive as well as the bytes written. The release
 * tree unpacks to about 2.7× its artifact; the builder refuses to pack one that would pass the cap.
 * Not a new signed field: adding one would change the signed bytes of every release (spec 2 §9) and
 * no agent already in the field could verify a release signed that way.
 */
export const RELEASE_MAX_UNPACK_RATIO = 4;
export const RELEASE_UNPACK_ALLOWANCE = 1024 * 1024;
export const MAX_RELEASE_UNPACKED_BYTES = 2 * 1024 ** 3;

/** The most the release of signed size `size` may unpack to (its tar stream, headers included), in bytes. */
export function releaseUnpackCap(size: number): number {
  return Math.min(MAX_RELEASE_UNPACKED_BYTES, RELEASE_MAX_UNPACK_RATIO * size + RELEASE_UNPACK_ALLOWANCE);
}
export const MAX_RELEASE_URL_LENGTH = 2048;

// ---------------------------------------------------------------------------------------------
// Field rules

/** Printable ASCII without spaces: what a canonical https URL is made of. */
const URL_CHARS = /^[\x21-\x7e]+$/;

/**
 * An https URL in its canonical WHATWG form (what `new URL(u).href` gives back), with no user
 * info and no fragment. Canonical form matters: the prefix check is a starts-with (spec 2 §8), so a
 * URL with `..`, `\`, a default port or an upper-case host would otherwise slip past it.
 */
export function isCanonicalHttpsUrl(url: string): boolean {
  if (typeof url !== 'string' || url.length > MAX_RELEASE_URL_LENGTH || !URL_CHARS.test(url)) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  return u.protocol === 'https:' && u.href === url && u.username === '' && u.password === '' && u.hash === '' && !url.includes('#');
}

/** A trusted artifact prefix: a canonical https URL ending with `/`, without query or fragment. */
export function isValidArtifactPrefix(prefix: string): boolean {
  return isCanonicalHttpsUrl(prefix) && prefix.endsWith('/') && !prefix.includes('?');
}

/** Spec 2 §4.4 step 2: `url` is https, canonical and starts with the trusted prefix (which ends with `/`). */
export function isTrustedArtifactUrl(url: string, prefix: string): boolean {
  return isValidArtifactPrefix(prefix) && isCanonicalHttpsUrl(url) && url.startsWith(prefix) && url.length > prefix.length;
}

export const ReleaseVersion = z
  .string()
  .max(64)
  .refine((v) => isDottedVersion(v), 'must be dotted-numeric, e.g. 1.4.2');
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters');
export const ReleaseSize = z.number().int().min(1).max(MAX_RELEASE_SIZE);
export const ReleaseUrl = z
  .string()
  .max(MAX_RELEASE_URL_LENGTH)
  .refine((u) => isCanonicalHttpsUrl(u), 'must be a canonical https URL (no user info, no fragment)');

/** Standard base64 of exactly 64 bytes (88 characters ending in `==`), in its canonical form. */
export const ReleaseSignature = z
  .string()
  .regex(/^[A-Za-z0-9+/]{86}==$/, 'must be the standard base64 of a 64-byte Ed25519 signature')
  .refine((s) => decodeBase64Canonical(s)?.length === nacl.sign.signatureLength, 'must be the canonical base64 of 64 bytes');

/** The signed fields of a release (spec 2 §2.6). `minFrom` absent or null: no floor. */
export const SignedReleaseFields = z.strictObject({
  version: ReleaseVersion,
  sha256: Sha256Hex,
  size: ReleaseSize,
  url: ReleaseUrl,
  migration: z.boolean(),
  minFrom: ReleaseVersion.nullable().optional(),
});
export type SignedReleaseFields = z.infer<typeof SignedReleaseFields>;

/**
 * A release manifest as `vendctl sign` writes it and `POST /api/v1/agent/releases` takes it: the
 * signed fields, the carrier (`signature`, `signatureAlg`) and, unsigned, `sequence` (publish order,
 * assigned by the cloud; ignored on the way in). Cloud-policy fields (`allowDowngrade`, `reason`,
 * `target`, `isFinalStep`) are never part of a release and are refused here.
 */
export const ReleaseManifest = SignedReleaseFields.extend({
  signature: ReleaseSignature,
  signatureAlg: z.literal(RELEASE_SIGNATURE_ALG),
  sequence: z.number().int().min(1).optional(),
});
export type ReleaseManifest = z.infer<typeof ReleaseManifest>;

/**
 * The upgrade offer (spec 2 §2.8): the release to install now (`version` and the other signed
 * fields, with its signature), the rollout's or pin's `target`, whether this step reaches it
 * (`isFinalStep` false on a migration rung or a stepping stone), and `allowDowngrade` (cloud policy,
 * unsigned: true only when a pin or a rollout with allowDowngrade permits going down).
 */
export const UpgradeOffer = z.object({
  version: ReleaseVersion,
  sha256: Sha256Hex,
  size: ReleaseSize,
  url: ReleaseUrl,
  migration: z.boolean(),
  minFrom: ReleaseVersion.nullable(),
  signature: ReleaseSignature,
  signatureAlg: z.literal(RELEASE_SIGNATURE_ALG),
  sequence: z.number().int().min(1),
  target: ReleaseVersion,
  isFinalStep: z.boolean(),
  allowDowngrade: z.boolean(),
});
export type UpgradeOffer = z.infer<typeof UpgradeOffer>;

// ---------------------------------------------------------------------------------------------
// Canonical signed bytes

export type SignedValue = string | number | boolean | null | undefined;

const KEY = /^[a-z][A-Za-z0-9]*$/;
const DOMAIN = /^[a-z][a-z0-9-]*$/;
const VALUE = /^[\x20-\x7e]*$/;

/**
 * The canonical byte form of `fieldNames` taken from `values`, under the domain line. Throws on a
 * value that has no canonical form (a control character, a fraction, a negative number): a
 * programming error, never reachable with a manifest that passed its schema.
 */
export function canonicalSignedBytes(
  values: Readonly<Record<string, SignedValue>>,
  fieldNames: readonly string[],
  domain = RELEASE_SIGNING_DOMAIN,
): Uint8Array {
  if (!DOMAIN.test(domain)) throw new RangeError(`bad signing domain: ${domain}`);
  const seen = new Set<string>();
  let text = `${domain}\n`;
  for (const key of fieldNames) {
    if (!KEY.test(key) || seen.has(key)) throw new RangeError(`bad signed field name: ${key}`);
    seen.add(key);
    const value = values[key];
    if (value === null || value === undefined) {
      text += `${key}\n`;
    } else if (typeof value === 'boolean') {
      text += `${key}=${value ? 'true' : 'false'}\n`;
    } else if (typeof value === 'number') {
      if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${key}: not a non-negative safe integer`);
      text += `${key}=${String(value)}\n`;
    } else {
      if (!VALUE.test(value)) throw new RangeError(`${key}: only printable ASCII may be signed`);
      text += `${key}=${value}\n`;
    }
  }
  return new TextEncoder().encode(text);
}

/** The exact bytes a release signature covers (see the top of this file). */
export function canonicalReleaseBytes(r: Readonly<SignedReleaseFields>): Uint8Array {
  const values: Record<ReleaseSignedField, SignedValue> = {
    version: r.version,
    sha256: r.sha256,
    size: r.size,
    url: r.url,
    migration: r.migration,
    minFrom: r.minFrom ?? null,
  };
  return canonicalSignedBytes(values, RELEASE_SIGNED_FIELDS);
}

/** The same bytes as text, for documentation and `vendctl sign --show`. */
export function canonicalReleaseText(r: Readonly<SignedReleaseFields>): string {
  return new TextDecoder().decode(canonicalReleaseBytes(r));
}

/** True when two releases sign the same bytes (the "same version, same bytes" publishing rule). */
export function sameSignedBytes(a: Readonly<SignedReleaseFields>, b: Readonly<SignedReleaseFields>): boolean {
  const x = canonicalReleaseBytes(a);
  const y = canonicalReleaseBytes(b);
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

// ---------------------------------------------------------------------------------------------
// Keys, signing, verification

/** Standard base64 decoded only when `s` is the canonical encoding of what it decodes to. */
export function decodeBase64Canonical(s: string): Uint8Array | null {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
  const bytes = Buffer.from(s, 'base64');
  if (bytes.toString('base64') !== s) return null;
  return Uint8Array.from(bytes);
}

export function encodeBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

function decodeKeyText(text: string, lengths: readonly number[]): Uint8Array | null {
  const t = typeof text === 'string' ? text.trim() : '';
  if (/^[0-9a-fA-F]+$/.test(t) && lengths.includes(t.length / 2)) return Uint8Array.from(Buffer.from(t, 'hex'));
  const b = decodeBase64Canonical(t);
  return b && lengths.includes(b.length) ? b : null;
}

/**
 * The fleet publishing public key from text: 32 bytes as standard base64 (44 characters) or hex
 * (64 characters), surrounding whitespace ignored. Null when it is neither, or when the bytes could
 * never verify a signature (non-canonical, off the curve or of small order).
 */
export function parseReleasePublicKey(text: string): Uint8Array | null {
  const key = decodeKeyText(text, [nacl.sign.publicKeyLength]);
  return key && isAcceptablePublicKey(key) ? key : null;
}

export interface ReleaseKeyPair {
  publicKey: Uint8Array;
  /** tweetnacl's 64-byte form: the 32-byte seed followed by the public key. */
  secretKey: Uint8Array;
}

/**
 * A signing key from text: the 32-byte seed (what `vendctl keygen` writes) or tweetnacl's 64-byte
 * secret key, as base64 or hex. A 64-byte key whose second half is not the seed's public key is refused.
 */
export function parseReleaseSecretKey(text: string): ReleaseKeyPair | null {
  const raw = decodeKeyText(text, [nacl.sign.seedLength, nacl.sign.secretKeyLength]);
  if (!raw) return null;
  const pair = nacl.sign.keyPair.fromSeed(raw.subarray(0, nacl.sign.seedLength));
  if (raw.length === nacl.sign.secretKeyLength && !pair.publicKey.every((b, i) => b === raw[32 + i])) return null;
  return { publicKey: pair.publicKey, secretKey: pair.secretKey };
}

/** Signs the canonical bytes of `fields`: the manifest `vendctl sign` writes (no `sequence`). */
export function signRelease(fields: Readonly<SignedReleaseFields>, secretKey: Uint8Array): ReleaseManifest {
  const signed = SignedReleaseFields.parse(fields);
  const signature = nacl.sign.detached(canonicalReleaseBytes(signed), secretKey);
  return {
    version: signed.version,
    sha256: signed.sha256,
    size: signed.size,
    url: signed.url,
    migration: signed.migration,
    ...(signed.minFrom != null ? { minFrom: signed.minFrom } : {}),
    signature: encodeBase64(signature),
    signatureAlg: RELEASE_SIGNATURE_ALG,
  };
}

/** What a signature check needs of a manifest or an offer: the signed fields and the carrier. */
export type SignedCarrier = Readonly<SignedReleaseFields> & { readonly signature: string; readonly signatureAlg: string };

/**
 * True only when `m` carries an `ed25519` signature that verifies strictly (see ed25519.ts) over its
 * canonical signed bytes under `publicKey`. Never throws: malformed input answers false.
 */
export function verifyReleaseSignature(m: SignedCarrier, publicKey: Uint8Array): boolean {
  try {
    if (m.signatureAlg !== RELEASE_SIGNATURE_ALG) return false;
    const fields = SignedReleaseFields.safeParse({
      version: m.version,
      sha256: m.sha256,
      size: m.size,
      url: m.url,
      migration: m.migration,
      minFrom: m.minFrom ?? null,
    });
    if (!fields.success) return false;
    const signature = decodeBase64Canonical(m.signature);
    if (!signature) return false;
    return verifyEd25519Strict(canonicalReleaseBytes(fields.data), signature, publicKey);
  } catch {
    return false;
  }
}

export { verifyEd25519Strict, isAcceptablePublicKey } from './ed25519.ts';
