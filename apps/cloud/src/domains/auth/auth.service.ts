import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AppStore } from '../../repos.ts';
import { sha256Hex, verifySecret } from '../../crypto/secrets.ts';
import type { Authenticator, Fence, Principal } from '../../http/principal.ts';
import { ADMIN_SCOPES, SCOPES, STANDARD_OPERATOR_SCOPES, parseScopes, type Scope } from '../../http/scopes.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { ACCESS_TOKEN_PREFIX, maskSecret, parseApiKey } from './credentials.ts';
import type { CredentialsData, MeData } from './auth.schemas.ts';

export interface BearerVerifier {
  /** Verifies an identity-provider JWT; null when it is not one this deployment trusts. */
  verify(token: string): Promise<Principal | null>;
}

/** What a signed-in operator may hold: admins every scope, others the standard operator set (spec 1 §5). */
export function operatorScopes(admin: boolean): readonly Scope[] {
  return admin ? ADMIN_SCOPES : STANDARD_OPERATOR_SCOPES;
}

export interface AuthDeps {
  store: AppStore;
  clock: Clock;
  config: Pick<Config, 'rateLimitPerHour'>;
  /** Identity-provider JWTs, when the deployment trusts an issuer (IDP_*); null: only opaque tokens. */
  jwt: BearerVerifier | null;
}

/** Resolves API keys and bearer tokens to a Principal, and answers who that principal is. */
export class AuthService implements Authenticator {
  constructor(private readonly deps: AuthDeps) {}

  private get repo() {
    return this.deps.store.repos.auth;
  }

  private get defaultRateLimit(): number {
    return this.deps.config.rateLimitPerHour;
  }

  async fromApiKey(raw: string): Promise<Principal | null> {
    const parsed = parseApiKey(raw);
    if (!parsed) return null;
    const row = await this.repo.apiKeyWithOperator(parsed.keyId);
    if (!row || row.revoked_at !== null || !verifySecret(parsed.secret, row.secret_hash)) return null;
    return {
      operatorId: row.operator_id,
      operatorEmail: row.email,
      admin: row.admin === 1,
      scopes: new Set(parseScopes(row.scopes)),
      authMethod: 'api_key',
      credentialId: row.id,
      rateLimit: row.rate_limit ?? this.defaultRateLimit,
      plant: row.plant,
      fence: null,
    };
  }

  /**
   * Opaque `vat_` tokens are looked up by their SHA-256. An OAuth token lives only as long as its
   * client: a revoked or deleted client's tokens stop working, a client whose scopes were narrowed
   * since issuance gets the narrower set, and the client's own rate limit applies. An access-group
   * session (kind `access`) is fenced by its person's assignment as it stands now: gone → 401; its scopes
   * narrow with the group's (docs/decisions/access.md).
   */
  async fromBearer(token: string): Promise<Principal | null> {
    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const row = await this.repo.accessTokenWithOperator(sha256Hex(token));
      const now = this.deps.clock.now();
      if (!row || row.expires_at <= now) return null;
      let scopes = parseScopes(row.scopes);
      let rateLimit = this.defaultRateLimit;
      let fence: Fence | null = null;
      if (row.kind === 'access') {
        const f = await this.deps.store.repos.access.sessionFence(row.credential_id, now);
        if (!f || f.operator_id !== row.operator_id) return null;
        const groupScopes = parseScopes(f.scopes);
        scopes = scopes.filter((s) => groupScopes.includes(s));
        fence = { username: f.username, groupId: f.group_id, groupName: f.group_name, machineNos: new Set(f.machine_nos) };
      }
      if (row.kind === 'oauth') {
        if (row.client_id === null || row.client_revoked_at !== null) return null;
        const clientScopes = parseScopes(row.client_scopes ?? '');
        scopes = scopes.filter((s) => clientScopes.includes(s));
        rateLimit = row.client_rate_limit ?? this.defaultRateLimit;
      }
      return {
        operatorId: row.operator_id,
        operatorEmail: row.email,
        // a fenced session never carries the operator's admin power
        admin: row.admin === 1 && fence === null,
        scopes: new Set(scopes),
        authMethod: row.kind,
        credentialId: row.credential_id,
        rateLimit,
        plant: null,
        fence,
      };
    }
    return this.deps.jwt ? this.deps.jwt.verify(token) : null;
  }

  /** The caller as the service sees it; the operator's currency, null for full admins. */
  async me(p: Principal): Promise<MeData> {
    const op = await this.repo.operatorById(p.operatorId);
    return {
      userId: p.operatorId,
      operatorEmail: p.operatorEmail,
      admin: p.admin,
      scopes: SCOPES.filter((s) => p.scopes.has(s)),
      authMethod: p.authMethod,
      currency: p.admin ? null : (op?.currency ?? null),
    };
  }

  /** The operator's API keys and OAuth clients: handles, scopes and limits, never a secret or its hash. */
  async credentials(p: Principal): Promise<CredentialsData> {
    const [keys, clients] = await Promise.all([this.repo.apiKeysOf(p.operatorId), this.repo.oauthClientsOf(p.operatorId)]);
    return {
      apiKeys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        key: maskSecret(`vk_${k.id}`),
        scopes: parseScopes(k.scopes),
        rateLimit: k.rate_limit ?? this.defaultRateLimit,
        plant: k.plant,
        createdAt: formatTimestamp(k.created_at),
        revoked: k.revoked_at !== null,
      })),
      oauthClients: clients.map((c) => ({
        clientId: c.id,
        name: c.name,
        clientSecret: '••••••••',
        scopes: parseScopes(c.scopes),
        rateLimit: c.rate_limit ?? this.defaultRateLimit,
        createdAt: formatTimestamp(c.created_at),
        revoked: c.revoked_at !== null,
      })),
    };
  }
}
