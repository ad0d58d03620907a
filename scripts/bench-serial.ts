/**
 * Serial link benchmark (issue 5): one dispense request/ACK round trip between a host and the
 * simulated VMC board over a real socat pseudo-terminal pair, against the wire time of those bytes
 * at 9600 8N1 (bytes × 10 / 9600 s). The simulator runs as its own process (`vmc-sim`), pacing both
 * directions at 9600 baud as a real line would; a second run with pacing off shows what the
 * software alone (serialport, pty, socat, codec, event loops) costs.
 *
 *   npx tsx scripts/bench-serial.ts [iterations]      (default 40; about 20 s)
 *
 * Prints a small table: median / p90 round trip in ms, the wire time in ms, and median / wire.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// scripts/ has no package of its own: the codec comes from the protocol package's source, serialport
// from the agent's dependencies (the same copy the agent uses).
import { VMC_FRAME_LENGTH, VmcFrameDecoder, encodeHostMessage, nextVmcSeq, parseBoardFrame, vmcWireTimeMs } from '@vend/protocol';
import type { VmcBoardMessage, VmcHostMessage } from '@vend/protocol';

interface Port {
  write(data: Buffer, cb: (err: Error | null | undefined) => void): void;
  on(event: 'data', fn: (chunk: Buffer) => void): void;
  close(cb: () => void): void;
}
type PortCtor = new (opts: { path: string; baudRate: number; dataBits: 8; parity: 'none'; stopBits: 1 }, cb: (err: Error | null) => void) => Port;

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const requireFromAgent = createRequire(join(root, 'apps/agent/package.json'));
const { SerialPort } = requireFromAgent('serialport') as { SerialPort: PortCtor };

const ITERATIONS = Math.max(5, Number(process.argv[2] ?? 40));
const WARMUP = 5;
const BAUD = 9600;

function startSim(link: string, pace: 'byte' | 'off'): Promise<{ child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      join(root, 'firmware-sim/bin/vmc-sim.js'),
      '--link',
      link,
      '--control-port',
      '0',
      '--json',
      '--module',
      'SH',
      '--motor-ms',
      '20',
      '--drop-ms',
      '5',
      '--stock',
      '999',
      '--pace',
      pace,
      '--seed',
      '1',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolveReady, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`vmc-sim did not start: ${err}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) {
        clearTimeout(timer);
        resolveReady({ child, stop });
      }
    });
    child.on('exit', (code) => reject(new Error(`vmc-sim exited ${code}: ${err}`)));
  });
}

/** A minimal host: one frame out, the matching reply back. */
class Host {
  private decoder = new VmcFrameDecoder('board');
  private waiting: { seq: number; kind: VmcBoardMessage['kind']; done: (m: VmcBoardMessage) => void } | null = null;
  private seq = 0;
  bootId = 0;
  constructor(private readonly port: Port) {
    port.on('data', (chunk) => {
      for (const f of this.decoder.push(chunk)) {
        const p = parseBoardFrame(f);
        const w = this.waiting;
        if (p.ok && w && p.seq === w.seq && p.message.kind === w.kind) {
          this.waiting = null;
          w.done(p.message);
        }
      }
    });
  }
  static open(path: string): Promise<Host> {
    return new Promise((res, rej) => {
      const port = new SerialPort({ path, baudRate: BAUD, dataBits: 8, parity: 'none', stopBits: 1 }, (e) => (e ? rej(e) : res(new Host(port))));
    });
  }
  /** Sends one frame and resolves with the reply of `kind` and the round trip in ms. */
  exchange(msg: VmcHostMessage, kind: VmcBoardMessage['kind'], seq = (this.seq = nextVmcSeq(this.seq))): Promise<{ ms: number; reply: VmcBoardMessage }> {
    const bytes = Buffer.from(encodeHostMessage(seq, msg));
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no ${kind} for seq ${seq}`)), 5000);
      let t0 = 0;
      this.waiting = {
        seq,
        kind,
        done: (reply) => {
          clearTimeout(timer);
          res({ ms: performance.now() - t0, reply });
        },
      };
      t0 = performance.now();
      this.port.write(bytes, (e) => e && rej(e));
    });
  }
  /** Waits for the RESULT of a dispense (not timed). */
  result(seq: number): Promise<VmcBoardMessage> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`no result for seq ${seq}`)), 10_000);
      this.waiting = {
        seq,
        kind: 'result',
        done: (m) => {
          clearTimeout(timer);
          res(m);
        },
      };
    });
  }
  get lastSeq(): number {
    return this.seq;
  }
  close(): Promise<void> {
    return new Promise((r) => this.port.close(() => r()));
  }
}

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
}

interface Row {
  link: string;
  exchange: string;
  bytes: number;
  median: number;
  p90: number;
  wire: number;
}

async function measure(pace: 'byte' | 'off', dir: string): Promise<Row[]> {
  const link = join(dir, `tty-${pace}`);
  const sim = await startSim(link, pace);
  const host = await Host.open(link);
  try {
    const hello = await host.exchange({ kind: 'status' }, 'status', 0);
    if (hello.reply.kind !== 'status') throw new Error('no status');
    host.bootId = hello.reply.bootId;
    const dispense: number[] = [];
    const status: number[] = [];
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const aisle = (i % 60) + 1;
      const { ms } = await host.exchange({ kind: 'dispense', aisle, bootId: host.bootId }, 'dispenseAck');
      await host.result(host.lastSeq);
      const s = await host.exchange({ kind: 'status' }, 'status');
      if (i >= WARMUP) {
        dispense.push(ms);
        status.push(s.ms);
      }
    }
    const wire = vmcWireTimeMs(2 * VMC_FRAME_LENGTH, BAUD);
    const label = pace === 'byte' ? 'pty, paced 9600 8N1' : 'pty, unpaced (software only)';
    return [
      { link: label, exchange: 'DISPENSE -> ACK', bytes: 2 * VMC_FRAME_LENGTH, median: quantile(dispense, 0.5), p90: quantile(dispense, 0.9), wire },
      { link: label, exchange: 'STATUS -> reply', bytes: 2 * VMC_FRAME_LENGTH, median: quantile(status, 0.5), p90: quantile(status, 0.9), wire },
    ];
  } finally {
    await host.close();
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-serial-'));
  try {
    const rows = [...(await measure('byte', dir)), ...(await measure('off', dir))];
    const f = (n: number): string => n.toFixed(2).padStart(8);
    console.log(`serial link round trip, ${ITERATIONS} iterations each (after ${WARMUP} warm-up), median and p90`);
    console.log('| link                          | exchange         | bytes | median ms |   p90 ms | wire ms | median / wire |');
    console.log('|-------------------------------|------------------|------:|----------:|---------:|--------:|--------------:|');
    for (const r of rows) {
      console.log(
        `| ${r.link.padEnd(29)} | ${r.exchange.padEnd(16)} | ${String(r.bytes).padStart(5)} | ${f(r.median)}  | ${f(r.p90)} | ${r.wire.toFixed(2).padStart(7)} | ${(r.median / r.wire).toFixed(2).padStart(13)} |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
