import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from './webhook-signature.ts';

const secret = 'test-secret-0123456789';
const body = Buffer.from('{"id":"evt_1","type":"payment.refunded","data":{"paymentId":"pay_1"}}');
const ts = 1_795_176_000;
const now = ts * 1000;

describe('webhook signature', () => {
  it('is v1= and the hex HMAC-SHA256 of "<timestamp>.<raw body>"', () => {
    const expected = createHmac('sha256', secret).update(`${ts}.${body.toString()}`).digest('hex');
    expect(signWebhook(secret, ts, body)).toBe(`v1=${expected}`);
  });

  it('accepts a good signature within the tolerance either side', () => {
    const signature = signWebhook(secret, ts, body);
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: body, nowMs: now })).toEqual({ ok: true });
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: body, nowMs: now + 300_000 }).ok).toBe(true);
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: body, nowMs: now - 300_000 }).ok).toBe(true);
  });

  it('refuses a timestamp more than 300 s old or ahead', () => {
    const signature = signWebhook(secret, ts, body);
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: body, nowMs: now + 301_000 })).toEqual({
      ok: false,
      reason: expect.stringContaining('tolerance'),
    });
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: body, nowMs: now - 301_000 }).ok).toBe(false);
  });

  it('refuses missing or malformed headers', () => {
    const signature = signWebhook(secret, ts, body);
    for (const [timestamp, sig] of [
      [undefined, signature],
      ['', signature],
      ['17951760OO', signature],
      ['-1795176000', signature],
      [String(ts), undefined],
      [String(ts), 'v2=' + signature.slice(3)],
      [String(ts), signature.slice(3)],
      [String(ts), signature + '00'],
      [String(ts), ['a', 'b']],
    ] as const)
      expect(verifyWebhook({ secret, timestamp, signature: sig, rawBody: body, nowMs: now }).ok).toBe(false);
  });

  it('refuses a changed body, a changed timestamp or another secret', () => {
    const signature = signWebhook(secret, ts, body);
    expect(verifyWebhook({ secret, timestamp: String(ts), signature, rawBody: Buffer.concat([body, Buffer.from(' ')]), nowMs: now }).ok).toBe(false);
    expect(verifyWebhook({ secret, timestamp: String(ts + 1), signature, rawBody: body, nowMs: now }).ok).toBe(false);
    expect(verifyWebhook({ secret: secret + 'x', timestamp: String(ts), signature, rawBody: body, nowMs: now }).ok).toBe(false);
  });
});
