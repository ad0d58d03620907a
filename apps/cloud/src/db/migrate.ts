import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { DB } from './schema.ts';

class InCodeProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/**
 * One migration set for both dialects, run at start. `schema` (PostgreSQL) scopes Kysely's own
 * bookkeeping tables: without it the migrator's existence check sees `kysely_migration*` of any
 * schema on the server, so two stores sharing one database (parallel test runs) break each other.
 */
export async function migrateToLatest(db: Kysely<DB>, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: new InCodeProvider(), ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}
