import { describe, expect, it } from 'vitest';
import { audienceMatches, identityEmailOf, jwtScopes, subjectIsStorable } from './id-token.ts';
import { ADMIN_SCOPES, STANDARD_OPERATOR_SCOPES } from '../../http/scopes.ts';

describe('identity token claims', () => {
  it('takes the email claim, lower-cased', () => {
    expect(identityEmailOf({ email: 'Alice@Example.TEST', username: 'bob@example.test' })).toBe('alice@example.test');
  });

  it('falls back to cognito:username, then username, when they are email addresses', () => {
    expect(identityEmailOf({ 'cognito:username': 'c@example.test', username: 'u@example.test' })).toBe('c@example.test');
    expect(identityEmailOf({ username: 'u@example.test' })).toBe('u@example.test');
    expect(identityEmailOf({ 'cognito:username': 'not-an-email', username: 'u@example.test' })).toBe('u@example.test');
    expect(identityEmailOf({ username: 'just-a-name' })).toBeNull();
    expect(identityEmailOf({})).toBeNull();
  });

  it('refuses an address holding a NUL, a control character or a lone surrogate (it would reach the store)', () => {
    for (const bad of [
      'a\u0000@example.test',
      'a@exa\u0000mple.test',
      'a\u0001b@example.test',
      'a\u007f@example.test',
      'a\u0085@example.test',
      'a\ud800@example.test',
    ]) {
      expect(identityEmailOf({ email: bad }), JSON.stringify(bad)).toBeNull();
      expect(identityEmailOf({ username: bad }), JSON.stringify(bad)).toBeNull();
    }
  });

  it('keys budgets and audit rows only by a storable subject', () => {
    expect(subjectIsStorable('user-alice')).toBe(true);
    expect(subjectIsStorable('5f1c9a7e-0000-4000-8000-000000000001')).toBe(true);
    for (const bad of ['', 'a\u0000b', 'a\nb', 'a\ud800', 'x'.repeat(256), 42, undefined]) expect(subjectIsStorable(bad), JSON.stringify(bad)).toBe(false);
  });

  it('refuses an address the issuer says is unverified', () => {
    expect(identityEmailOf({ email: 'a@example.test', email_verified: false })).toBeNull();
    expect(identityEmailOf({ email: 'a@example.test', email_verified: 'false' })).toBeNull();
    expect(identityEmailOf({ email: 'a@example.test', email_verified: true })).toBe('a@example.test');
  });

  it('matches the audience by aud (string or list) or, without aud, by client_id', () => {
    expect(audienceMatches({ aud: 'api' }, 'api')).toBe(true);
    expect(audienceMatches({ aud: ['x', 'api'] }, 'api')).toBe(true);
    expect(audienceMatches({ aud: 'other' }, 'api')).toBe(false);
    expect(audienceMatches({ aud: 'other', client_id: 'api' }, 'api')).toBe(false);
    expect(audienceMatches({ client_id: 'api' }, 'api')).toBe(true);
    expect(audienceMatches({}, 'api')).toBe(false);
  });

  it("grants the operator's full set without a scope claim, else the intersection", () => {
    expect(jwtScopes({}, STANDARD_OPERATOR_SCOPES)).toEqual([...STANDARD_OPERATOR_SCOPES]);
    expect(jwtScopes({ scope: 'openid orders:read accounts:admin' }, STANDARD_OPERATOR_SCOPES)).toEqual(['orders:read']);
    expect(jwtScopes({ scope: 'openid orders:read accounts:admin' }, ADMIN_SCOPES)).toEqual(['orders:read', 'accounts:admin']);
    expect(jwtScopes({ scope: ['machines:read', 7] }, STANDARD_OPERATOR_SCOPES)).toEqual(['machines:read']);
    expect(jwtScopes({ scope: 'openid' }, STANDARD_OPERATOR_SCOPES)).toEqual([]);
    expect(jwtScopes({ scope: 42 }, STANDARD_OPERATOR_SCOPES)).toEqual([]);
  });
});
