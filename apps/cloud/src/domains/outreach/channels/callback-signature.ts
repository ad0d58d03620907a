import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The provider's signed callbacks (status and inbound), Twilio-style: `X-Outreach-Signature` is the base64
 * HMAC-SHA256, keyed with OUTREACH_WEBHOOK_SECRET, of the request path followed by every form parameter,
 * sorted by name, each as `\n` + URI-encoded name + `=` + URI-encoded value. Unlike Twilio's bare
 * concatenation, the separators keep field boundaries fixed (`{a: 'bc'}` and `{a: 'b', c: ''}`-style
 * collisions cannot share a signature). The path (not the full URL) is signed so a proxy in front of the
 * cloud does not break the check (docs/decisions/outreach.md).
 */
export const CALLBACK_SIGNATURE_HEADER = 'x-outreach-signature';

function mac(secret: string, path: string, params: Record<string, string>): Buffer {
  const h = createHmac('sha256', secret).update(path);
  for (const k of Object.keys(params).sort()) h.update(`\n${encodeURIComponent(k)}=${encodeURIComponent(params[k]!)}`);
  return h.digest();
}

export function signCallback(secret: string, path: string, params: Record<string, string>): string {
  return mac(secret, path, params).toString('base64');
}

/** Constant-time check of a callback's signature; false on anything malformed. Never throws. */
export function verifyCallback(secret: string | undefined, path: string, params: Record<string, string>, signature: unknown): boolean {
  if (!secret || typeof signature !== 'string' || signature.length === 0 || signature.length > 128) return false;
  const given = Buffer.from(signature, 'base64');
  const expected = mac(secret, path, params);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
