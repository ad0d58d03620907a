import type { Kysely } from 'kysely';
import type { Database, Dialect } from './database.ts';
import type { DB } from './schema.ts';

/**
 * The repositories of the service, on the database or inside one transaction. The store knows no
 * domain: the composition root says how to bind the repositories (`bind`) to a handle.
 */
export interface Store<R> {
  readonly dialect: Dialect;
  /** Repositories on the database, outside any transaction. */
  readonly repos: R;
  /** Runs `fn` in one transaction with repositories bound to it: all of its writes land, or none. */
  transaction<T>(fn: (tx: R) => Promise<T>): Promise<T>;
}

export function createStore<R>(database: Pick<Database, 'db' | 'dialect'>, bind: (db: Kysely<DB>, dialect: Dialect) => R): Store<R> {
  const { db, dialect } = database;
  return {
    dialect,
    repos: bind(db, dialect),
    transaction: (fn) => db.transaction().execute((trx) => fn(bind(trx, dialect))),
  };
}
