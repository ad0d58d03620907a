import type { Insertable, Kysely } from 'kysely';
import type { ApiKeysTable, DB, OperatorsTable } from '../../db/schema.ts';

/** SQL for creating operator accounts. */
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
}
