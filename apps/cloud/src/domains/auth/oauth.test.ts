import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OAuthError, formDecode, narrowScopes, parseBasicCredentials, readTokenRequest } from './oauth.ts';
import { STANDARD_OPERATOR_SCOPES } from '../../http/scopes.ts';

const basic = (id: string, secret: string, encode = encodeURIComponent) => `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;

function oauthErrorOf(fn: () => unknown): OAuthError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OAuthError) return e;
    throw e;
  }
  throw new Error('expected an OAuthError');
}

describe('parseBasicCredentials', () => {
  it('decodes form-urlencoded id and secret inside Basic (RFC 6749 §2.3.1)', () => {
    expect(parseBasicCredentials(basic('my client', 'p@ss:w/rd+1'))).toEqual({ clientId: 'my client', clientSecret: 'p@ss:w/rd+1' });
    // `+` inside the Basic payload is a form-encoded space
    expect(parseBasicCredentials(`Basic ${Buffer.from('a+b:c+d').toString('base64')}`)).toEqual({ clientId: 'a b', clientSecret: 'c d' });
  });

  it('splits at the first colon only, so a secret may hold raw colons', () => {
    expect(parseBasicCredentials(`Basic ${Buffer.from('id:se:cr:et').toString('base64')}`)).toEqual({ clientId: 'id', clientSecret: 'se:cr:et' });
  });

  it('is case-insensitive about the scheme and returns null for other schemes', () => {
    expect(parseBasicCredentials(basic('a', 'b').replace('Basic', 'bAsIc'))).toEqual({ clientId: 'a', clientSecret: 'b' });
    expect(parseBasicCredentials('Bearer abc')).toBeNull();
    expect(parseBasicCredentials('Basically abc')).toBeNull();
  });

  it.each([
    ['no payload', 'Basic'],
    ['not base64', 'Basic !!!!'],
    ['bad padding', 'Basic YWJj='],
    ['no colon', `Basic ${Buffer.from('justanid').toString('base64')}`],
    ['empty id', `Basic ${Buffer.from(':secret').toString('base64')}`],
    ['bad percent escape', `Basic ${Buffer.from('id:%zz').toString('base64')}`],
  ])('refuses %s as invalid_client with a Basic challenge', (_name, header) => {
    const e = oauthErrorOf(() => parseBasicCredentials(header));
    expect(e.status).toBe(401);
    expect(e.error).toBe('invalid_client');
    expect(e.headers['WWW-Authenticate']).toMatch(/^Basic /);
  });

  it('round-trips any client id (RFC 6749 VSCHAR, no colon) and any secret a client could encode', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[\x20-\x39\x3b-\x7e]{1,40}$/), fc.string({ maxLength: 40, unit: 'grapheme' }), (id, secret) => {
        expect(parseBasicCredentials(basic(id, secret))).toEqual({ clientId: id, clientSecret: secret });
      }),
    );
  });

  it('refuses, as invalid_client with a Basic challenge, any id holding a NUL, a control character, a colon or non-ASCII', () => {
    const bad = fc.constantFrom('\u0000', '\u0001', '\t', '\n', '\u007f', '\u0085', ':', 'é', '😀');
    const id = fc.tuple(fc.string({ maxLength: 10 }), bad, fc.string({ maxLength: 10 })).map(([a, b, c]) => a + b + c);
    fc.assert(
      fc.property(id, fc.string({ maxLength: 20 }), (i, secret) => {
        const e = oauthErrorOf(() => parseBasicCredentials(basic(i, secret)));
        expect([e.status, e.error]).toEqual([401, 'invalid_client']);
        expect(e.headers['WWW-Authenticate']).toMatch(/^Basic /);
      }),
    );
  });
});

describe('formDecode', () => {
  it('treats + as space and refuses broken escapes', () => {
    expect(formDecode('a+b%20c')).toBe('a b c');
    expect(formDecode('%E2%82%AC')).toBe('€');
    expect(formDecode('%')).toBeNull();
  });
});

describe('readTokenRequest', () => {
  const form = { grant_type: 'client_credentials', client_id: 'c1', client_secret: 's1' };

  it('reads body credentials and an optional scope', () => {
    expect(readTokenRequest(form, undefined)).toEqual({ grantType: 'client_credentials', clientId: 'c1', clientSecret: 's1', scope: null, basic: false });
    expect(readTokenRequest({ ...form, scope: 'orders:read machines:read orders:read' }, undefined).scope).toEqual(['orders:read', 'machines:read']);
    expect(readTokenRequest({ ...form, scope: '  ' }, undefined).scope).toBeNull();
  });

  it('reads Basic credentials, allowing a matching client_id in the body', () => {
    expect(readTokenRequest({ grant_type: 'client_credentials' }, basic('c1', 's1'))).toMatchObject({ clientId: 'c1', clientSecret: 's1', basic: true });
    expect(readTokenRequest({ grant_type: 'client_credentials', client_id: 'c1' }, basic('c1', 's1'))).toMatchObject({ basic: true });
  });

  it.each([
    ['Basic and a body secret at once', { ...form }, basic('c1', 's1'), 400, 'invalid_request'],
    ['Basic and a different body client_id', { grant_type: 'client_credentials', client_id: 'other' }, basic('c1', 's1'), 400, 'invalid_request'],
    ['no grant_type', { client_id: 'c1', client_secret: 's1' }, undefined, 400, 'invalid_request'],
    ['a repeated parameter', { ...form, grant_type: ['client_credentials', 'client_credentials'] }, undefined, 400, 'invalid_request'],
    ['an oversized parameter', { ...form, client_secret: 'x'.repeat(2000) }, undefined, 400, 'invalid_request'],
    ['another grant', { ...form, grant_type: 'password' }, undefined, 400, 'unsupported_grant_type'],
    ['a malformed scope', { ...form, scope: 'orders:read  machines:read' }, undefined, 400, 'invalid_scope'],
    ['a scope with a quote', { ...form, scope: 'a"b' }, undefined, 400, 'invalid_scope'],
    ['no credentials', { grant_type: 'client_credentials' }, undefined, 401, 'invalid_client'],
    ['an id without a secret', { grant_type: 'client_credentials', client_id: 'c1' }, undefined, 401, 'invalid_client'],
    ['a NUL in the body client_id', { ...form, client_id: '\u0000abc' }, undefined, 401, 'invalid_client'],
    ['a control character in the body client_id', { ...form, client_id: 'c\u001b1' }, undefined, 401, 'invalid_client'],
    ['a non-ASCII body client_id', { ...form, client_id: 'c\u00e91' }, undefined, 401, 'invalid_client'],
    ['a NUL in the Basic client id', { grant_type: 'client_credentials' }, basic('\u0000abc', 's1'), 401, 'invalid_client'],
    ['a Bearer header', { grant_type: 'client_credentials' }, 'Bearer abc', 401, 'invalid_client'],
    ['a body that is not a form', 'grant_type=client_credentials', undefined, 400, 'invalid_request'],
    ['no body', undefined, undefined, 400, 'invalid_request'],
  ])('refuses %s', (_name, body, header, status, error) => {
    const e = oauthErrorOf(() => readTokenRequest(body, header));
    expect(e.status).toBe(status);
    expect(e.error).toBe(error);
  });

  it('only a Basic attempt earns a Basic challenge on 401', () => {
    expect(oauthErrorOf(() => readTokenRequest({ grant_type: 'client_credentials' }, undefined)).headers).toEqual({});
    expect(oauthErrorOf(() => readTokenRequest({ grant_type: 'client_credentials' }, 'Basic !!')).headers['WWW-Authenticate']).toBeDefined();
  });

  it('ignores properties inherited rather than sent', () => {
    const body = Object.create({ grant_type: 'client_credentials' }) as Record<string, unknown>;
    expect(oauthErrorOf(() => readTokenRequest(body, undefined)).error).toBe('invalid_request');
  });
});

describe('narrowScopes', () => {
  const held = ['machines:read', 'orders:read'] as const;
  it("grants the client's whole set when nothing is requested, else exactly the request", () => {
    expect(narrowScopes(held, null)).toEqual(['machines:read', 'orders:read']);
    expect(narrowScopes(held, ['orders:read'])).toEqual(['orders:read']);
  });
  it('refuses a scope the client lacks or the service does not know', () => {
    expect(oauthErrorOf(() => narrowScopes(held, ['orders:read', 'accounts:admin'])).error).toBe('invalid_scope');
    expect(oauthErrorOf(() => narrowScopes(STANDARD_OPERATOR_SCOPES, ['admin'])).error).toBe('invalid_scope');
  });
});
