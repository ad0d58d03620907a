import type { Insertable, Kysely } from 'kysely';
import type { AccessTokensTable, DB, MfaTicketsTable } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';

/**
 * SQL of authentication: credential lookups (reading operators, API keys, OAuth clients), bearer
 * tokens and the sign-in (MFA) state. The one writer of `access_tokens`, `mfa_tickets`,
 * `recovery_codes` and `totp_uses` (and of `oauth_clients`, which only the seed writes today).
 */
export class AuthRepo {
  constructor(private readonly db: Kysely<DB>) {}

  operatorById(id: string) {
    return this.db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  }

  operatorByEmail(email: string) {
    return this.db.selectFrom('operators').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  apiKeyWithOperator(keyId: string) {
    return this.db
      .selectFrom('api_keys')
      .innerJoin('operators', 'operators.id', 'api_keys.operator_id')
      .select([
        'api_keys.id',
        'api_keys.secret_hash',
        'api_keys.scopes',
        'api_keys.rate_limit',
        'api_keys.plant',
        'api_keys.revoked_at',
        'operators.id as operator_id',
        'operators.email',
        'operators.admin',
      ])
      .where('api_keys.id', '=', keyId)
      .executeTakeFirst();
  }

  /** A bearer token with its operator and, for OAuth tokens, the issuing client (null when gone). */
  accessTokenWithOperator(tokenHash: string) {
    return this.db
      .selectFrom('access_tokens')
      .innerJoin('operators', 'operators.id', 'access_tokens.operator_id')
      .leftJoin('oauth_clients', (join) => join.onRef('oauth_clients.id', '=', 'access_tokens.credential_id').on('access_tokens.kind', '=', 'oauth'))
      .select([
        'access_tokens.kind',
        'access_tokens.credential_id',
        'access_tokens.scopes',
        'access_tokens.expires_at',
        'operators.id as operator_id',
        'operators.email',
        'operators.admin',
        'oauth_clients.id as client_id',
        'oauth_clients.scopes as client_scopes',
        'oauth_clients.rate_limit as client_rate_limit',
        'oauth_clients.revoked_at as client_revoked_at',
      ])
      .where('access_tokens.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  oauthClientWithOperator(clientId: string) {
    return this.db
      .selectFrom('oauth_clients')
      .innerJoin('operators', 'operators.id', 'oauth_clients.operator_id')
      .select([
        'oauth_clients.id',
        'oauth_clients.secret_hash',
        'oauth_clients.scopes',
        'oauth_clients.rate_limit',
        'oauth_clients.revoked_at',
        'operators.id as operator_id',
        'operators.email',
        'operators.admin',
      ])
      .where('oauth_clients.id', '=', clientId)
      .executeTakeFirst();
  }

  apiKeysOf(operatorId: string) {
    return this.db.selectFrom('api_keys').selectAll().where('operator_id', '=', operatorId).orderBy('created_at').orderBy('id').execute();
  }

  oauthClientsOf(operatorId: string) {
    return this.db.selectFrom('oauth_clients').selectAll().where('operator_id', '=', operatorId).orderBy('created_at').orderBy('id').execute();
  }

  async insertAccessToken(row: Insertable<AccessTokensTable>): Promise<void> {
    await this.db.insertInto('access_tokens').values(row).execute();
  }

  /** Housekeeping on issuance: the operator's expired bearer tokens are of no further use. */
  async deleteExpiredTokensOf(operatorId: string, now: number): Promise<void> {
    await this.db.deleteFrom('access_tokens').where('operator_id', '=', operatorId).where('expires_at', '<=', now).execute();
  }

  /** Sign-out: the session token ends now (only a `session` token; OAuth tokens are not a page's to end). Returns its operator, if any. */
  async deleteSessionToken(tokenHash: string): Promise<string | null> {
    const row = await this.db
      .deleteFrom('access_tokens')
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', 'session')
      .returning('operator_id')
      .executeTakeFirst();
    return row?.operator_id ?? null;
  }

  /** The end of an access-group session (the console's switch back or sign-out): only an `access` token. Returns its session id, if any. */
  async deleteAccessSessionToken(tokenHash: string): Promise<string | null> {
    const row = await this.db
      .deleteFrom('access_tokens')
      .where('token_hash', '=', tokenHash)
      .where('kind', '=', 'access')
      .returning('credential_id')
      .executeTakeFirst();
    return row?.credential_id ?? null;
  }

  // --- sign-in tickets -------------------------------------------------------------------------

  async insertTicket(row: Insertable<MfaTicketsTable>): Promise<void> {
    await this.db.insertInto('mfa_tickets').values(row).execute();
  }

  ticketByHash(ticketHash: string) {
    return this.db.selectFrom('mfa_tickets').selectAll().where('ticket_hash', '=', ticketHash).executeTakeFirst();
  }

  /** Housekeeping: tickets that expired, were spent or were burned by wrong codes. */
  async deleteDeadTicketsOf(operatorId: string, now: number, maxAttempts: number): Promise<void> {
    await this.db
      .deleteFrom('mfa_tickets')
      .where('operator_id', '=', operatorId)
      .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null), eb('attempts', '>=', maxAttempts)]))
      .execute();
  }

  /** The conditions under which a ticket may still be used, as one WHERE (so a concurrent use loses). */
  private liveTicket(ticketHash: string, now: number, maxAttempts: number) {
    return this.db
      .updateTable('mfa_tickets')
      .where('ticket_hash', '=', ticketHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '<', maxAttempts);
  }

  /** Spends a live ticket; false when it was spent, burned or expired meanwhile. */
  async consumeTicket(ticketHash: string, now: number, maxAttempts: number): Promise<boolean> {
    const r = await this.liveTicket(ticketHash, now, maxAttempts).set({ used_at: now }).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Counts a wrong code on a live ticket; the attempt that reaches the limit burns it (a live ticket has attempts below it). */
  async failTicketAttempt(ticketHash: string, now: number, maxAttempts: number): Promise<void> {
    await this.liveTicket(ticketHash, now, maxAttempts)
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .execute();
  }

  async setPendingSecret(ticketHash: string, sealed: string, now: number, maxAttempts: number): Promise<boolean> {
    const r = await this.liveTicket(ticketHash, now, maxAttempts).set({ pending_secret_enc: sealed }).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  // --- TOTP and recovery codes -----------------------------------------------------------------

  /** Records that a TOTP step was used; false when it already was (a replay). */
  async recordTotpUse(operatorId: string, step: number): Promise<boolean> {
    const r = await this.db
      .insertInto('totp_uses')
      .values({ operator_id: operatorId, counter: step })
      .onConflict((oc) => oc.columns(['operator_id', 'counter']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Steps older than the acceptance window can never be presented again. */
  async pruneTotpUses(operatorId: string, belowStep: number): Promise<void> {
    await this.db.deleteFrom('totp_uses').where('operator_id', '=', operatorId).where('counter', '<', belowStep).execute();
  }

  async replaceRecoveryCodes(operatorId: string, codeHashes: string[], now: number): Promise<void> {
    await this.db.deleteFrom('recovery_codes').where('operator_id', '=', operatorId).execute();
    await this.db
      .insertInto('recovery_codes')
      .values(codeHashes.map((code_hash) => ({ id: newId('rc', now), operator_id: operatorId, code_hash, used_at: null })))
      .execute();
  }

  unusedRecoveryCodes(operatorId: string) {
    return this.db.selectFrom('recovery_codes').select(['id', 'code_hash']).where('operator_id', '=', operatorId).where('used_at', 'is', null).execute();
  }

  /** Spends a recovery code; false when it was spent meanwhile. */
  async useRecoveryCode(id: string, now: number): Promise<boolean> {
    const r = await this.db.updateTable('recovery_codes').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
