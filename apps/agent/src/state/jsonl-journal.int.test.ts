import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { JsonlJournal } from './jsonl-journal.ts';

// The journal as a real file. node:fs is passed through, but watched: which file each descriptor is
// (open), each write and fsync in order, and a write can be made to fail part-way like a full disk.

const fsLog = vi.hoisted(() => ({
  events: [] as string[],
  paths: new Map<number, string>(),
  failWrite: null as Error | null,
}));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const name = (fd: number): string => fsLog.paths.get(fd) ?? `fd ${fd}`;
  return {
    ...fs,
    openSync: (path: string, flags: string, mode?: number) => {
      const fd = fs.openSync(path, flags, mode);
      fsLog.paths.set(fd, path);
      return fd;
    },
    writeSync: (fd: number, buf: Buffer, off: number, len: number) => {
      if (fsLog.failWrite) {
        const failure = fsLog.failWrite;
        fsLog.failWrite = null;
        fs.writeSync(fd, buf, off, Math.max(1, Math.floor(len / 2))); // half of it reached the file
        throw failure;
      }
      fsLog.events.push(`write ${name(fd)}`);
      return fs.writeSync(fd, buf, off, len);
    },
    fsyncSync: (fd: number) => {
      fsLog.events.push(`fsync ${name(fd)}`);
      fs.fsyncSync(fd);
    },
  };
});

const Rec = z.object({ t: z.literal('r'), n: z.number().int().min(1) });
type Rec = z.infer<typeof Rec>;
const r = (n: number): Rec => ({ t: 'r', n });
const line = (n: number): string => JSON.stringify(r(n)) + '\n';

let dir = '';
let path = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agent-jsonl-'));
  path = join(dir, 'journal');
  fsLog.events = [];
  fsLog.failWrite = null;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('JsonlJournal (file)', () => {
  it('creates the file 0600 and fsyncs its directory, once', () => {
    const j = new JsonlJournal(path, Rec);
    expect(j.load()).toEqual({ records: [], dropped: 0 });
    expect(fsLog.events).toEqual([`fsync ${dir}`]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    j.append([r(1)]);
    j.close();
    fsLog.events = [];
    new JsonlJournal(path, Rec).load();
    expect(fsLog.events).toEqual([]); // an existing file: no directory fsync
  });

  it('an append is one write of whole lines and one fsync of the file before it returns', () => {
    writeFileSync(path, line(1));
    const j = new JsonlJournal(path, Rec);
    j.load();
    fsLog.events = [];
    j.append([r(2), r(3)]);
    expect(fsLog.events).toEqual([`write ${path}`, `fsync ${path}`]);
    j.append([]);
    expect(fsLog.events).toHaveLength(2); // nothing to write: no write, no fsync
    j.close();
    expect(readFileSync(path, 'utf8')).toBe(line(1) + line(2) + line(3));
  });

  it('a write that fails part-way is taken back, so the next append is a whole line of its own', () => {
    const j = new JsonlJournal(path, Rec);
    j.load();
    j.append([r(1)]);
    fsLog.failWrite = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    expect(() => j.append([r(2), r(3)])).toThrow('ENOSPC');
    expect(readFileSync(path, 'utf8')).toBe(line(1));
    j.append([r(4)]);
    j.close();
    expect(new JsonlJournal(path, Rec).load()).toEqual({ records: [r(1), r(4)], dropped: 0 });
  });

  it('a load drops a torn tail, truncates the file to the last whole line (fsynced), and appends go on after it', () => {
    writeFileSync(path, line(1) + 'not json\n' + line(2));
    appendFileSync(path, '{"t":"r","n":3'); // the power went mid-write
    const j = new JsonlJournal(path, Rec);
    fsLog.events = [];
    expect(j.load()).toEqual({ records: [r(1), r(2)], dropped: 2 });
    expect(fsLog.events).toEqual([`fsync ${path}`]);
    expect(readFileSync(path, 'utf8')).toBe(line(1) + 'not json\n' + line(2)); // only the torn tail is cut
    j.append([r(3)]);
    j.close();
    expect(new JsonlJournal(path, Rec).load()).toEqual({ records: [r(1), r(2), r(3)], dropped: 1 });
  });

  it('cuts the torn tail at the right byte even when a damaged line holds bytes that are not UTF-8', () => {
    const whole = Buffer.concat([Buffer.from(line(1)), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from(line(2))]);
    writeFileSync(path, Buffer.concat([whole, Buffer.from('{"t":"r"')]));
    const j = new JsonlJournal(path, Rec);
    expect(j.load()).toEqual({ records: [r(1), r(2)], dropped: 2 });
    expect(readFileSync(path)).toEqual(whole);
    j.append([r(3)]);
    j.close();
    expect(new JsonlJournal(path, Rec).load()).toEqual({ records: [r(1), r(2), r(3)], dropped: 1 });
  });

  it('a compaction replaces the file atomically (0600, no temp file left), and appends go on into the new one', () => {
    const j = new JsonlJournal(path, Rec);
    j.load();
    j.append([r(1), r(2), r(3)]);
    fsLog.events = [];
    j.rewrite([r(3)]);
    expect(fsLog.events.filter((e) => e.startsWith('fsync'))).toEqual([expect.stringMatching(/\/\.journal\..*\.tmp$/), `fsync ${dir}`]);
    j.append([r(4)]);
    j.close();
    expect(readFileSync(path, 'utf8')).toBe(line(3) + line(4));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['journal']);
  });
});
