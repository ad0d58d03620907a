/**
 * Download progress as people read it (pure: no I/O, no clock — callers pass the elapsed time).
 *
 * - `progressLine`: one line with the percentage, the bytes so far of the signed size and the average
 *   rate, e.g. `downloading 1.4.0  42%  18.3 MiB of 43.6 MiB  2.1 MiB/s`. A terminal redraws it in place.
 * - `SparseProgress`: the same line only when the download crosses another step (10 % by default),
 *   for output that is not a terminal (a log, a pipe, an SSH session run by a script).
 * - `ThrottledProgress`: a line at most once per interval (and at the end), for the daemon's log.
 */

export interface DownloadProgress {
  version: string;
  /** Bytes received and written so far. */
  received: number;
  /** The signed size of the artifact. */
  total: number;
  /** Milliseconds since the download started. */
  elapsedMs: number;
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** `512 B`, `1.5 KiB`, `18.3 MiB`, `1.20 GiB`: three significant figures at most, binary units. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(Number.isFinite(bytes) ? bytes : 0))} B`;
  let value = bytes;
  let unit: (typeof UNITS)[number] = 'KiB';
  for (const u of UNITS) {
    value /= 1024;
    unit = u;
    if (value < 1024) break;
  }
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0)} ${unit}`;
}

/** Whole percent done, 0..100; 100 only once every byte is in. */
export function percentOf(p: Pick<DownloadProgress, 'received' | 'total'>): number {
  if (p.total <= 0) return 0;
  if (p.received >= p.total) return 100;
  return Math.min(99, Math.floor((p.received * 100) / p.total));
}

/** Average bytes per second since the start, or null before a tenth of a second has passed. */
export function rateOf(p: Pick<DownloadProgress, 'received' | 'elapsedMs'>): number | null {
  return p.elapsedMs >= 100 ? (p.received * 1000) / p.elapsedMs : null;
}

/** Seconds still to go at the average rate so far, or null when there is no rate yet. */
export function etaSeconds(p: DownloadProgress): number | null {
  const rate = rateOf(p);
  if (rate === null || rate <= 0) return null;
  return Math.max(0, Math.ceil((p.total - p.received) / rate));
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60);
  return m < 60 ? `${m} min ${seconds % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** `downloading 1.4.0  42%  18.3 MiB of 43.6 MiB  2.1 MiB/s  about 14 s left` (rate and time left once known). */
export function progressLine(p: DownloadProgress): string {
  const rate = rateOf(p);
  const eta = p.received < p.total ? etaSeconds(p) : null;
  const parts = [
    `downloading ${p.version}`,
    `${String(percentOf(p)).padStart(3)}%`,
    `${formatBytes(p.received)} of ${formatBytes(p.total)}`,
    ...(rate !== null ? [`${formatBytes(rate)}/s`] : []),
    ...(eta !== null ? [`about ${formatDuration(eta)} left`] : []),
  ];
  return parts.join('  ');
}

/** Emits a line each time the download reaches another multiple of `stepPercent` (and once at 100 %). */
export class SparseProgress {
  private last = -1;
  private version: string | null = null;

  constructor(private readonly stepPercent = 10) {
    if (!(stepPercent >= 1 && stepPercent <= 100)) throw new RangeError('stepPercent must be 1..100');
  }

  /** The line to print for this snapshot, or null when it crosses no new step. */
  next(p: DownloadProgress): string | null {
    if (p.version !== this.version) {
      this.version = p.version;
      this.last = -1;
    }
    const step = Math.floor(percentOf(p) / this.stepPercent) * this.stepPercent;
    if (step <= this.last) return null;
    this.last = step;
    return progressLine(p);
  }
}

/** Emits a line at the first snapshot, then at most once per `intervalMs`, and at the end. */
export class ThrottledProgress {
  private lastAt: number | null = null;
  private done = false;

  constructor(private readonly intervalMs: number) {}

  next(p: DownloadProgress): string | null {
    const finished = p.received >= p.total;
    if (this.done) return null;
    if (finished || this.lastAt === null || p.elapsedMs - this.lastAt >= this.intervalMs) {
      this.lastAt = p.elapsedMs;
      this.done = finished;
      return progressLine(p);
    }
    return null;
  }
}
