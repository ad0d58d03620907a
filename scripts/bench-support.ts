/** What the HTTP benchmarks share: child processes that announce their URL, and one autocannon measurement. */
import { spawn, type ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Starts `cmd` and resolves with the URL its stdout announces (the first capture group of `ready`). */
export function startProcess(
  cmd: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  timeoutMs = 60_000,
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(cmd, args, { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${cmd} did not start: ${err || out}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`${cmd} exited ${code}: ${err}`)));
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

export async function measure(name: string, connections: number, opts: autocannon.Options): Promise<Row> {
  const r = await autocannon({ connections, ...opts });
  // total / elapsed rather than the mean of per-second samples, which a partial last second skews
  return { name, rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts };
}

export async function fetchBytes(url: string, init: RequestInit): Promise<Buffer> {
  const res = await fetch(url, init);
  if (res.status !== 200) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}
