import type { Scope } from './scopes.ts';

export type AuthMethod = 'api_key' | 'oauth' | 'session' | 'jwt' | 'access';

/**
 * An access-group session (docs/decisions/access.md): a person acting on an operator's fleet, narrowed to
 * one group's machines. Resolved from the live assignment on every request.
 */
export interface Fence {
  /** The person: the email of the account that opened the session. */
  username: string;
  groupId: string;
  groupName: string;
  machineNos: ReadonlySet<string>;
}

/** Who is calling, resolved once per request by the authentication middleware. */
export interface Principal {
  operatorId: string;
  operatorEmail: string;
  admin: boolean;
  scopes: ReadonlySet<Scope>;
  authMethod: AuthMethod;
  /** API key id, OAuth client id, session id or JWT subject: what the audit log and rate limit key on. */
  credentialId: string;
  /** Requests per hour for this credential. */
  rateLimit: number;
  /** Factory keys only: the plant named on the key. */
  plant: string | null;
  /** Access-group sessions only: the machines this caller may act on; null for the operator's whole fleet. */
  fence: Fence | null;
}

/** Resolves credentials; implemented by the auth domain. */
export interface Authenticator {
  /** The raw `X-API-Key` value; null when it is not a valid key. */
  fromApiKey(raw: string): Promise<Principal | null>;
  /** The raw bearer token (opaque access token or identity-provider JWT); null when invalid. */
  fromBearer(token: string): Promise<Principal | null>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      principal?: Principal;
    }
  }
}
