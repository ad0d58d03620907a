import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { SqliteCheckpointer, type Checkpoint } from './sqlite-checkpointer.ts';

describe('SQLite WAL checkpoints on a worker thread', () => {
  let database: Database | null = null;
  let dir = '';
  afterEach(async () => {
    await database?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the event loop's connection never checkpoints; the worker copies the WAL back and reports how long it took", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-checkpoint-'));
    const seen: Checkpoint[] = [];
    let copied: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (copied = resolve));
    database = await openDatabase({
      sqliteFile: path.join(dir, 'store.sqlite'),
      onCheckpoint: (c) => {
        seen.push(c);
        if (c.frames > 0) copied();
      },
    });
    const { db } = database;
    const auto = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(auto.rows[0]?.wal_autocheckpoint).toBe(0);
    await sql`create table filler (id integer primary key, body text)`.execute(db);
    for (let i = 0; i < 200; i++) await sql`insert into filler (body) values (${'x'.repeat(2000)})`.execute(db);
    await done;
    expect(database.checkpointer!.checkpoints).toBeGreaterThan(0);
    expect(seen.some((c) => c.frames > 0 && c.ms >= 0)).toBe(true);
    expect(database.checkpointer!.takeLongestMs()).toBeGreaterThan(0);
    expect(database.checkpointer!.takeLongestMs()).toBe(0);
  });

  it('an in-memory database has no checkpointer; closing a file database stops its worker', async () => {
    const memory = await openDatabase({});
    expect(memory.checkpointer).toBeUndefined();
    await memory.close();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-checkpoint-'));
    const file = await openDatabase({ sqliteFile: path.join(dir, 'store.sqlite') });
    await file.close();
    // stopped: a second stop answers at once, and the file's WAL is gone with the last connection
    await file.checkpointer!.stop();
    expect(fs.existsSync(path.join(dir, 'store.sqlite-wal'))).toBe(false);
  });

  it('a worker that cannot open the file says so (the store then checkpoints on commit again) and stops at once', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-checkpoint-'));
    let c: SqliteCheckpointer | null = null;
    const failed = new Promise<string>((resolve) => {
      c = new SqliteCheckpointer(path.join(dir, 'no', 'such', 'dir', 'store.sqlite'), undefined, { onError: resolve });
    });
    expect(await failed).toMatch(/directory|unable to open|no such/i);
    await c!.stop();
  });
});
