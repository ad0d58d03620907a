import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DB } from './schema.ts';
import { migrateToLatest } from './migrate.ts';
import { withStatementCache } from './statement-cache.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Human label for /health and readiness: the file path or the server, never a password. */
  describe: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const INT8_OID = 20;

/**
 * int8 (bigint) columns hold epoch milliseconds and counters well inside 2^53: this pool reads them as
 * numbers. Given to the pool it opens (not set in pg's process-wide table), so importing this module changes nothing.
 */
const int8AsNumber = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

export interface DatabaseOptions {
  /** postgres:// URL; when absent, SQLite at `sqliteFile`. */
  url?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let database: Database;
  if (opts.url) {
    const pool = new pg.Pool({
      connectionString: opts.url,
      types: { getTypeParser: int8AsNumber },
      max: opts.poolSize ?? 10,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    if (opts.schema) await sql`create schema if not exists ${sql.id(opts.schema)}`.execute(db);
    const u = new URL(opts.url);
    database = {
      db,
      dialect: 'postgres',
      describe: `postgres://${u.host}${u.pathname}`,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  } else {
    const file = opts.sqliteFile ?? ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    database = {
      db,
      dialect: 'sqlite',
      describe: `sqlite:${file}`,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
    };
  }
  await migrateToLatest(database.db, opts.url ? opts.schema : undefined);
  return database;
}
