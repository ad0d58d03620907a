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
 * Whether the sweeps of any loop break the lease's promise, one holder at a time: a sweep is logged after its tick
 * renewed the lease, so when the holder changes, the new one's first sweep must come at least a lease's lifetime
 * (less one tick, a sweep's own length) after the old one's last — the old lease had to lapse first. A holder may
 * lead again later by the same rule (two outages, two handovers). Answers what broke it, or null.
 */
export function leaseChainBroken(all: readonly Sweep[], ttlMs: number, tickMs: number): string | null {
  const byLoop = new Map<string, Sweep[]>();
  for (const s of all) byLoop.set(s.loop, [...(byLoop.get(s.loop) ?? []), s]);
  for (const [loop, list] of byLoop)
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const next = list[i]!;
      if (next.holder !== prev.holder && next.time - prev.time < ttlMs - tickMs)
        return `${loop}: ${next.holder} swept ${next.time - prev.time} ms after ${prev.holder}'s last sweep, inside its lease (${ttlMs} ms)`;
    }
  return null;
}
