import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import { DeviceFront } from './device.ts';
import { socatAvailable } from './pty.ts';

// --device PATH: the simulator on an existing serial device. The test makes the "device" itself: one
// end of a socat pair; the agent's side is the other end.

const HAVE_SOCAT = socatAvailable();
const dir = mkdtempSync(join(tmpdir(), 'vmc-device-'));
const boardEnd = join(dir, 'board');
const agentEnd = join(dir, 'agent');
let socat: ChildProcess | null = null;

const waitFor = async (cond: () => boolean, ms = 5000): Promise<void> => {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  if (!HAVE_SOCAT) return;
  socat = spawn('socat', [`PTY,raw,echo=0,link=${boardEnd}`, `PTY,raw,echo=0,link=${agentEnd}`], { stdio: 'ignore' });
  await waitFor(() => existsSync(boardEnd) && existsSync(agentEnd));
});

afterAll(async () => {
  if (socat && socat.exitCode === null) {
    const exited = new Promise((r) => socat!.once('exit', r));
    socat.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_SOCAT)(`device front${HAVE_SOCAT ? '' : ' [SKIPPED: socat is not installed]'}`, () => {
  it('talks over an existing device; unplug closes it (silence), re-plug reopens it', async () => {
    const front = new DeviceFront(boardEnd);
    const got: number[] = [];
    await front.start((c) => got.push(...c));
    expect(front.plugged).toBe(true);
    const agent = await new Promise<SerialPort>((resolve, reject) => {
      const p = new SerialPort({ path: agentEnd, baudRate: 9600 }, (e) => (e ? reject(e) : resolve(p)));
    });
    const back: number[] = [];
    agent.on('data', (d: Buffer) => back.push(...d));
    agent.write(Buffer.from([5, 6]));
    await waitFor(() => got.length === 2);
    front.write(Uint8Array.from([7]));
    await waitFor(() => back.length === 1);

    await front.unplug();
    expect(front.plugged).toBe(false);
    front.write(Uint8Array.from([8])); // lost: the cable is out
    await new Promise((r) => setTimeout(r, 100));
    expect(back).toEqual([7]);

    await front.replug();
    front.write(Uint8Array.from([9]));
    await waitFor(() => back.length === 2);
    expect(back).toEqual([7, 9]);
    await new Promise<void>((r) => agent.close(() => r()));
    await front.stop();
  });

  it('fails to start with the reason when the device does not exist', async () => {
    const front = new DeviceFront(join(dir, 'nothing-here'));
    await expect(front.start(() => {})).rejects.toThrow(/No such file|cannot open/);
  });
});
