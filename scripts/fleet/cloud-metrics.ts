/**
 * What the fleet benchmark reads from a cloud process's `GET /metrics` (prom-client's text format) over one
 * measured window: a scrape at its start and one at its end. prom-client resets its event-loop histogram at
 * every scrape, and the cloud's loop-tick maximum too, so those are the window's own; the GC and request
 * histograms are cumulative, so the window is their difference.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a text exposition (comments skipped). */
export function parseMetrics(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

export interface CloudWindow {
  /** The process's event-loop delay over the window (ms). */
  loopP99Ms: number;
  loopMaxMs: number;
  /** Collections over the window, and those that paused longer than 100 ms and than 1 s. */
  gcs: number;
  gcOver100ms: number;
  gcOver1s: number;
  /** The longest tick of a background loop over the window, and which loop (ms). */
  tickMaxMs: number;
  tickMaxLoop: string;
  /** Answers this process took longer than 50 ms to write (arrival → last byte), by route; long polls left out. */
  slowAnswers: Record<string, number>;
  /** A SQLite file's longest WAL checkpoint over the window (ms, on its worker thread); NaN on PostgreSQL. */
  checkpointMaxMs: number;
}

const sum = (xs: Sample[]) => xs.reduce((s, x) => s + x.value, 0);

/** The window between two scrapes of one process. */
export function overWindow(before: Sample[], after: Sample[]): CloudWindow {
  const pick = (xs: Sample[], name: string, f: (l: Record<string, string>) => boolean = () => true) => xs.filter((x) => x.name === name && f(x.labels));
  const diff = (name: string, f?: (l: Record<string, string>) => boolean) => sum(pick(after, name, f)) - sum(pick(before, name, f));
  const gauge = (name: string) => pick(after, name)[0]?.value ?? NaN;
  const gcs = diff('nodejs_gc_duration_seconds_count');
  const ticks = pick(after, 'vend_loop_tick_max_seconds');
  const longest = ticks.reduce<Sample | null>((m, x) => (m === null || x.value > m.value ? x : m), null);
  const slowAnswers: Record<string, number> = {};
  const routes = new Set(pick(after, 'vend_http_request_duration_seconds_count').map((x) => x.labels['route']!));
  for (const route of routes) {
    if (route.endsWith('/pending')) continue;
    const n =
      diff('vend_http_request_duration_seconds_count', (l) => l['route'] === route) -
      diff('vend_http_request_duration_seconds_bucket', (l) => l['route'] === route && l['le'] === '0.05');
    if (n > 0) slowAnswers[route] = n;
  }
  return {
    loopP99Ms: gauge('nodejs_eventloop_lag_p99_seconds') * 1000,
    loopMaxMs: gauge('nodejs_eventloop_lag_max_seconds') * 1000,
    gcs,
    gcOver100ms: gcs - diff('nodejs_gc_duration_seconds_bucket', (l) => l['le'] === '0.1'),
    gcOver1s: gcs - diff('nodejs_gc_duration_seconds_bucket', (l) => l['le'] === '1'),
    tickMaxMs: longest ? longest.value * 1000 : NaN,
    tickMaxLoop: longest?.labels['loop'] ?? '–',
    slowAnswers,
    checkpointMaxMs: gauge('vend_sqlite_checkpoint_max_seconds') * 1000,
  };
}
