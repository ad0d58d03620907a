import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SerialPort } from 'serialport';
import { VMC_BAUD_RATE } from '@vend/protocol';
import type { FrontLog, SerialFront } from './front.ts';

export interface PtyFrontOptions {
  /** Where the agent's end appears (a symlink to a /dev/pts/N), e.g. /tmp/vmc-sim/ttyVMC0. */
  hostLink: string;
  /** Where the simulator's own end appears; default: beside hostLink with suffix ".board". */
  boardLink?: string;
  socatPath?: string;
  log?: FrontLog;
}

/** Whether socat is on the PATH (or at the given path). */
export function socatAvailable(socatPath = 'socat'): boolean {
  if (socatPath.includes('/')) return existsSync(socatPath);
  return (process.env.PATH ?? '').split(':').some((dir) => dir && existsSync(join(dir, socatPath)));
}

/**
 * A pseudo-terminal pair made by socat: the agent opens `hostLink` exactly as it would open
 * /dev/ttyUSB0. Unplugging kills socat, so both ends vanish (the agent's reads fail with EIO, its
 * port closes, the link disappears); re-plugging starts a new pair at the same paths. If socat dies
 * on its own the pair is re-made, as a USB adapter re-enumerates.
 */
export class PtyFront implements SerialFront {
  readonly hostPath: string;
  private readonly boardLink: string;
  private readonly socatPath: string;
  private readonly log: FrontLog;
  private socat: ChildProcess | null = null;
  private port: SerialPort | null = null;
  private onData: ((chunk: Uint8Array) => void) | null = null;
  private isPlugged = false;
  private stopping = false;
  private exits = 0;

  constructor(opts: PtyFrontOptions) {
    this.hostPath = opts.hostLink;
    this.boardLink = opts.boardLink ?? `${opts.hostLink}.board`;
    this.socatPath = opts.socatPath ?? 'socat';
    this.log = opts.log ?? (() => {});
  }

  get plugged(): boolean {
    return this.isPlugged;
  }

  /** The socat process id while plugged (tests check it is gone afterwards). */
  get socatPid(): number | undefined {
    return this.socat?.pid;
  }

  async start(onData: (chunk: Uint8Array) => void): Promise<void> {
    if (!socatAvailable(this.socatPath)) throw new Error(`socat not found (${this.socatPath}); install socat or give --device PATH`);
    this.onData = onData;
    this.stopping = false;
    await this.plugIn();
  }

  write(bytes: Uint8Array): void {
    const port = this.port;
    if (!this.isPlugged || !port?.isOpen) return;
    port.write(Buffer.from(bytes), (err) => {
      if (err) this.log('pty write failed', { error: err.message });
    });
  }

  async unplug(): Promise<void> {
    this.isPlugged = false;
    await this.closePort();
    await this.killSocat();
    this.log('unplugged', { path: this.hostPath });
  }

  async replug(): Promise<void> {
    if (this.isPlugged || this.stopping) return;
    await this.plugIn();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.unplug();
    this.onData = null;
  }

  private async plugIn(): Promise<void> {
    mkdirSync(dirname(this.hostPath), { recursive: true });
    mkdirSync(dirname(this.boardLink), { recursive: true });
    for (const p of [this.hostPath, this.boardLink]) rmSync(p, { force: true });
    const child = spawn(this.socatPath, ['-d', '-d', `PTY,raw,echo=0,link=${this.boardLink}`, `PTY,raw,echo=0,link=${this.hostPath}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.socat = child;
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.on('exit', (code, signal) => {
      if (this.socat !== child) return;
      this.socat = null;
      this.exits++;
      this.log('socat exited', { code, signal });
      if (this.isPlugged && !this.stopping) {
        // re-enumerate, like a USB adapter that dropped off the bus
        this.isPlugged = false;
        void this.closePort()
          .then(() => sleep(100))
          .then(() => (this.stopping ? undefined : this.plugIn()))
          .catch((e: unknown) => this.log('re-plug failed', { error: String(e) }));
      }
    });
    const deadline = Date.now() + 5000;
    while (!(existsSync(this.hostPath) && existsSync(this.boardLink))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`socat did not create the pty pair: ${stderr.trim() || 'timeout'}`);
      }
      await sleep(10);
    }
    this.port = await new Promise<SerialPort>((resolve, reject) => {
      const p = new SerialPort({ path: this.boardLink, baudRate: VMC_BAUD_RATE, dataBits: 8, parity: 'none', stopBits: 1, lock: false }, (err) =>
        err ? reject(err) : resolve(p),
      );
    });
    this.port.on('data', (chunk: Buffer) => this.onData?.(Uint8Array.from(chunk)));
    this.port.on('error', (err: Error) => this.log('pty error', { error: err.message }));
    this.isPlugged = true;
    this.log('plugged', { path: this.hostPath });
  }

  private async closePort(): Promise<void> {
    const port = this.port;
    this.port = null;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  private async killSocat(): Promise<void> {
    const child = this.socat;
    this.socat = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timeout = sleep(2000).then(() => 'timeout' as const);
      if ((await Promise.race([exited, timeout])) === 'timeout') {
        child.kill('SIGKILL');
        await exited;
      }
    }
    for (const p of [this.hostPath, this.boardLink]) rmSync(p, { force: true });
  }
}
