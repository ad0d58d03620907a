import type { Compilable, CompiledQuery, Kysely } from 'kysely';

const SLOT = '\u0000template-slot-';

/**
 * A query of fixed shape compiled once per database handle and run with new values. Kysely builds and
 * compiles a query's operation tree on every call, which on the cabinets' hot legs costs more than SQLite's
 * own work for an indexed read (docs/benchmarks.md, "Cabinet gateway"). `build` receives one placeholder
 * per argument; each run puts the arguments in the placeholders' places among the compiled parameters.
 * Only for values bound as parameters (not identifiers, not `in` lists of varying length): a placeholder
 * that does not end up a parameter is refused when the template is first compiled.
 */
export class QueryTemplate<DB, R, A extends string[]> {
  /** The compiled query and, for each of its parameters, the argument it takes (-1: the compiled value stays). */
  private readonly compiled = new WeakMap<Kysely<DB>, { query: CompiledQuery<R>; from: number[] }>();

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
    return (await db.executeQuery<R>({ ...query, parameters })).rows;
  }
}
