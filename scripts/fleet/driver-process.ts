/** The parent's side of a fleet driver (scripts/fleet/driver.ts): the process, its IPC questions, the merged ledgers. */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverLedger, FromDriver, ToDriver } from './driver.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DRIVER = path.join(ROOT, 'scripts/fleet/driver.ts');

/** One driver process: a slice of the fleet, steered over IPC (scripts/fleet/driver.ts). */
export class Driver {
  private readonly child: ChildProcess;
  private readonly waiting: ((m: FromDriver) => void)[] = [];
  private readonly exited: Promise<void>;

  constructor(readonly label: string) {
    // tsx's loader, as this process runs under it; its own process: its own open-file budget and event loop
    this.child = fork(DRIVER, [], { cwd: ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromDriver) => this.waiting.shift()?.(m));
    this.exited = new Promise((resolve) => this.child.once('exit', () => resolve()));
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Sends one message and resolves with the driver's answer. */
  ask<T extends FromDriver['type']>(m: ToDriver, answer: T): Promise<Extract<FromDriver, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error(`${this.label} exited before answering ${m.type}`));
      this.child.once('exit', onExit);
      this.waiting.push((a) => {
        this.child.off('exit', onExit);
        if (a.type !== answer) reject(new Error(`${this.label} answered ${a.type} to ${m.type}`));
        else resolve(a as Extract<FromDriver, { type: T }>);
      });
      this.child.send(m);
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    await this.exited;
  }
}

/** Every driver's ledger as one. */
export function mergeLedgers(ledgers: readonly DriverLedger[]): DriverLedger {
  const statuses: Record<string, number> = {};
  for (const l of ledgers) for (const [k, n] of Object.entries(l.statuses)) statuses[k] = (statuses[k] ?? 0) + n;
  return {
    opened: ledgers.flatMap((l) => l.opened),
    sales: ledgers.flatMap((l) => l.sales),
    enqueued: ledgers.flatMap((l) => l.enqueued),
    acked: ledgers.flatMap((l) => l.acked),
    duplicateDeliveries: ledgers.reduce((s, l) => s + l.duplicateDeliveries, 0),
    reportRetries: ledgers.reduce((s, l) => s + l.reportRetries, 0),
    allErrors: ledgers.reduce((s, l) => s + l.allErrors, 0),
    errorSamples: ledgers.flatMap((l) => l.errorSamples).slice(0, 8),
    statuses,
    refusedWithoutRetryAfter: ledgers.reduce((s, l) => s + l.refusedWithoutRetryAfter, 0),
    slowestRefusalMs: Math.max(0, ...ledgers.map((l) => l.slowestRefusalMs)),
  };
}
