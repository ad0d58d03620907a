import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * Kysely's SQLite driver prepares every query afresh; compiling the SQL is a measurable share of a
 * hot request (the gateway's pending poll re-runs the same three statements thousands of times a
 * second). This keeps the most recently used prepared statements, keyed by their SQL text.
 *
 * Reuse is safe because better-sqlite3 runs each statement to completion synchronously, and Kysely
 * holds its single SQLite connection for the whole of a streamed query. The bound keeps queries whose
 * text varies (IN lists of different lengths) from growing it without limit.
 */
export function withStatementCache(database: SqliteDatabase, capacity = 256): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare(sql: string): SqliteStatement {
      let stmt = cache.get(sql);
      if (stmt) {
        // Map keeps insertion order: re-inserting marks this one most recently used.
        cache.delete(sql);
      } else {
        stmt = database.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
  };
}
