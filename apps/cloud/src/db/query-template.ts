import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

const SLOT = '\u0000template-slot-';

/** Root SQLite handles whose templates may run their own prepared statement (`runsDirectly`). */
const DIRECT = new WeakMap<object, SqliteHandle>();

/**
 * Lets the templates run on `db` call their prepared better-sqlite3 statement on `sqlite` themselves,
 * skipping Kysely's executor: on an indexed read of the hot legs, Kysely's query id, connection mutex and
 * promise chain cost several times SQLite's own work (docs/benchmarks.md, "Hot legs lean"). Only the root
 * handle is registered (a transaction's handle is another object and keeps Kysely's path), and a direct run
 * happens only while the connection is outside any transaction: better-sqlite3 runs a statement to completion
 * synchronously, so between transactions there is nothing on the one connection to interleave with, while a
 * read during another call's open transaction waits for the connection through Kysely as before (it must not
 * see that transaction's uncommitted writes).
 */
export function runsDirectly<DB>(db: Kysely<DB>, sqlite: SqliteHandle): void {
  DIRECT.set(db, sqlite);
}

interface Compiled<R> {
  query: CompiledQuery<R>;
  /** For each parameter of the compiled query, the argument it takes (-1: the compiled value stays). */
  from: number[];
  /** The statement prepared on the registered SQLite handle; null when the query is not a read. */
  statement?: Statement<unknown[], R> | null;
}

/**
 * A query of fixed shape compiled once per database handle and run with new values. Kysely builds and
 * compiles a query's operation tree on every call, which on the cabinets' hot legs costs more than SQLite's
 * own work for an indexed read (docs/benchmarks.md, "Cabinet gateway"). `build` receives one placeholder
 * per argument; each run puts the arguments in the placeholders' places among the compiled parameters.
 * Only for values bound as parameters (not identifiers, not `in` lists of varying length): a placeholder
 * that does not end up a parameter is refused when the template is first compiled.
 */
export class QueryTemplate<DB, R, A extends string[]> {
  private readonly compiled = new WeakMap<Kysely<DB>, Compiled<R>>();

  constructor(
    private readonly arity: A['length'],
    private readonly build: (db: Kysely<DB>, ...slots: A) => Compilable<R>,
  ) {}

  async rows(db: Kysely<DB>, ...args: A): Promise<R[]> {
    let c = this.compiled.get(db);
    if (!c) {
      const slots = Array.from({ length: this.arity }, (_, i) => `${SLOT}${i}`) as A;
      const query = this.build(db, ...slots).compile();
      const missing = slots.filter((s) => !query.parameters.includes(s));
      if (missing.length > 0) throw new Error(`query template: ${missing.length} of its arguments are not parameters of the query`);
      const from = query.parameters.map((p) => (typeof p === 'string' && p.startsWith(SLOT) ? Number(p.slice(SLOT.length)) : -1));
      c = { query, from };
      this.compiled.set(db, c);
    }
    const { query, from } = c;
    const parameters = new Array<unknown>(from.length);
    for (let i = 0; i < from.length; i++) parameters[i] = from[i]! < 0 ? query.parameters[i] : args[from[i]!];
    const sqlite = DIRECT.get(db);
    if (sqlite !== undefined && !sqlite.inTransaction) {
      if (c.statement === undefined) {
        const statement = sqlite.prepare<unknown[], R>(query.sql);
        c.statement = statement.reader ? statement : null;
      }
      if (c.statement !== null) return c.statement.all(parameters);
    }
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  }
}
