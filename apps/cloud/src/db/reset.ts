import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { RESET_ORDER } from './tables.ts';

/** Empties every table a sandbox reset clears (tables.ts), children before parents. The audit log stays. */
export async function clearStore(db: Kysely<DB>): Promise<void> {
  for (const table of RESET_ORDER) await db.deleteFrom(table).execute();
}
