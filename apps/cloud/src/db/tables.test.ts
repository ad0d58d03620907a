import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { RESET_ORDER } from './tables.ts';

/**
 * Kept on purpose: the audit log records the reset itself; the leader lease belongs to the running
 * replicas, not to the sandbox's data; the migrator's own bookkeeping.
 */
const KEPT = new Set(['audit_log', 'job_leases', 'kysely_migration', 'kysely_migration_lock']);

describe('RESET_ORDER', () => {
  it('names every table the migrations create, so a reset leaves no rows of machines that are gone', async () => {
    const { db, close } = await openDatabase({});
    try {
      const { rows } = await sql<{ name: string }>`
        select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
      const missing = rows.map((r) => r.name).filter((t) => !KEPT.has(t) && !(RESET_ORDER as string[]).includes(t));
      expect(missing).toEqual([]);
    } finally {
      await close();
    }
  });
});
