import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StateDir } from './state-dir.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-pidlock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

// A starter in its own process: waits for a common instant, takes the lock, says whether it won, holds it a while.
const starter = join(root, 'starter.ts');
writeFileSync(
  starter,
  `import { StateDir } from ${JSON.stringify(resolve(import.meta.dirname, 'state-dir.ts'))};
const [dir, at] = process.argv.slice(2);
while (Date.now() < Number(at)) {}
let lock = null;
try { lock = new StateDir(dir).acquirePidLock(); process.stdout.write('won'); } catch (e) { process.stdout.write(/another vend-agent/.test(e.message) ? 'lost' : 'error ' + e.message); }
setTimeout(() => { lock?.release(); }, 1500);
`,
);

// Takes and releases the lock over and over for a while.
const cycler = join(root, 'cycler.ts');
writeFileSync(
  cycler,
  `import { StateDir } from ${JSON.stringify(resolve(import.meta.dirname, 'state-dir.ts'))};
const [dir, ms] = process.argv.slice(2);
const s = new StateDir(dir);
const end = Date.now() + Number(ms);
let i = 0;
while (Date.now() < end) { s.acquirePidLock().release(); i++; }
process.stdout.write(String(i));
`,
);

async function race(dir: string, starters: number): Promise<string[]> {
  const at = Date.now() + 1500; // every process loaded and spinning by then
  const children = Array.from({ length: starters }, () =>
    spawn(process.execPath, ['--import', 'tsx', starter, dir, String(at)], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  return Promise.all(
    children.map(
      (c) =>
        new Promise<string>((done) => {
          let out = '';
          c.stdout.on('data', (d: Buffer) => (out += d.toString()));
          c.on('exit', () => done(out));
        }),
    ),
  );
}

function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

describe('the pid lock', () => {
  it('never exists without its pid: the lock file is complete the moment it appears', () => {
    const s = new StateDir(join(root, `s${n++}`));
    s.ensure();
    const lock = s.acquirePidLock();
    expect(readFileSync(s.path('pid'), 'utf8')).toBe(`${process.pid}\n`);
    expect(readdirSync(s.root)).toEqual(['agent.pid']); // no temp file left behind
    lock.release();
    expect(readdirSync(s.root)).toEqual([]);
  });

  it('a starter looking while another takes the lock never sees it without a pid (which it would take for stale)', async () => {
    const s = new StateDir(join(root, `s${n++}`));
    s.ensure();
    const child = spawn(process.execPath, ['--import', 'tsx', cycler, s.root, '4000'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let cycles = '';
    child.stdout.on('data', (d: Buffer) => (cycles += d.toString()));
    const exited = new Promise((done) => child.on('exit', done));
    // wait for the first lock, then look as fast as possible for a while
    const start = Date.now();
    while (Date.now() - start < 15_000 && !existsSync(s.path('pid'))) await new Promise((r) => setTimeout(r, 5));
    let reads = 0;
    let empty = 0;
    const end = Date.now() + 2500;
    while (Date.now() < end) {
      try {
        const t = readFileSync(s.path('pid'), 'utf8');
        reads++;
        if (t.trim() === '') empty++;
      } catch {
        // released at that instant
      }
    }
    await exited;
    expect(Number(cycles)).toBeGreaterThan(10);
    expect(reads).toBeGreaterThan(1000);
    expect(empty).toBe(0);
  }, 30_000);

  it('concurrent starters on one directory: exactly one wins, with and without a dead lock to take over', async () => {
    for (let round = 0; round < 2; round++) {
      const s = new StateDir(join(root, `s${n++}`));
      s.ensure();
      if (round > 0) writeFileSync(s.path('pid'), `${deadPid()}\n`); // a crashed agent's lock
      const results = await race(s.root, 4);
      expect(
        results.filter((r) => r === 'won'),
        `round ${round}: ${results.join(',')}`,
      ).toHaveLength(1);
      expect(results.filter((r) => r === 'lost')).toHaveLength(3);
      expect(readdirSync(s.root).filter((f) => f.startsWith('.'))).toEqual([]);
    }
  }, 30_000);

  it('a lock left by a process that is gone is taken over', () => {
    const s = new StateDir(join(root, `s${n++}`));
    s.ensure();
    writeFileSync(s.path('pid'), `${deadPid()}\n`);
    const lock = s.acquirePidLock();
    expect(readFileSync(s.path('pid'), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('release leaves a lock that is not its own alone', () => {
    const s = new StateDir(join(root, `s${n++}`));
    s.ensure();
    const lock = s.acquirePidLock();
    rmSync(s.path('pid'));
    writeFileSync(s.path('pid'), '424242\n'); // someone else's now
    lock.release();
    expect(readFileSync(s.path('pid'), 'utf8')).toBe('424242\n');
  });
});

describe('modes at start', () => {
  it('tightens a loosened state directory to 0700 and the files holding secrets to 0600', () => {
    const dir = join(root, `loose${n++}`);
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    for (const f of ['credential', 'control-token', 'enrolment.json', 'config-block.json', 'journal.log']) writeFileSync(join(dir, f), 'x', { mode: 0o644 });
    writeFileSync(join(dir, 'agent.log'), '', { mode: 0o640 });
    new StateDir(dir).ensure();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of ['credential', 'control-token', 'enrolment.json', 'config-block.json', 'journal.log'])
      expect(statSync(join(dir, f)).mode & 0o777, f).toBe(0o600);
    expect(statSync(join(dir, 'agent.log')).mode & 0o777).toBe(0o640);
  });

  it('a state directory path that is a file is refused as unusable', () => {
    const file = join(root, `file${n++}`);
    writeFileSync(file, 'x');
    expect(() => new StateDir(file).ensure()).toThrow(/is not a directory/);
  });
});
