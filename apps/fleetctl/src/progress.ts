import type { Writable } from 'node:stream';
import cliProgress from 'cli-progress';

/** Progress for uploads (bytes) and long waits (elapsed seconds). Silent unless the stream is a terminal. */
export interface Progress {
  bytes(label: string, total: number): { tick(n: number): void; done(): void };
  wait<T>(label: string, work: Promise<T>, limitSeconds: number): Promise<T>;
}

export const silentProgress: Progress = {
  bytes: () => ({ tick: () => {}, done: () => {} }),
  wait: (_label, work) => work,
};

/** A wait shorter than this shows no bar at all. */
const WAIT_BAR_AFTER_MS = 1000;

function human(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

/**
 * Bars on `stream` (stderr, so stdout stays parseable). Only on a terminal unless `force` (tests),
 * since a bar redrawn into a log file is noise.
 */
export function terminalProgress(stream: Writable & { isTTY?: boolean }, opts: { force?: boolean } = {}): Progress {
  if (!stream.isTTY && !opts.force) return silentProgress;
  const base = {
    stream: stream as NodeJS.WritableStream,
    hideCursor: !opts.force,
    clearOnComplete: false,
    noTTYOutput: opts.force ?? false,
    notTTYSchedule: 100,
  };
  return {
    bytes(label, total) {
      const bar = new cliProgress.SingleBar(
        { ...base, format: `${label} [{bar}] {percentage}% | {done} of {size} | {eta_formatted} left` },
        cliProgress.Presets.shades_classic,
      );
      let value = 0;
      bar.start(total, 0, { done: human(0), size: human(total) });
      return {
        tick(n) {
          value += n;
          bar.update(value, { done: human(value) });
        },
        done() {
          bar.update(total, { done: human(total) });
          bar.stop();
        },
      };
    },
    async wait(label, work, limitSeconds) {
      let bar: cliProgress.SingleBar | null = null;
      const started = Date.now();
      const timer = setInterval(() => {
        const elapsed = (Date.now() - started) / 1000;
        if (!bar && Date.now() - started >= WAIT_BAR_AFTER_MS) {
          bar = new cliProgress.SingleBar({ ...base, format: `${label} [{bar}] {value}s of at most {total}s` }, cliProgress.Presets.shades_classic);
          bar.start(limitSeconds, Math.floor(elapsed));
        }
        bar?.update(Math.min(limitSeconds, Math.floor(elapsed)));
      }, 200);
      try {
        return await work;
      } finally {
        clearInterval(timer);
        (bar as cliProgress.SingleBar | null)?.stop();
      }
    },
  };
}
