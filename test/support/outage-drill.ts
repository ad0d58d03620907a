/** What the outage drills (test/outage-*.test.ts) read off a cluster: answers, recovery, the lease's sweeps. */
import type { Replica } from '../../scripts/cluster.ts';

export const ALICE = 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2';
export const RECOVERY_BOUND_MS = 10_000;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Probe {
  status: number | null;
  retryAfter: string | null;
  ms: number;
  body: string;
}

/** One request straight to a replica (default: an operator read): its status, Retry-After and time. */
export async function probe(url: string, p = '/api/v1/machines'): Promise<Probe> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}${p}`, { headers: { 'X-API-Key': ALICE }, signal: AbortSignal.timeout(15_000) });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: performance.now() - started, body: await res.text() };
  } catch (e) {
    return { status: null, retryAfter: null, ms: performance.now() - started, body: (e as Error).message };
  }
}

/** Milliseconds until every replica answers `p` with 200 again. */
export async function recovery(replicas: Replica[], p = '/api/v1/machines'): Promise<number> {
  const started = performance.now();
  const pending = new Set(replicas.map((r) => r.url));
  while (pending.size > 0) {
    if (performance.now() - started > RECOVERY_BOUND_MS)
      throw new Error(`${p} not 200 ${RECOVERY_BOUND_MS} ms after the outage ended: ${[...pending].join(', ')}`);
    for (const url of [...pending]) if ((await probe(url, p)).status === 200) pending.delete(url);
    if (pending.size) await sleep(50);
  }
  return performance.now() - started;
}

export interface Sweep {
  time: number;
  loop: string;
  holder: string;
}

/** Every background sweep the replicas logged (debug level), oldest first. */
export function sweeps(replicas: Replica[]): Sweep[] {
  const all: Sweep[] = [];
  for (const r of replicas)
    for (const line of r.out().split('\n')) {
      if (!line.includes('"background sweep"')) continue;
      const e = JSON.parse(line) as { time: number; loop: string; holder: string };
      all.push({ time: e.time, loop: e.loop, holder: e.holder });
    }
  return all.sort((a, b) => a.time - b.time);
}

/**
 * Whether the sweeps of any loop break the lease's promise: one holder at a time, and a holder that lost the lease
 * never sweeps again. Answers what broke it, or null.
 */
export function leaseChainBroken(all: readonly Sweep[]): string | null {
  const byLoop = new Map<string, Sweep[]>();
  for (const s of all) byLoop.set(s.loop, [...(byLoop.get(s.loop) ?? []), s]);
  for (const [loop, list] of byLoop) {
    const retired = new Set<string>();
    let current = list[0]!.holder;
    for (const s of list) {
      if (retired.has(s.holder)) return `${loop}: ${s.holder} swept again at ${s.time} after losing the lease`;
      if (s.holder !== current) {
        retired.add(current);
        current = s.holder;
      }
    }
  }
  return null;
}
