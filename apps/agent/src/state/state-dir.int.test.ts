import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JournalRecord } from '../spool/journal.ts';
import { JsonlJournal } from './jsonl-journal.ts';
import { writeFileAtomic } from './fs-atomic.ts';
import { StateDir, StateDirError, deviceIdFromMachineId } from './state-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-state-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): StateDir => {
  const s = new StateDir(join(root, `s${n++}`));
  s.ensure();
  return s;
};
const KEY = `dk_0123456789abcdef:${'A'.repeat(43)}`;

describe('atomic writes', () => {
  it('replaces the content whole, with the mode asked for whatever the umask, and leaves no temp file', () => {
    const dir = mkdtempSync(join(root, 'w'));
    const file = join(dir, 'f');
    writeFileSync(file, 'old');
    const umask = process.umask(0o000);
    try {
      writeFileAtomic(file, 'new content', { mode: 0o600 });
    } finally {
      process.umask(umask);
    }
    expect(readFileSync(file, 'utf8')).toBe('new content');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['f']);
  });

  it('a failed write leaves the old file and no temp file', () => {
    const dir = mkdtempSync(join(root, 'w'));
    const file = join(dir, 'f');
    writeFileSync(file, 'old');
    expect(() => writeFileAtomic(join(dir, 'missing-dir', 'f'), 'x')).toThrow();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['f']);
  });
});

describe('state directory', () => {
  it('keeps the credential as keyId:deviceKey, mode 0600, and refuses anything else', () => {
    const s = fresh();
    expect(s.readCredential()).toBeNull();
    s.writeCredential(KEY);
    expect(readFileSync(s.path('credential'), 'utf8')).toBe(KEY + '\n');
    expect(statSync(s.path('credential')).mode & 0o777).toBe(0o600);
    expect(s.readCredential()).toBe(KEY);
    expect(() => s.writeCredential('not-a-key')).toThrow(StateDirError);
    expect(statSync(s.root).mode & 0o777).toBe(0o700);
  });

  it('deviceId: one kept from before wins, else derived from machine-id (never the raw id), else generated and kept', () => {
    const a = fresh();
    const mid = join(root, 'machine-id');
    writeFileSync(mid, '0123456789abcdef0123456789abcdef\n');
    const derived = a.deviceId(mid);
    expect(derived).toEqual({ deviceId: deviceIdFromMachineId('0123456789abcdef0123456789abcdef'), source: 'machine-id' });
    expect(derived.deviceId).not.toContain('0123456789abcdef');
    expect(a.deviceId(mid)).toEqual(derived); // stable
    const b = fresh();
    const generated = b.deviceId(null);
    expect(generated.source).toBe('generated');
    expect(b.deviceId(mid)).toEqual(generated); // kept: a machine-id appearing later does not change it
    expect(fresh().deviceId(join(root, 'no-such-file')).source).toBe('generated');
  });

  it('control token: generated 0600 on first start; an empty file stays empty (dispensing disabled)', () => {
    const s = fresh();
    const t = s.controlToken();
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(s.path('controlToken')).mode & 0o777).toBe(0o600);
    expect(s.controlToken()).toBe(t);
    writeFileSync(s.path('controlToken'), '\n');
    expect(s.controlToken()).toBe('');
    expect(s.readControlToken()).toBe('');
  });

  it('one daemon per directory: a live holder refuses the second, a dead one is taken over', () => {
    const s = fresh();
    const lock = s.acquirePidLock(() => true);
    writeFileSync(s.path('pid'), '999999\n');
    expect(() => s.acquirePidLock(() => true)).toThrow(/another vend-agent \(pid 999999\)/);
    const taken = s.acquirePidLock(() => false);
    expect(readFileSync(s.path('pid'), 'utf8').trim()).toBe(String(process.pid));
    taken.release();
    lock.release();
  });
});

describe('journal file', () => {
  it('appends whole lines and, after a crash mid-line, truncates the file back to the last whole record', () => {
    const s = fresh();
    const j = new JsonlJournal(s.path('journal'), JournalRecord);
    j.load();
    j.append([{ t: 'intent', id: 'drop:a', at: 1, kind: 'command', commandId: 'a', aisle: 2, seq: 3, bootId: 4, boardLastSeq: 2 }]);
    j.close();
    const whole = readFileSync(s.path('journal'), 'utf8');
    writeFileSync(s.path('journal'), whole + '{"t":"outcome","id":"dro');
    const again = new JsonlJournal(s.path('journal'), JournalRecord);
    const loaded = again.load();
    expect(loaded.records).toHaveLength(1);
    expect(loaded.dropped).toBe(1);
    expect(readFileSync(s.path('journal'), 'utf8')).toBe(whole);
    again.append([{ t: 'delivered', id: 'drop:a', at: 2, duplicate: false, status: null }]);
    again.close();
    expect(new JsonlJournal(s.path('journal'), JournalRecord).load().records.map((r) => r.t)).toEqual(['intent', 'delivered']);
    expect(statSync(s.path('journal')).mode & 0o777).toBe(0o600);
  });
});
