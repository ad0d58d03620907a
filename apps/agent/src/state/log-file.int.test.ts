import { EventEmitter } from 'node:events';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_CODES, main } from '../cli.ts';
import { RotatingLogFile, createAgentLogger, tailLines } from './log-file.ts';

const root = mkdtempSync(join(tmpdir(), 'agent-log-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `agent${n++}.log`);

describe('the log file rotates while the agent runs', () => {
  it('past the limit the file becomes agent.log.1 and a new one starts; no line is split or lost', () => {
    const file = fresh();
    const log = new RotatingLogFile(file, 1000);
    const lines = Array.from({ length: 25 }, (_, i) => `${String(i).padStart(3, '0')} ${'x'.repeat(95)}\n`); // 100 bytes each
    for (const l of lines) log.write(l);
    log.close();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(statSync(file).size).toBeLessThanOrEqual(1000);
    const old = readFileSync(`${file}.1`, 'utf8');
    const now = readFileSync(file, 'utf8');
    // one generation kept: the newest lines are all there, in order, whole
    expect((old + now).endsWith(lines.slice(-5).join(''))).toBe(true);
    for (const l of (old + now).split('\n').filter(Boolean)) expect(l).toMatch(/^\d{3} x{95}$/);
  });

  it('the daemon logger rotates mid-run, not only at start', () => {
    const file = fresh();
    const log = createAgentLogger({ file, level: 'info', stdout: null, rotateBytes: 4096 });
    for (let i = 0; i < 200; i++) log.info({ i }, 'a line of the running agent');
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(statSync(file).size).toBeLessThan(4096 + 200);
    const last = readFileSync(file, 'utf8').trim().split('\n').pop() ?? '';
    expect(JSON.parse(last)).toMatchObject({ i: 199, msg: 'a line of the running agent' });
  });

  it('a log already past the limit at start is rotated then', () => {
    const file = fresh();
    writeFileSync(file, 'y'.repeat(2000) + '\n');
    const log = new RotatingLogFile(file, 1000);
    log.write('first\n');
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(statSync(`${file}.1`).size).toBe(2001);
  });
});

describe('reading the tail', () => {
  it('the last n lines, across chunk boundaries, with or without a final line end', () => {
    const file = fresh();
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    writeFileSync(file, lines.join('\n') + '\n');
    for (const chunk of [7, 64, 65536]) {
      expect(tailLines(file, 3, chunk).lines).toEqual(['line 997', 'line 998', 'line 999']);
      expect(tailLines(file, 1, chunk).lines).toEqual(['line 999']);
      expect(tailLines(file, 5000, chunk).lines).toEqual(lines);
    }
    appendFileSync(file, 'partial');
    expect(tailLines(file, 2, 5).lines).toEqual(['line 999', 'partial']);
    writeFileSync(file, '');
    expect(tailLines(file, 3).lines).toEqual([]);
    expect(tailLines(file, 3).end).toBe(0);
  });

  it('vend-agent logs reads only the end of a huge log (a 700 MB file, mostly a hole)', async () => {
    const dir = mkdtempSync(join(root, 'state-'));
    const file = join(dir, 'agent.log');
    writeFileSync(file, '');
    truncateSync(file, 700 * 1024 * 1024); // sparse: reading it all would not even fit in one string
    const line = (i: number): string => JSON.stringify({ level: 30, time: `2026-11-22T12:00:0${i}.000Z`, pid: 9, msg: `line ${i}` });
    appendFileSync(file, `\n${line(1)}\n${line(2)}\n${line(3)}\n`);
    writeFileSync(join(root, 'none.json'), '{}');
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['node', 'vend-agent', '--state-dir', dir, 'logs', '-n', '2', '--json'], {
      env: { VEND_AGENT_CONFIG: join(root, 'none.json') },
      stdout: (t) => void out.push(t),
      stderr: (t) => void err.push(t),
    });
    expect(err.join('')).toBe('');
    expect(code).toBe(EXIT_CODES.ok);
    expect(out.join('')).toBe(`${line(2)}\n${line(3)}\n`);
  });

  it('logs -f follows the file across a rotation while running', async () => {
    const dir = mkdtempSync(join(root, 'state-'));
    const file = join(dir, 'agent.log');
    writeFileSync(join(root, 'none.json'), '{}');
    writeFileSync(file, 'one\n');
    const signals = new EventEmitter();
    const out: string[] = [];
    const done = main(['node', 'vend-agent', '--state-dir', dir, 'logs', '-f', '--json'], {
      env: { VEND_AGENT_CONFIG: join(root, 'none.json') },
      stdout: (t) => void out.push(t),
      stderr: (t) => void out.push(`ERR ${t}`),
      agent: { signals },
    });
    const until = async (text: string): Promise<void> => {
      for (let i = 0; i < 100 && !out.join('').includes(text); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until('one');
    appendFileSync(file, 'two\n');
    await until('two');
    renameSync(file, `${file}.1`);
    writeFileSync(file, 'three\n');
    await until('three');
    signals.emit('SIGINT');
    expect(await done).toBe(EXIT_CODES.ok);
    expect(out.join('')).toBe('one\ntwo\nthree\n');
  });
});
