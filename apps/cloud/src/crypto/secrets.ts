import { createCipheriv, createDecipheriv, createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** 32 random bytes, URL-safe base64: the shape of every minted secret. */
export function mintSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Salted SHA-256 for high-entropy machine secrets (API keys, client secrets, device keys): cheap
 * enough for hot legs, and safe because the secret itself carries 256 bits. Form `s256$<salt>$<hex>`.
 */
export function hashSecret(secret: string, salt = randomBytes(16).toString('base64url')): string {
  return `s256$${salt}$${createHash('sha256').update(salt).update(secret).digest('hex')}`;
}

export function verifySecret(secret: string, stored: string): boolean {
  const [scheme, salt, hex] = stored.split('$');
  if (scheme !== 's256' || !salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = createHash('sha256').update(salt).update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Constant-time comparison of two strings of possibly different length. */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Low-entropy human passwords: scrypt, form `scrypt$N$r$p$<salt>$<key>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Without a stored hash, still spend the same work so timing does not reveal which emails exist.
  const parts = (stored ?? `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$AAAAAAAAAAAAAAAAAAAAAA$`).split('$');
  const [scheme, n, r, p, salt, key] = parts;
  if (scheme !== 'scrypt' || !n || !r || !p || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), SCRYPT.keylen, { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Secrets that must be read back (TOTP seeds) are sealed with AES-256-GCM under a key derived from
 * the deployment's DATA_KEY. Form `gcm$<iv>$<tag>$<ciphertext>`.
 */
export class Sealer {
  private readonly key: Buffer;
  constructor(dataKey: string) {
    this.key = createHash('sha256').update(`vend-seal:${dataKey}`).digest();
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `gcm$${iv.toString('base64url')}$${cipher.getAuthTag().toString('base64url')}$${ct.toString('base64url')}`;
  }
  open(sealed: string): string {
    const [scheme, iv, tag, ct] = sealed.split('$');
    if (scheme !== 'gcm' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}
