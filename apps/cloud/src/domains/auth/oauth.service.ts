import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../http/audit.ts';
import type { RateLimiter } from '../../http/rate-limit.ts';
import type { AppStore } from '../../repos.ts';
import { hashSecret, sha256Hex, verifySecret } from '../../crypto/secrets.ts';
import type { Principal } from '../../http/principal.ts';
import { formatScopes, parseScopes } from '../../http/scopes.ts';
import { mintAccessToken } from './credentials.ts';
import { BASIC_CHALLENGE, OAuthError, narrowScopes, type TokenRequest } from './oauth.ts';
import type { TokenResponse } from './auth.schemas.ts';

const RATE_WINDOW_SECONDS = 3600;

export interface OAuthDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Issuing a token spends the client's hourly budget. */
  rateLimiter: Pick<RateLimiter, 'consume'>;
  config: Pick<Config, 'rateLimitPerHour' | 'oauthTokenTtlSeconds'>;
}

/** OAuth 2.0 client credentials (RFC 6749 §4.4): authenticates the client and issues an opaque access token. */
export class OAuthService {
  /** Compared against when the client id is unknown, so a miss costs what a hit costs. */
  private readonly decoyHash = hashSecret('decoy-client-secret');

  constructor(private readonly deps: OAuthDeps) {}

  async issueToken(req: TokenRequest): Promise<TokenResponse> {
    const { deps } = this;
    const client = await deps.store.repos.auth.oauthClientWithOperator(req.clientId);
    const secretOk = verifySecret(req.clientSecret, client?.secret_hash ?? this.decoyHash);
    if (!client || !secretOk || client.revoked_at !== null) {
      throw new OAuthError(401, 'invalid_client', 'Client authentication failed', req.basic ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {});
    }
    const granted = narrowScopes(parseScopes(client.scopes), req.scope);

    // Issuing a token spends one request of the client's hourly budget: the same bucket its API calls use.
    const rateLimit = client.rate_limit ?? deps.config.rateLimitPerHour;
    if (!(await deps.rateLimiter.consume(`oauth:${client.id}`, rateLimit))) {
      throw new OAuthError(429, 'rate_limited', 'Rate limit exceeded', { 'Retry-After': String(RATE_WINDOW_SECONDS) });
    }

    const now = deps.clock.now();
    const ttl = deps.config.oauthTokenTtlSeconds;
    const token = mintAccessToken();
    const actor: Principal = {
      operatorId: client.operator_id,
      operatorEmail: client.email,
      admin: client.admin === 1,
      scopes: new Set(granted),
      authMethod: 'oauth',
      credentialId: client.id,
      rateLimit,
      plant: null,
      fence: null,
    };
    await deps.store.transaction(async (tx) => {
      const txRepo = tx.auth;
      await txRepo.deleteExpiredTokensOf(client.operator_id, now);
      await txRepo.insertAccessToken({
        token_hash: sha256Hex(token),
        operator_id: client.operator_id,
        kind: 'oauth',
        credential_id: client.id,
        scopes: formatScopes(granted),
        created_at: now,
        expires_at: now + ttl * 1000,
      });
      await deps.audit.record(tx, actor, 'oauth.token', `oauth_client:${client.id}`);
    });
    return { access_token: token, token_type: 'Bearer', expires_in: ttl, scope: formatScopes(granted) };
  }
}
