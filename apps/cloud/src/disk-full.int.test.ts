import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/database.ts';
import { call, startTestServer, type TestServer } from './testing/harness.ts';
import { MEDIA_FILE } from './domains/creatives/media-store.ts';
import { ALICE, aliceMachine, createCampaign, pngUpload } from './domains/campaigns/campaigns.test-support.ts';

/**
 * DATA_DIR's disk full (docs/decisions/outages.md): the SQLite store and the media files on a small tmpfs, filled to
 * the last block. A write the disk cannot take answers 503 with Retry-After and leaves nothing half-written (no row,
 * no temporary or torn media file); reads go on; once space returns, writes go through again without a restart and
 * the database file passes SQLite's integrity check. Needs root (a tmpfs mount), as the tests here run.
 */

const canMount = (() => {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-mount-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
})();

/** Writes zeros into `file` until the file system refuses another byte. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'a');
  try {
    for (const size of [1 << 20, 1 << 14, 512, 1])
      for (;;) {
        try {
          fs.writeSync(fd, Buffer.alloc(size));
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
  } finally {
    fs.closeSync(fd);
  }
}

describe.runIf(canMount)('DATA_DIR on a full disk (SQLite and media)', () => {
  const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-full-'));
  const filler = path.join(mount, 'filler');
  let t: TestServer;
  let machineNo: string;
  let campaignId: string;

  beforeAll(async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=48m', 'tmpfs', mount]);
    const database = await openDatabase({ sqliteFile: path.join(mount, 'vend-sandbox.sqlite') });
    t = await startTestServer('sqlite', { database, env: { DATA_DIR: mount } });
    machineNo = await aliceMachine(t);
    campaignId = (await createCampaign(t, { targetMachines: [machineNo] })).id;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    execFileSync('umount', ['-l', mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  const rename = (name: string) => call(t.url, 'PUT', `/api/v1/machines/${machineNo}`, { headers: ALICE, json: { name } });

  it('refuses writes with 503 and Retry-After and keeps serving reads; nothing is half-written', async () => {
    // an empty WAL: the next commit must grow it (a WAL reset by a checkpoint reuses its old pages, which a full disk
    // does not stop); then no space left
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(t.ctx.database.db);
    fillDisk(filler);
    // a write that fits a block the file system had already given out may still land; one that needs a new one cannot
    let refused: Awaited<ReturnType<typeof rename>> | null = null;
    let landed = '';
    for (let i = 0; i < 300 && !refused; i++) {
      const name = `Full disk ${i} ${'x'.repeat(100)}`.slice(0, 100);
      const r = await rename(name);
      if (r.status === 200) landed = name;
      else refused = r;
    }
    expect(refused, 'no write was refused on a full disk').not.toBeNull();
    expect(refused!.status).toBe(503);
    expect(refused!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused!.body.message).toMatch(/^Service unavailable: .*disk/);
    expect(refused!.body.data).toBeNull();

    const upload = await call(t.url, 'POST', `/api/v1/campaigns/${campaignId}/creative/upload`, { headers: ALICE, json: pngUpload(1080, 1920) });
    expect(upload.status).toBe(503);
    expect(upload.headers.get('retry-after')).toMatch(/^\d+$/);
    // no temporary file, and whatever is there is whole: a file named by its hash is a retry's to reuse, never a torn one
    const media = path.join(mount, 'media');
    for (const name of fs.existsSync(media) ? fs.readdirSync(media) : []) {
      expect(name).toMatch(MEDIA_FILE);
      expect(
        createHash('sha256')
          .update(fs.readFileSync(path.join(media, name)))
          .digest('hex'),
      ).toBe(name.split('.')[0]);
    }

    // reads go on, and show the last write that landed, not the refused one
    const read = await call(t.url, 'GET', `/api/v1/machines/${machineNo}`, { headers: ALICE });
    expect(read.status).toBe(200);
    if (landed) expect((read.body.data as { name: string }).name).toBe(landed);
    expect((await call(t.url, 'GET', '/api/v1/machines', { headers: ALICE })).status).toBe(200);
  }, 60_000);

  it('takes writes again once space returns, without a restart; the database file is whole', async () => {
    fs.rmSync(filler);
    const r = await rename('Space again');
    expect(r.status).toBe(200);
    const upload = await call(t.url, 'POST', `/api/v1/campaigns/${campaignId}/creative/upload`, { headers: ALICE, json: pngUpload(1080, 1920) });
    expect(upload.status).toBe(200);
    expect(((await call(t.url, 'GET', `/api/v1/machines/${machineNo}`, { headers: ALICE })).body.data as { name: string }).name).toBe('Space again');
    const check = new SQLite(path.join(mount, 'vend-sandbox.sqlite'), { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }
  }, 60_000);
});
