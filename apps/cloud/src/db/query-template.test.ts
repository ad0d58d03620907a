import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryTemplate } from './query-template.ts';

interface T {
  t: { id: string; v: string; n: number };
}

describe('QueryTemplate', () => {
  const dbs: Kysely<T>[] = [];
  const open = () => {
    const sqlite = new Database(':memory:');
    sqlite.exec("create table t (id text primary key, v text, n integer); insert into t values ('a', 'x', 1), ('b', 'y', 2), ('c', 'x', 3)");
    const db = new Kysely<T>({ dialect: new SqliteDialect({ database: sqlite }) });
    dbs.push(db);
    return db;
  };
  afterEach(async () => {
    for (const db of dbs.splice(0)) await db.destroy();
  });

  it('compiles once per handle and runs with each call’s values in the placeholders’ places', async () => {
    const db = open();
    const build = vi.fn((d: Kysely<T>, v: string, id: string) =>
      d.selectFrom('t').select(['id', 'n']).where('v', '=', v).where('id', '!=', id).where('n', '<', 10).orderBy('n'),
    );
    const q = new QueryTemplate<T, { id: string; n: number }, [string, string]>(2, build);
    expect(await q.rows(db, 'x', 'a')).toEqual([{ id: 'c', n: 3 }]);
    expect(await q.rows(db, 'x', 'c')).toEqual([{ id: 'a', n: 1 }]);
    expect(await q.rows(db, 'y', 'a')).toEqual([{ id: 'b', n: 2 }]);
    expect(await q.rows(db, 'z', 'a')).toEqual([]);
    expect(build).toHaveBeenCalledTimes(1);
    await q.rows(open(), 'x', 'a');
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('refuses a placeholder that is not a parameter of the query', async () => {
    const q = new QueryTemplate<T, { id: string }, [string]>(1, (d) => d.selectFrom('t').select('id'));
    await expect(q.rows(open(), 'x')).rejects.toThrow(/not parameters/);
  });
});
