import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The cashless provider's webhook signature (docs/payments-webhook.md):
 * `X-Vend-Signature: v1=<hex HMAC-SHA256(secret, "<X-Vend-Timestamp>.<raw body>")>`, with
 * `X-Vend-Timestamp` in unix seconds and at most 300 s away from our clock either way.
 */
export const TIMESTAMP_HEADER = 'x-vend-timestamp';
export const SIGNATURE_HEADER = 'x-vend-signature';
export const TOLERANCE_SECONDS = 300;

const TIMESTAMP = /^\d{1,12}$/;
const SIGNATURE = /^v1=([0-9a-f]{64})$/;

function mac(secret: string, timestamp: string, rawBody: Buffer | string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

/** The header value a provider sends for this body at this time. */
export function signWebhook(secret: string, timestamp: number | string, rawBody: Buffer | string): string {
  return `v1=${mac(secret, String(timestamp), rawBody).toString('hex')}`;
}

export type Verdict = { ok: true } | { ok: false; reason: string };

/** Checks freshness, then the signature in constant time. Never throws. */
export function verifyWebhook(opts: {
  secret: string;
  timestamp: unknown;
  signature: unknown;
  rawBody: Buffer;
  nowMs: number;
  toleranceSeconds?: number;
}): Verdict {
  const { timestamp, signature } = opts;
  if (typeof timestamp !== 'string' || timestamp === '') return { ok: false, reason: 'missing X-Vend-Timestamp' };
  if (!TIMESTAMP.test(timestamp)) return { ok: false, reason: 'X-Vend-Timestamp must be unix seconds' };
  const skew = Math.abs(opts.nowMs / 1000 - Number(timestamp));
  if (skew > (opts.toleranceSeconds ?? TOLERANCE_SECONDS)) return { ok: false, reason: 'X-Vend-Timestamp is outside the 300 s tolerance' };
  if (typeof signature !== 'string' || signature === '') return { ok: false, reason: 'missing X-Vend-Signature' };
  const m = SIGNATURE.exec(signature.trim().toLowerCase());
  if (!m?.[1]) return { ok: false, reason: 'X-Vend-Signature must be v1=<64 hex digits>' };
  const given = Buffer.from(m[1], 'hex');
  const expected = mac(opts.secret, timestamp, opts.rawBody);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature does not match' };
  return { ok: true };
}
