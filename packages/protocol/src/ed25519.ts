import nacl from 'tweetnacl';

/**
 * Strict Ed25519 verification: tweetnacl's `sign.detached.verify` (the cofactorless equation
 * [S]B = R + [k]A, compared on the encoding of R) behind the checks libsodium makes first and
 * tweetnacl does not. Pure code over BigInt; no I/O.
 *
 * Refused before any curve equation is evaluated:
 * - a signature that is not 64 bytes or a public key that is not 32 bytes;
 * - S ≥ L (a malleable, non-canonical scalar — RFC 8032 §5.1.7 step 1);
 * - a non-canonical encoding of A or R: y ≥ p, or x = 0 with the sign bit set, or no point with that y;
 * - A or R of small order (8·P = identity, which includes the identity itself).
 *
 * Mixed-order points (a prime-order point plus a torsion component) are refused only where the
 * cofactorless equation refuses them, exactly as libsodium does: ed25519-speccheck case 6 (mixed-order
 * A and R that satisfy both equations) verifies under libsodium, and the vectors require it to.
 */

const P = 2n ** 255n - 19n;
/** Order of the prime-order subgroup. */
export const ED25519_L = 2n ** 252n + 27742317777372353535851937790883648493n;
const D = mod(-121665n * inv(121666n));
const D2 = mod(2n * D);
const SQRT_M1 = pow(2n, (P - 1n) / 4n);

function mod(a: bigint, m = P): bigint {
  const r = a % m;
  return r >= 0n ? r : r + m;
}

function pow(base: bigint, exp: bigint): bigint {
  let result = 1n;
  let b = mod(base);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % P;
    b = (b * b) % P;
    e >>= 1n;
  }
  return result;
}

function inv(a: bigint): bigint {
  return pow(a, P - 2n);
}

/** A point in extended twisted-Edwards coordinates (x = X/Z, y = Y/Z, xy = T/Z). */
export interface EdwardsPoint {
  X: bigint;
  Y: bigint;
  Z: bigint;
  T: bigint;
}

const IDENTITY: EdwardsPoint = { X: 0n, Y: 1n, Z: 1n, T: 0n };

/** Unified addition (add-2008-hwcd-3 for a = −1): complete on edwards25519, so it also doubles. */
function add(p: EdwardsPoint, q: EdwardsPoint): EdwardsPoint {
  const a = mod((p.Y - p.X) * (q.Y - q.X));
  const b = mod((p.Y + p.X) * (q.Y + q.X));
  const c = mod(p.T * D2 * q.T);
  const d = mod(2n * p.Z * q.Z);
  const e = b - a;
  const f = d - c;
  const g = d + c;
  const h = b + a;
  return { X: mod(e * f), Y: mod(g * h), Z: mod(f * g), T: mod(e * h) };
}

function multiply(p: EdwardsPoint, k: bigint): EdwardsPoint {
  let result = IDENTITY;
  let addend = p;
  let e = k;
  while (e > 0n) {
    if (e & 1n) result = add(result, addend);
    addend = add(addend, addend);
    e >>= 1n;
  }
  return result;
}

function isIdentity(p: EdwardsPoint): boolean {
  return mod(p.X) === 0n && mod(p.Y - p.Z) === 0n;
}

function littleEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

/** RFC 8032 §5.1.3 decoding, refusing every non-canonical form; null when the bytes name no point. */
export function decodePointStrict(bytes: Uint8Array): EdwardsPoint | null {
  if (bytes.length !== 32) return null;
  const sign = (bytes[31]! & 0x80) !== 0;
  const copy = Uint8Array.from(bytes);
  copy[31] = copy[31]! & 0x7f;
  const y = littleEndian(copy);
  if (y >= P) return null;
  const yy = (y * y) % P;
  const u = mod(yy - 1n);
  const v = mod(D * yy + 1n);
  const v3 = (v * v * v) % P;
  let x = mod(u * v3 * pow(u * v3 * v3 * v, (P - 5n) / 8n));
  const vxx = mod(v * x * x);
  if (vxx === u) {
    // x is a root
  } else if (vxx === mod(-u)) {
    x = mod(x * SQRT_M1);
  } else {
    return null;
  }
  if (x === 0n && sign) return null;
  if ((x & 1n) !== (sign ? 1n : 0n)) x = P - x;
  return { X: x, Y: y, Z: 1n, T: mod(x * y) };
}

/** True when 8·P is the identity: one of the eight points of small order. */
export function hasSmallOrder(p: EdwardsPoint): boolean {
  return isIdentity(multiply(p, 8n));
}

function acceptablePoint(bytes: Uint8Array): boolean {
  const point = decodePointStrict(bytes);
  return point !== null && !hasSmallOrder(point);
}

/**
 * Verifies an Ed25519 signature under the strict rules above. Never throws on malformed input:
 * anything that is not exactly a valid signature answers false.
 */
export function verifyEd25519Strict(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (!(message instanceof Uint8Array) || !(signature instanceof Uint8Array) || !(publicKey instanceof Uint8Array)) return false;
  if (signature.length !== nacl.sign.signatureLength || publicKey.length !== nacl.sign.publicKeyLength) return false;
  if (littleEndian(signature.subarray(32)) >= ED25519_L) return false;
  if (!acceptablePoint(publicKey) || !acceptablePoint(signature.subarray(0, 32))) return false;
  return nacl.sign.detached.verify(message, signature, publicKey);
}

/** True when `publicKey` could ever verify a signature here: 32 bytes, a canonical encoding, on the curve, not of small order. */
export function isAcceptablePublicKey(publicKey: Uint8Array): boolean {
  return publicKey instanceof Uint8Array && publicKey.length === nacl.sign.publicKeyLength && acceptablePoint(publicKey);
}
