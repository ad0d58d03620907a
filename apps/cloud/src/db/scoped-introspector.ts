import { PostgresDialect, PostgresIntrospector, sql } from 'kysely';
import type { DatabaseIntrospector, DatabaseMetadata, Kysely, PostgresDialectConfig, SchemaMetadata, TableMetadata } from 'kysely';

/**
 * Kysely's PostgreSQL introspector lists every table of every schema on the server, column by column, calling
 * `has_schema_privilege` and `pg_get_serial_sequence` on each schema's name. The migrator asks it whether its
 * own bookkeeping tables exist. When another store on the same database drops its schema meanwhile (parallel
 * test runs do, at the end of every file), those calls fail with "schema … does not exist" and the migration
 * fails. Scoped to one schema, the question reads only that schema's tables.
 */
export class SchemaScopedIntrospector implements DatabaseIntrospector {
  private readonly all: PostgresIntrospector;

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {
    this.all = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.all.getSchemas();
  }

  /** The schema's tables and views, without their columns (the migrator only asks which exist). */
  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; kind: string }>`
      select c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p')
      order by c.relname`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: this.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

/** PostgreSQL for a store that lives in one schema: its introspection stays inside that schema. */
export class SchemaScopedPostgresDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SchemaScopedIntrospector(db, this.schema);
  }
}
