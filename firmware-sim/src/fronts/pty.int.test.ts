import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import { PtyFront, socatAvailable } from './pty.ts';

const dir = mkdtempSync(join(tmpdir(), 'vmc-front-'));
const fronts: PtyFront[] = [];
afterAll(async () => {
  for (const f of fronts) await f.stop();
  rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function openPort(path: string): Promise<SerialPort> {
  return new Promise((resolve, reject) => {
    const p = new SerialPort({ path, baudRate: 9600 }, (e) => (e ? reject(e) : resolve(p)));
  });
}

const waitFor = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(!socatAvailable())(`pty front (socat)${socatAvailable() ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('carries bytes both ways between the agent end and the simulator end', async () => {
    const front = new PtyFront({ hostLink: join(dir, 'a') });
    fronts.push(front);
    const got: number[] = [];
    await front.start((c) => got.push(...c));
    const agent = await openPort(front.hostPath);
    const back: number[] = [];
    agent.on('data', (d: Buffer) => back.push(...d));
    agent.write(Buffer.from([1, 2, 3]));
    await waitFor(() => got.length === 3);
    front.write(Uint8Array.from([9, 8]));
    await waitFor(() => back.length === 2);
    expect(got).toEqual([1, 2, 3]);
    expect(back).toEqual([9, 8]);
    await new Promise<void>((r) => agent.close(() => r()));
  });

  it('unplug: socat is gone, the link vanishes, the agent port closes with a disconnect; re-plug makes a new pair', async () => {
    const front = new PtyFront({ hostLink: join(dir, 'b') });
    fronts.push(front);
    await front.start(() => {});
    const pid = front.socatPid;
    const firstPts = realpathSync(front.hostPath);
    const agent = await openPort(front.hostPath);
    let closedWith: unknown = 'open';
    agent.on('close', (e: unknown) => (closedWith = e));
    agent.on('data', () => {});
    await front.unplug();
    expect(alive(pid)).toBe(false);
    expect(existsSync(front.hostPath)).toBe(false);
    // serialport notices the hang-up on its next poll of the fd; on a loaded 2-core CI machine that has taken over 5 s
    await waitFor(() => closedWith !== 'open', 15_000);
    expect(closedWith).toMatchObject({ disconnected: true });
    await front.replug();
    expect(existsSync(front.hostPath)).toBe(true);
    expect(front.socatPid).not.toBe(pid);
    expect(realpathSync(front.hostPath)).toMatch(/^\/dev\/pts\//);
    expect(firstPts).toMatch(/^\/dev\/pts\//);
    await front.stop();
    expect(alive(front.socatPid)).toBe(false);
  });

  it('re-makes the pair if socat dies on its own (like an adapter re-enumerating)', async () => {
    const front = new PtyFront({ hostLink: join(dir, 'c') });
    fronts.push(front);
    await front.start(() => {});
    const pid = front.socatPid!;
    process.kill(pid, 'SIGKILL');
    await waitFor(() => front.plugged && front.socatPid !== undefined && front.socatPid !== pid);
    expect(existsSync(front.hostPath)).toBe(true);
    await front.stop();
  });
});
