import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryTemplate, runsDirectly } from './query-template.ts';

interface T {
  t: { id: string; v: string; n: number };
}

describe('QueryTemplate', () => {
  const dbs: Kysely<T>[] = [];
  const open = (direct = false) => {
    const sqlite = new Database(':memory:');
    sqlite.exec("create table t (id text primary key, v text, n integer); insert into t values ('a', 'x', 1), ('b', 'y', 2), ('c', 'x', 3)");
    const db = new Kysely<T>({ dialect: new SqliteDialect({ database: sqlite }) });
    if (direct) runsDirectly(db, sqlite);
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

  describe('run directly on a registered SQLite handle', () => {
    const byValue = new QueryTemplate<T, { id: string; n: number }, [string]>(1, (d, v) =>
      d.selectFrom('t').select(['id', 'n']).where('v', '=', v).orderBy('n'),
    );

    it('answers what Kysely answers, without its executor', async () => {
      const db = open(true);
      const executor = vi.spyOn(db, 'executeQuery');
      expect(await byValue.rows(db, 'x')).toEqual([
        { id: 'a', n: 1 },
        { id: 'c', n: 3 },
      ]);
      expect(await byValue.rows(db, 'y')).toEqual([{ id: 'b', n: 2 }]);
      expect(executor).not.toHaveBeenCalled();
      expect(await byValue.rows(open(), 'x')).toEqual([
        { id: 'a', n: 1 },
        { id: 'c', n: 3 },
      ]);
    });

    it('waits for the connection while another call holds a transaction open, and never sees its uncommitted writes', async () => {
      const db = open(true);
      let inside!: () => void;
      const opened = new Promise<void>((r) => (inside = r));
      let finish!: () => void;
      const held = new Promise<void>((r) => (finish = r));
      const tx = db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 'd', v: 'x', n: 4 }).execute();
        inside();
        await held;
        throw new Error('rolled back');
      });
      await opened;
      const read = byValue.rows(db, 'x');
      finish();
      await expect(tx).rejects.toThrow('rolled back');
      expect(await read).toEqual([
        { id: 'a', n: 1 },
        { id: 'c', n: 3 },
      ]);
    });

    it('leaves a statement that is not a read to Kysely', async () => {
      const db = open(true);
      const rename = new QueryTemplate<T, never, [string]>(1, (d, id) => d.updateTable('t').set({ v: 'z' }).where('id', '=', id));
      const executor = vi.spyOn(db, 'executeQuery');
      expect(await rename.rows(db, 'a')).toEqual([]);
      expect(executor).toHaveBeenCalledTimes(1);
      expect(await byValue.rows(db, 'z')).toEqual([{ id: 'a', n: 1 }]);
    });
  });
});
