import { Buffer } from 'node:buffer';
import nacl from 'tweetnacl';
import { z } from 'zod';
import { DOTTED_VERSION } from './version.ts';
import { isAcceptablePublicKey, verifyEd25519Strict } from './ed25519.ts';
import { lazySchema } from './lazy-schema.ts';

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
 *
 * Artifacts per architecture (docs/decisions/agent-upgrades.md): a release names one artifact per
 * architecture it ships for (`x64`, `arm64`, Node's `process.arch` names). A release whose only
 * artifact is for x64 is the release above, byte for byte (`vend-release-v1`, what every agent in the
 * field verifies; a tree built before the architecture was signed is an x64 tree). Any other set of
 * artifacts signs the v2 form, under its own domain line so neither form's signature can pass for the
 * other:
 *
 *     vend-release-v2\n
 *     version=<version>\n
 *     migration=<true|false>\n
 *     minFrom=<version>\n          — or the bare `minFrom\n`
 *     arches=<arch>,<arch>…\n     — the artifacts' architectures in RELEASE_ARCHES order
 *     <arch>Sha256=<hex>\n         — then, for each arch in that order, its three lines
 *     <arch>Size=<decimal>\n
 *     <arch>Url=<url>\n
 */

/** The value of `signatureAlg`: Ed25519 (RFC 8032, pure, no pre-hash) over the canonical bytes. */
export const RELEASE_SIGNATURE_ALG = 'ed25519';
/** The first line of the signed bytes: a signature over anything else can never pass for a release. */
export const RELEASE_SIGNING_DOMAIN = 'vend-release-v1';
/** The signed fields, in the order they are written. */
export const RELEASE_SIGNED_FIELDS = ['version', 'sha256', 'size', 'url', 'migration', 'minFrom'] as const;
export type ReleaseSignedField = (typeof RELEASE_SIGNED_FIELDS)[number];
/** The first line of the signed bytes of a release with artifacts for several (or other) architectures. */
export const RELEASE_SIGNING_DOMAIN_V2 = 'vend-release-v2';
/** The architectures a release may carry an artifact for (Node's `process.arch` names), in canonical order. */
export const RELEASE_ARCHES = ['x64', 'arm64'] as const;
export type ReleaseArch = (typeof RELEASE_ARCHES)[number];
/** The architecture of a release signed in the v1 form (one artifact, no architecture named). */
export const LEGACY_RELEASE_ARCH: ReleaseArch = 'x64';
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

export const ReleaseVersion = lazySchema(() => z.string().max(64).regex(DOTTED_VERSION, 'must be dotted-numeric, e.g. 1.4.2'));
export const Sha256Hex = lazySchema(() => z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters'));
export const ReleaseSize = lazySchema(() => z.number().int().min(1).max(MAX_RELEASE_SIZE));
export const ReleaseUrl = lazySchema(() =>
  z
    .string()
    .max(MAX_RELEASE_URL_LENGTH)
    .refine((u) => isCanonicalHttpsUrl(u), 'must be a canonical https URL (no user info, no fragment)')
    .meta({ format: 'uri', pattern: '^https://', description: 'A canonical https URL: as the WHATWG URL parser writes it back, no user info, no fragment' }),
);

/** Standard base64 of exactly 64 bytes (88 characters ending in `==`), in its canonical form. */
export const ReleaseSignature = lazySchema(() =>
  z
    .string()
    .regex(/^[A-Za-z0-9+/]{85}[AQgw]==$/, 'must be the standard base64 of a 64-byte Ed25519 signature')
    .refine((s) => decodeBase64Canonical(s)?.length === nacl.sign.signatureLength, 'must be the canonical base64 of 64 bytes'),
);

/** The signed fields of a release (spec 2 §2.6). `minFrom` absent or null: no floor. */
export const SignedReleaseFields = lazySchema(() =>
  z.strictObject({
    version: ReleaseVersion,
    sha256: Sha256Hex,
    size: ReleaseSize,
    url: ReleaseUrl,
    migration: z.boolean(),
    minFrom: ReleaseVersion.nullable().optional(),
  }),
);
export type SignedReleaseFields = z.infer<typeof SignedReleaseFields>;

export const ReleaseArchField = lazySchema(() => z.enum(RELEASE_ARCHES));

/** One architecture's artifact: its own signed digest, size and URL. */
export const ReleaseArtifact = lazySchema(() =>
  z.strictObject({
    arch: ReleaseArchField,
    sha256: Sha256Hex,
    size: ReleaseSize,
    url: ReleaseUrl,
  }),
);
export type ReleaseArtifact = z.infer<typeof ReleaseArtifact>;

/** One artifact per architecture, at least one, in any order (the signed bytes sort them). */
export const ReleaseArtifacts = lazySchema(() =>
  z
    .array(ReleaseArtifact)
    .min(1)
    .max(RELEASE_ARCHES.length)
    .refine((a) => new Set(a.map((x) => x.arch)).size === a.length, 'at most one artifact per architecture'),
);

/** The signed fields of a release that names its artifacts per architecture. */
export const MultiArchReleaseFields = lazySchema(() =>
  z.strictObject({
    version: ReleaseVersion,
    artifacts: ReleaseArtifacts,
    migration: z.boolean(),
    minFrom: ReleaseVersion.nullable().optional(),
  }),
);
export type MultiArchReleaseFields = z.infer<typeof MultiArchReleaseFields>;

/** Either shape of a release's signed fields: one x64 artifact at the top level, or `artifacts`. */
export type AnyReleaseFields = SignedReleaseFields | (Omit<MultiArchReleaseFields, 'artifacts'> & { readonly artifacts: readonly ReleaseArtifact[] });

/** A release's artifacts in RELEASE_ARCHES order; a release of the single-artifact shape has one, for x64. */
export function releaseArtifacts(r: Readonly<AnyReleaseFields>): ReleaseArtifact[] {
  if ('artifacts' in r && Array.isArray(r.artifacts)) {
    return [...r.artifacts].sort((a, b) => RELEASE_ARCHES.indexOf(a.arch) - RELEASE_ARCHES.indexOf(b.arch));
  }
  const single = r as SignedReleaseFields;
  return [{ arch: LEGACY_RELEASE_ARCH, sha256: single.sha256, size: single.size, url: single.url }];
}

/** True when these artifacts sign the v1 form: exactly one, for x64. */
export function isSingleArtifactForm(artifacts: readonly ReleaseArtifact[]): boolean {
  return artifacts.length === 1 && artifacts[0]!.arch === LEGACY_RELEASE_ARCH;
}

/** The signed artifact for `arch`, or null when the release ships none for it. */
export function artifactForArch(r: Readonly<AnyReleaseFields>, arch: string): ReleaseArtifact | null {
  return releaseArtifacts(r).find((a) => a.arch === arch) ?? null;
}

/**
 * A release manifest as `vendctl sign` writes it and `POST /api/v1/agent/releases` takes it: the
 * signed fields, the carrier (`signature`, `signatureAlg`) and, unsigned, `sequence` (publish order,
 * assigned by the cloud; ignored on the way in). Cloud-policy fields (`allowDowngrade`, `reason`,
 * `target`, `isFinalStep`) are never part of a release and are refused here.
 */
const carrier = {
  signature: ReleaseSignature,
  signatureAlg: z.literal(RELEASE_SIGNATURE_ALG),
  sequence: z.number().int().min(1).optional(),
};
/** The single-artifact manifest (an x64 tree): the form every release had before architectures were signed. */
export const SingleArtifactManifest = lazySchema(() => SignedReleaseFields.extend(carrier));
export type SingleArtifactManifest = z.infer<typeof SingleArtifactManifest>;
/** The manifest of a release with `artifacts` per architecture. */
export const MultiArchManifest = lazySchema(() => MultiArchReleaseFields.extend(carrier));
export type MultiArchManifest = z.infer<typeof MultiArchManifest>;
export type ReleaseManifest = SingleArtifactManifest | MultiArchManifest;
const SINGLE_ARTIFACT_KEYS = ['sha256', 'size', 'url'] as const;
/**
 * Either manifest shape, as one strict object (so a field of the wrong type is reported as itself, not
 * as "matches no shape"): `sha256`, `size` and `url` together, or `artifacts`, never both.
 */
export const ReleaseManifest: z.ZodType<ReleaseManifest> = lazySchema(
  () =>
    z
      .strictObject({
        version: ReleaseVersion,
        sha256: Sha256Hex.optional(),
        size: ReleaseSize.optional(),
        url: ReleaseUrl.optional(),
        artifacts: ReleaseArtifacts.optional(),
        migration: z.boolean(),
        minFrom: ReleaseVersion.nullable().optional(),
        ...carrier,
      })
      .superRefine((m, ctx) => {
        const present = SINGLE_ARTIFACT_KEYS.filter((k) => m[k] !== undefined);
        if (m.artifacts !== undefined) {
          for (const k of present) ctx.addIssue({ code: 'custom', path: [k], message: 'give sha256/size/url (one x64 artifact) or artifacts, not both' });
        } else {
          for (const k of SINGLE_ARTIFACT_KEYS)
            if (m[k] === undefined) ctx.addIssue({ code: 'custom', path: [k], message: 'required (or artifacts, one per architecture)' });
        }
      })
      // the document states the two shapes: the one artifact's three fields, or the list, never both
      .meta({
        anyOf: [
          { required: [...SINGLE_ARTIFACT_KEYS], properties: { artifacts: false } },
          { required: ['artifacts'], properties: Object.fromEntries(SINGLE_ARTIFACT_KEYS.map((k) => [k, false])) },
        ],
      }) as unknown as z.ZodType<ReleaseManifest>,
);

/**
 * The upgrade offer (spec 2 §2.8): the release to install now (`version` and the other signed
 * fields, with its signature), the rollout's or pin's `target`, whether this step reaches it
 * (`isFinalStep` false on a migration rung or a stepping stone), and `allowDowngrade` (cloud policy,
 * unsigned: true only when a pin or a rollout with allowDowngrade permits going down).
 *
 * `sha256`, `size` and `url` are the artifact for the cabinet's architecture, named by `arch`. A release
 * signed in the v2 form also carries its whole `artifacts` list, which the signature covers; an agent
 * downloads only the signed artifact for its own architecture (see `artifactForArch`).
 */
export const UpgradeOffer = lazySchema(() =>
  z.object({
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
    /** The architecture of the artifact at the top level (absent from clouds that predate architectures: x64). */
    arch: ReleaseArchField.optional(),
    /** Every artifact of a release signed in the v2 form; absent for a single x64 artifact. */
    artifacts: ReleaseArtifacts.optional(),
  }),
);
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

/**
 * The exact bytes a release signature covers (see the top of this file): the v1 form for a single x64
 * artifact, whichever shape carries it, else the v2 form.
 */
export function canonicalReleaseBytes(r: Readonly<AnyReleaseFields>): Uint8Array {
  const artifacts = releaseArtifacts(r);
  if (isSingleArtifactForm(artifacts)) {
    const a = artifacts[0]!;
    const values: Record<ReleaseSignedField, SignedValue> = {
      version: r.version,
      sha256: a.sha256,
      size: a.size,
      url: a.url,
      migration: r.migration,
      minFrom: r.minFrom ?? null,
    };
    return canonicalSignedBytes(values, RELEASE_SIGNED_FIELDS);
  }
  const values: Record<string, SignedValue> = {
    version: r.version,
    migration: r.migration,
    minFrom: r.minFrom ?? null,
    arches: artifacts.map((a) => a.arch).join(','),
  };
  const names = ['version', 'migration', 'minFrom', 'arches'];
  for (const a of artifacts) {
    values[`${a.arch}Sha256`] = a.sha256;
    values[`${a.arch}Size`] = a.size;
    values[`${a.arch}Url`] = a.url;
    names.push(`${a.arch}Sha256`, `${a.arch}Size`, `${a.arch}Url`);
  }
  return canonicalSignedBytes(values, names, RELEASE_SIGNING_DOMAIN_V2);
}

/** The same bytes as text, for documentation and `vendctl sign --show`. */
export function canonicalReleaseText(r: Readonly<AnyReleaseFields>): string {
  return new TextDecoder().decode(canonicalReleaseBytes(r));
}

/** True when two releases sign the same bytes (the "same version, same bytes" publishing rule). */
export function sameSignedBytes(a: Readonly<AnyReleaseFields>, b: Readonly<AnyReleaseFields>): boolean {
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

/**
 * Signs the canonical bytes of `fields`: the manifest `vendctl sign` writes (no `sequence`). A release
 * whose only artifact is for x64 is written in the single-artifact shape, any other with `artifacts`.
 */
export function signRelease(fields: Readonly<SignedReleaseFields>, secretKey: Uint8Array): SingleArtifactManifest;
export function signRelease(fields: Readonly<AnyReleaseFields>, secretKey: Uint8Array): ReleaseManifest;
export function signRelease(fields: Readonly<AnyReleaseFields>, secretKey: Uint8Array): ReleaseManifest {
  const signed = 'artifacts' in fields ? MultiArchReleaseFields.parse(fields) : SignedReleaseFields.parse(fields);
  const signature = encodeBase64(nacl.sign.detached(canonicalReleaseBytes(signed), secretKey));
  const floor = signed.minFrom != null ? { minFrom: signed.minFrom } : {};
  const artifacts = releaseArtifacts(signed);
  if (isSingleArtifactForm(artifacts)) {
    const a = artifacts[0]!;
    return {
      version: signed.version,
      sha256: a.sha256,
      size: a.size,
      url: a.url,
      migration: signed.migration,
      ...floor,
      signature,
      signatureAlg: RELEASE_SIGNATURE_ALG,
    };
  }
  return { version: signed.version, artifacts, migration: signed.migration, ...floor, signature, signatureAlg: RELEASE_SIGNATURE_ALG };
}

/** What a signature check needs of a manifest or an offer: the signed fields and the carrier. */
export type SignedCarrier = Readonly<AnyReleaseFields> & { readonly signature: string; readonly signatureAlg: string };

/**
 * True only when `m` carries an `ed25519` signature that verifies strictly (see ed25519.ts) over its
 * canonical signed bytes under `publicKey`. Never throws: malformed input answers false.
 */
export function verifyReleaseSignature(m: SignedCarrier, publicKey: Uint8Array): boolean {
  try {
    if (m.signatureAlg !== RELEASE_SIGNATURE_ALG) return false;
    const multi = 'artifacts' in m && m.artifacts !== undefined;
    const fields = multi
      ? MultiArchReleaseFields.safeParse({ version: m.version, artifacts: m.artifacts, migration: m.migration, minFrom: m.minFrom ?? null })
      : SignedReleaseFields.safeParse({
          version: m.version,
          sha256: (m as SignedReleaseFields).sha256,
          size: (m as SignedReleaseFields).size,
          url: (m as SignedReleaseFields).url,
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
