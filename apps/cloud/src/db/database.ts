import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql, type Driver } from 'kysely';
import type { DB } from './schema.ts';
import { migrateToLatest } from './migrate.ts';
import { runsDirectly } from './query-template.ts';
import { withStatementCache } from './statement-cache.ts';
import { SchemaScopedPostgresDialect } from './scoped-introspector.ts';
import { SqliteCheckpointer, type Checkpoint } from './sqlite-checkpointer.ts';
import { QUERY_DEADLINE_MS, withQueryDeadline } from './query-deadline.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** Human label for /health and readiness: the file path or the server, never a password. */
  describe: string;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: a new connection outside the pool, on the same server and schema, for LISTEN (a
   * listening session must stay on one connection); `scope` tells the schema apart in channel names,
   * which are per database, not per schema.
   */
  dedicated?: { connect(): Promise<pg.Client>; scope: string };
  /** PostgreSQL only: the pool's connections now (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** A SQLite file only: the worker thread that checkpoints its WAL (db/sqlite-checkpointer.ts). */
  checkpointer?: SqliteCheckpointer;
}

/**
 * better-sqlite3 is a native module built for one Node ABI (the machine's Node 20, by pnpm install).
 * scripts/setup builds a second copy for the project's Node 24 into `build/node-v<abi>/` of the same
 * package (docs/decisions/scale-out.md); a process on that runtime loads it. Undefined: the default build.
 */
export function sqliteNativeBinding(): string | undefined {
  if (nativeBinding === null) {
    const pkg = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    const file = path.join(pkg, 'build', `node-v${process.versions.modules}`, 'better_sqlite3.node');
    nativeBinding = fs.existsSync(file) ? file : undefined;
  }
  return nativeBinding;
}
let nativeBinding: string | undefined | null = null;

const INT8_OID = 20;

/**
 * int8 (bigint) columns hold epoch milliseconds and counters well inside 2^53: this pool reads them as
 * numbers. Given to the pool it opens (not set in pg's process-wide table), so importing this module changes nothing.
 */
const int8AsNumber = ((oid: number, format?: 'text' | 'binary') =>
  oid === INT8_OID ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser;

/**
 * SQLite rolls a transaction back by itself when a write fails for want of space or I/O (SQLITE_FULL, SQLITE_IOERR:
 * "the transaction may be rolled back automatically"); Kysely's own ROLLBACK then fails with "no transaction is
 * active" and that error, not the disk's, reaches the caller. The ROLLBACK is sent only while one is open.
 */
class SqliteRollbackAwareDialect extends SqliteDialect {
  constructor(
    config: ConstructorParameters<typeof SqliteDialect>[0],
    private readonly sqlite: Pick<SQLite.Database, 'inTransaction'>,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent, SQLite at `sqliteFile`. */
  url?: string | undefined;
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
  /** A SQLite file's checkpoints and the checkpointer's failures (a slow one is worth a log line). */
  onCheckpoint?: (c: Checkpoint) => void;
  onCheckpointError?: (message: string) => void;
  /**
   * PostgreSQL: a connection the server closed or lost (a restart, a crash, a cut network). The pool drops it and
   * opens another on the next query; this only reports it (never thrown: an unlistened 'error' would end the process).
   */
  onConnectionError?: (err: Error) => void;
  /** PostgreSQL: a statement's deadline once migrated (default QUERY_DEADLINE_MS; 0: none). */
  queryDeadlineMs?: number;
}

/**
 * How long a query waits for a connection (a new one's handshake, or a free one in a full pool) before it fails
 * as store-unavailable: the bound on a request's wait while the server is down or unreachable
 * (docs/decisions/outages.md).
 */
export const CONNECT_TIMEOUT_MS = 3_000;

async function createSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema if not exists ${client.escapeIdentifier(schema)}`);
  } finally {
    await client.end();
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let database: Database;
  let startDeadlines = () => {};
  if (opts.url) {
    // The schema exists before any connection names it in its search_path: a connection started with a
    // search_path that did not exist yet fails now and then in PostgreSQL's parallel workers ("schema does not exist").
    if (opts.schema) await createSchema(opts.url, opts.schema);
    const pool = new pg.Pool({
      connectionString: opts.url,
      types: { getTypeParser: int8AsNumber },
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // a peer gone without a word (a host's crash, a cut link) is noticed by the kernel's probes, not never
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    const lost = (err: Error) => opts.onConnectionError?.(err);
    // an idle connection's error reaches the pool, which drops it; a checked-out one's reaches only the client:
    // both are listened to, so a server's restart costs the queries in flight, never the process
    pool.on('connect', (client) => client.on('error', lost));
    pool.on('error', () => {}); // the same error, already reported by the client's own listener
    let deadlineMs = 0; // none while migrating; QUERY_DEADLINE_MS once open
    const bounded = withQueryDeadline(pool, () => deadlineMs);
    const db = new Kysely<DB>({
      dialect: opts.schema ? new SchemaScopedPostgresDialect({ pool: bounded }, opts.schema) : new PostgresDialect({ pool: bounded }),
    });
    startDeadlines = () => (deadlineMs = opts.queryDeadlineMs ?? QUERY_DEADLINE_MS);
    const u = new URL(opts.url);
    database = {
      db,
      dialect: 'postgres',
      describe: `postgres://${u.host}${u.pathname}`,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      dedicated: {
        scope: opts.schema ?? 'public',
        connect: async () => {
          const client = new pg.Client({ connectionString: opts.url, ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}) });
          await client.connect();
          return client;
        },
      },
    };
  } else {
    const file = opts.sqliteFile ?? ':memory:';
    if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const binding = sqliteNativeBinding();
    const sqlite = new SQLite(file, binding ? { nativeBinding: binding } : {});
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<DB>({ dialect: new SqliteRollbackAwareDialect({ database: withStatementCache(sqlite) }, sqlite) });
    runsDirectly(db, sqlite);
    // a file's checkpoints (its only fsyncs) run on a worker thread, never inside a request's commit
    let checkpointer: SqliteCheckpointer | undefined;
    if (file !== ':memory:') {
      sqlite.pragma('wal_autocheckpoint = 0');
      checkpointer = new SqliteCheckpointer(file, binding, {
        ...(opts.onCheckpoint ? { onCheckpoint: opts.onCheckpoint } : {}),
        onError: (message) => {
          // without the worker the WAL would grow without bound: SQLite's own checkpoint takes over
          sqlite.pragma('wal_autocheckpoint = 1000');
          opts.onCheckpointError?.(message);
        },
      });
    }
    database = {
      db,
      dialect: 'sqlite',
      describe: `sqlite:${file}`,
      ping: async () => {
        await sql`select 1`.execute(db);
      },
      close: async () => {
        await checkpointer?.stop();
        await db.destroy();
      },
      ...(checkpointer ? { checkpointer } : {}),
    };
  }
  await migrateToLatest(database.db, opts.url ? opts.schema : undefined);
  startDeadlines();
  return database;
}
