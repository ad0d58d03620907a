import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import { newId } from '../../crypto/ids.ts';
import { hashPassword, hashSecret } from '../../crypto/secrets.ts';
import { merchantAccountOf } from '../../db/seed.ts';
import { AppError, conflict } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { STANDARD_OPERATOR_SCOPES, formatScopes } from '../../http/scopes.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { mintApiKey } from '../auth/credentials.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AccountData, CreateAccountBody } from './accounts.schemas.ts';

const DEFAULT_CURRENCY = 'USD';

export interface AccountsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The new account's key carries the default hourly budget. */
  config: Pick<Config, 'rateLimitPerHour'>;
}

/** Operator accounts (spec 1 §4.2). */
export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

  /**
   * Creates an operator account with a standard API key, returned this once. Only an admin
   * credential may create another admin; the email is unique (409).
   */
  async create(by: Principal, input: CreateAccountBody): Promise<AccountData> {
    if (input.admin && !by.admin) throw new AppError('forbidden', 'Only an admin credential may create admin accounts');
    const email = input.email.toLowerCase();
    const now = this.deps.clock.now();
    const id = newId('op', now);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const currency = input.admin ? null : (input.currency ?? DEFAULT_CURRENCY);
    const key = mintApiKey();
    try {
      await this.deps.store.transaction(async (tx) => {
        const repo = tx.accounts;
        if (await repo.emailTaken(email)) throw conflict('An account with this email already exists');
        await repo.insertOperator({
          id,
          email,
          name: input.name,
          admin: input.admin ? 1 : 0,
          password_hash: passwordHash,
          mfa_secret_enc: null,
          mfa_enabled: 0,
          currency,
          merchant_account: merchantAccountOf(id),
          marketplace_opt_in: 0,
          created_at: now,
        });
        await repo.insertApiKey({
          id: key.keyId,
          operator_id: id,
          name: 'standard operator key',
          secret_hash: hashSecret(key.secret),
          scopes: formatScopes(STANDARD_OPERATOR_SCOPES),
          rate_limit: null,
          plant: null,
          created_at: now,
          revoked_at: null,
        });
        await this.deps.audit.record(tx, by, 'accounts.create', `operator:${id}`);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw conflict('An account with this email already exists');
      throw e;
    }
    return {
      id,
      email,
      name: input.name,
      admin: input.admin,
      currency,
      passwordSet: passwordHash !== null,
      createdAt: formatTimestamp(now),
      apiKey: { id: key.keyId, key: key.key, scopes: [...STANDARD_OPERATOR_SCOPES], rateLimit: this.deps.config.rateLimitPerHour },
    };
  }
}
