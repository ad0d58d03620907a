import { describe, expect, it } from 'vitest';
import { audienceMatches, identityEmailOf, jwtScopes } from './id-token.ts';
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
