import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withStatementCache } from './statement-cache.ts';
import { sqliteNativeBinding } from './database.ts';

const opened: SQLite.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) if (db.open) db.close();
});

function sqlite(): SQLite.Database {
  const binding = sqliteNativeBinding();
  const db = new SQLite(':memory:', binding ? { nativeBinding: binding } : {});
  opened.push(db);
  db.exec('create table t (id integer primary key, v text)');
  return db;
}

describe('withStatementCache', () => {
  it('prepares a statement once and reuses it for the same SQL', () => {
    const db = sqlite();
    const prepare = vi.spyOn(db, 'prepare');
    const cached = withStatementCache(db);
    const a = cached.prepare('select v from t where id = ?');
    const b = cached.prepare('select v from t where id = ?');
    expect(a).toBe(b);
    expect(prepare).toHaveBeenCalledTimes(1);
    cached.prepare('select id from t');
    expect(prepare).toHaveBeenCalledTimes(2);
  });

  it('keeps at most `capacity` statements, evicting the least recently used', () => {
    const db = sqlite();
    const prepare = vi.spyOn(db, 'prepare');
    const cached = withStatementCache(db, 2);
    cached.prepare('select 1');
    cached.prepare('select 2');
    cached.prepare('select 1'); // now most recent
    cached.prepare('select 3'); // evicts "select 2"
    expect(prepare).toHaveBeenCalledTimes(3);
    cached.prepare('select 1');
    expect(prepare).toHaveBeenCalledTimes(3);
    cached.prepare('select 2');
    expect(prepare).toHaveBeenCalledTimes(4);
  });

  it('gives Kysely the same results as an uncached connection, including reads inside a streamed query', async () => {
    const db = new Kysely<{ t: { id: number; v: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite()) }) });
    for (let i = 1; i <= 5; i++)
      await db
        .insertInto('t')
        .values({ id: i, v: `v${i}` })
        .execute();
    for (let i = 1; i <= 5; i++) {
      expect(await db.selectFrom('t').select('v').where('id', '=', i).executeTakeFirst()).toEqual({ v: `v${i}` });
    }
    const seen: string[] = [];
    for await (const row of db.selectFrom('t').select('v').orderBy('id').stream()) seen.push(row.v);
    expect(seen).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    // schema change after a statement was cached: SQLite recompiles it, the answer follows the new schema
    expect(await db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({ id: 1, v: 'v1' });
    await sql`alter table t add column w text default 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirst()).toEqual({ id: 1, v: 'v1', w: 'x' });
    await db.destroy();
  });
});
