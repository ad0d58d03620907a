import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '@vend/protocol';
import { AppError } from '../../http/errors.ts';
import { hasUnsafeChars } from '@vend/protocol';
import type { Principal } from '../../http/principal.ts';
import type { Scope } from '../../http/scopes.ts';
import { operatorScopes, type BearerVerifier } from './auth.service.ts';
import type { AuthRepo } from './auth.repo.ts';

/** One trusted token issuer: the platform's user pool (IDP_*) or the social sign-in provider (SOCIAL_*). */
export interface IssuerConfig {
  issuer: string;
  jwksUrl: string;
  audience: string | undefined;
}

/** Asymmetric algorithms only: a JWKS never holds an HMAC secret, and `none` is never accepted. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** Seconds of clock skew tolerated on `exp`/`nbf`/`iat`. */
export const CLOCK_TOLERANCE_SECONDS = 30;
const MAX_TOKEN_LENGTH = 8192;

/** jose failures that say "this token is no good", as opposed to "the issuer's keys could not be had". */
const TOKEN_FAULTS = new Set<string>([
  errors.JWTClaimValidationFailed.code,
  errors.JWTExpired.code,
  errors.JWTInvalid.code,
  errors.JWSInvalid.code,
  errors.JWSSignatureVerificationFailed.code,
  errors.JOSEAlgNotAllowed.code,
  errors.JOSENotSupported.code,
  errors.JWKSNoMatchingKey.code,
  errors.JWKSMultipleMatchingKeys.code,
  errors.JWKInvalid.code,
]);

/**
 * Verifies identity tokens (JWTs) of one issuer against its published key set. The key set is
 * fetched on first use and cached by jose (refetched at most every 30 s for an unknown `kid`).
 * Time is the injected clock's.
 */
export class IdentityTokenVerifier {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly cfg: IssuerConfig,
    private readonly clock: Clock,
  ) {
    this.keys = createRemoteJWKSet(new URL(cfg.jwksUrl), { timeoutDuration: 5000 });
  }

  /** The verified claims; null when the token is not a valid one of this issuer. 503 when its keys cannot be fetched. */
  async verify(token: string): Promise<JWTPayload | null> {
    if (token.length > MAX_TOKEN_LENGTH || token.split('.').length !== 3) return null;
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: this.cfg.issuer,
        algorithms: ALGORITHMS,
        currentDate: new Date(this.clock.now()),
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (e) {
      if (e instanceof errors.JOSEError && TOKEN_FAULTS.has(e.code)) return null;
      throw new AppError('unavailable', 'Identity provider unavailable', { cause: e });
    }
    if (this.cfg.audience !== undefined && !audienceMatches(payload, this.cfg.audience)) return null;
    // `sub` becomes the credential id the audit log stores: text PostgreSQL can hold, of a sane length.
    if (!subjectIsStorable(payload.sub)) return null;
    return payload;
  }
}

/** A subject we can key budgets and audit rows by: a non-empty string of at most 255 characters, no control characters or lone surrogates. */
export function subjectIsStorable(sub: unknown): sub is string {
  return typeof sub === 'string' && sub.length > 0 && sub.length <= 255 && !hasUnsafeChars(sub, false);
}

/**
 * `aud` names the configured audience, or — for user-pool access tokens, which carry no `aud` —
 * `client_id` does (the Cognito convention).
 */
export function audienceMatches(claims: JWTPayload, audience: string): boolean {
  const aud = claims.aud;
  if (typeof aud === 'string') return aud === audience;
  if (Array.isArray(aud)) return aud.includes(audience);
  return claims['client_id'] === audience;
}

/**
 * The operator email a token speaks for: `email`, else `cognito:username`, else `username` (user
 * pools whose username is the email address). Null when none looks like an email or the issuer
 * says the address is unverified.
 */
export function identityEmailOf(claims: JWTPayload): string | null {
  const verified = claims['email_verified'];
  if (verified === false || verified === 'false') return null;
  for (const name of ['email', 'cognito:username', 'username']) {
    const v = claims[name];
    if (typeof v === 'string' && v.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(v) && !hasUnsafeChars(v, false)) return v.toLowerCase();
  }
  return null;
}

/**
 * Scopes of a JWT principal: what the `scope` claim (space-separated string, or array) names,
 * intersected with what the operator may hold; the operator's full set when the claim is absent.
 */
export function jwtScopes(claims: JWTPayload, allowed: readonly Scope[]): Scope[] {
  const raw = claims['scope'];
  if (raw === undefined) return [...allowed];
  const words = typeof raw === 'string' ? raw.split(/\s+/) : Array.isArray(raw) ? raw.filter((w): w is string => typeof w === 'string') : [];
  return allowed.filter((s) => words.includes(s));
}

/** `Authorization: Bearer <JWT>` from the platform's user pool, mapped to an existing operator. */
export class IdpBearerVerifier implements BearerVerifier {
  constructor(
    private readonly tokens: IdentityTokenVerifier,
    private readonly repo: AuthRepo,
    private readonly defaultRateLimit: number,
  ) {}

  async verify(token: string): Promise<Principal | null> {
    const claims = await this.tokens.verify(token);
    if (!claims?.sub) return null;
    const email = identityEmailOf(claims);
    if (!email) return null;
    const op = await this.repo.operatorByEmail(email);
    if (!op) return null;
    const admin = op.admin === 1;
    return {
      operatorId: op.id,
      operatorEmail: op.email,
      admin,
      scopes: new Set(jwtScopes(claims, operatorScopes(admin))),
      authMethod: 'jwt',
      credentialId: claims.sub,
      rateLimit: this.defaultRateLimit,
      plant: null,
      fence: null,
    };
  }
}
