import type { Insertable, Kysely } from 'kysely';
import type { ApiKeysTable, DB, OperatorsTable } from '../../db/schema.ts';

/** SQL of operator accounts: the one writer of `operators` (MFA enrolment included) and `api_keys`. */
export class AccountsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async emailTaken(email: string): Promise<boolean> {
    const row = await this.db.selectFrom('operators').select('id').where('email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  async insertOperator(row: Insertable<OperatorsTable>): Promise<void> {
    await this.db.insertInto('operators').values(row).execute();
  }

  async insertApiKey(row: Insertable<ApiKeysTable>): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  /** Stores the sealed TOTP secret; false when the operator enrolled meanwhile. */
  async enableMfa(operatorId: string, sealedSecret: string): Promise<boolean> {
    const r = await this.db
      .updateTable('operators')
      .set({ mfa_secret_enc: sealedSecret, mfa_enabled: 1 })
      .where('id', '=', operatorId)
      .where('mfa_enabled', '=', 0)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
