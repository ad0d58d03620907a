import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints the WAL: small, frequent checkpoints keep the WAL short. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The worker's code, CommonJS evaluated as is (the production bundle has no worker file to point at): its own
 * connection to the file, a PASSIVE checkpoint every interval (it never waits for readers or writers), each
 * timed and reported to the owning thread.
 */
const WORKER_CODE = `
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file, workerData.binding ? { nativeBinding: workerData.binding } : {});
db.pragma('synchronous = NORMAL');
const tick = () => {
  const started = performance.now();
  try {
    const r = db.pragma('wal_checkpoint(PASSIVE)')[0];
    parentPort.postMessage({ ms: performance.now() - started, frames: r.checkpointed });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export interface Checkpoint {
  ms: number;
  frames: number;
}

/**
 * Checkpoints a SQLite file's WAL on a worker thread, so that the event loop never does. In WAL mode with
 * `synchronous = NORMAL` a commit writes to the WAL without an fsync; the fsyncs come with the checkpoint that
 * copies the WAL back into the database, and SQLite's automatic checkpoint runs it inside whichever commit
 * crosses 1,000 pages — on the one thread that answers every request, for as long as the disk takes (on a
 * busy disk, seconds). The owner turns its own automatic checkpoint off (`wal_autocheckpoint = 0`) and starts
 * this. docs/decisions/scale-out.md "SQLite checkpoints off the event loop".
 */
export class SqliteCheckpointer {
  private readonly worker: Worker;
  private longestMs = 0;
  private count = 0;
  private stopped: Promise<void> | null = null;
  private readonly exited: Promise<void>;
  private alive = true;

  constructor(
    file: string,
    binding: string | undefined,
    private readonly hooks: { onCheckpoint?: (c: Checkpoint) => void; onError: (message: string) => void },
    intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {
    const module = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_CODE, { eval: true, workerData: { file, binding, module, intervalMs } });
    // the checkpoints are housekeeping: they never keep the process alive
    this.worker.unref();
    this.worker.on('message', (m: Checkpoint | { error: string }) => {
      if ('error' in m) return this.hooks.onError(m.error);
      this.count++;
      if (m.ms > this.longestMs) this.longestMs = m.ms;
      this.hooks.onCheckpoint?.(m);
    });
    this.worker.on('error', (e) => this.hooks.onError(e.message));
    this.exited = new Promise((resolve) =>
      this.worker.once('exit', () => {
        this.alive = false;
        resolve();
      }),
    );
  }

  /** Checkpoints run so far. */
  get checkpoints(): number {
    return this.count;
  }

  /** The longest checkpoint since the last call (ms), and starts over: the metrics scrape's window. */
  takeLongestMs(): number {
    const ms = this.longestMs;
    this.longestMs = 0;
    return ms;
  }

  /** Stops the worker after the checkpoint in flight, if any; it closes its connection. */
  stop(): Promise<void> {
    if (!this.stopped) {
      if (this.alive) {
        // held from here: a process that is closing down waits for the worker's exit rather than ending first
        this.worker.ref();
        this.worker.postMessage('stop');
      }
      this.stopped = this.exited;
    }
    return this.stopped;
  }
}
