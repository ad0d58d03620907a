import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Database } from './database.ts';
import { migrations } from './migrations/index.ts';
import { TEST_DATABASE_URL } from '../testing/harness.ts';

/**
 * A store in its own schema asks only that schema which tables exist — so another store's schema, there or
 * being dropped meanwhile (parallel test files), can neither confuse nor break its migrations.
 */
describe.skipIf(!TEST_DATABASE_URL)('a PostgreSQL store scoped to its schema', () => {
  const url = TEST_DATABASE_URL ?? '';
  const ours = `t_${randomBytes(6).toString('hex')}`;
  const other = `t_${randomBytes(6).toString('hex')}`;
  const opened: Database[] = [];
  const admin = async (q: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  afterAll(async () => {
    for (const d of opened) await d.close();
    await admin(`drop schema if exists ${ours} cascade; drop schema if exists ${other} cascade`);
  });

  it('lists its own tables only, and opens again without migrating twice', async () => {
    await admin(`create schema ${other}; create table ${other}.elsewhere (id serial primary key)`);
    const d = await openDatabase({ url, schema: ours, poolSize: 2 });
    opened.push(d);
    const tables = await d.db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.length).toBeGreaterThan(30);
    expect(new Set(tables.map((t) => t.schema))).toEqual(new Set([ours]));
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['machines', 'kysely_migration']));
    expect(tables.map((t) => t.name)).not.toContain('elsewhere');
    // a second process on the same schema finds the migrations recorded (an error would throw here)
    const again = await openDatabase({ url, schema: ours, poolSize: 1 });
    opened.push(again);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${ours}.kysely_migration`)}`.execute(again.db);
    expect(rows[0]?.n).toBe(Object.keys(migrations).length);
  });
});
