import type { Kysely } from 'kysely';
import type { AuditLogTable, DB } from '../db/schema.ts';
import type { Insertable, Selectable } from 'kysely';

/** The audit log's table: appended by every write (through `AuditLog.record`), read by the sandbox's audit view. */
export class AuditRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<AuditLogTable>): Promise<void> {
    await this.db.insertInto('audit_log').values(row).execute();
  }

  async page(limit: number, offset: number): Promise<{ total: number; rows: Selectable<AuditLogTable>[] }> {
    const rows = await this.db.selectFrom('audit_log').selectAll().orderBy('timestamp', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
    const { n } = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { total: Number(n), rows };
  }
}
