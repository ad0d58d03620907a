import { describe, expect, it } from 'vitest';
import { signCallback, verifyCallback } from './callback-signature.ts';

const SECRET = 'callback-secret-0123456789';
const PATH = '/api/v1/dfy/outreach/callbacks/status';

describe('provider callback signatures', () => {
  const params = { MessageSid: 'SM1', MessageStatus: 'delivered' };
  const sig = signCallback(SECRET, PATH, params);

  it('accepts the signature of the same path and fields, whatever their order', () => {
    expect(verifyCallback(SECRET, PATH, { MessageStatus: 'delivered', MessageSid: 'SM1' }, sig)).toBe(true);
  });

  it('refuses a changed field, an added field, another path, another key, and a missing key or signature', () => {
    expect(verifyCallback(SECRET, PATH, { ...params, MessageStatus: 'failed' }, sig)).toBe(false);
    expect(verifyCallback(SECRET, PATH, { ...params, Extra: '' }, sig)).toBe(false);
    expect(verifyCallback(SECRET, '/api/v1/dfy/outreach/callbacks/inbound', params, sig)).toBe(false);
    expect(verifyCallback('another-secret-0123456789', PATH, params, sig)).toBe(false);
    expect(verifyCallback(undefined, PATH, params, sig)).toBe(false);
    for (const bad of [undefined, '', 42, ['a'], 'x'.repeat(200), sig.slice(0, -4)]) expect(verifyCallback(SECRET, PATH, params, bad)).toBe(false);
  });

  it('does not let a field boundary move (bare name+value concatenation would sign these the same)', () => {
    expect(verifyCallback(SECRET, PATH, { MessageSid: 'SM1MessageStatusdelivered' }, sig)).toBe(false);
  });
});
