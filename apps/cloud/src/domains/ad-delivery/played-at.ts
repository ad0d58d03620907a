/** A proof-of-play `playedAt`: ISO 8601 or epoch milliseconds; null when it names no instant. Absent: the time it is received. */
export function parsePlayedAt(v: string | number | undefined, now: number): number | null {
  if (v === undefined) return now;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? v : null;
  if (/^\d{1,15}$/.test(v)) return Number(v);
  const t = Date.parse(v);
  return Number.isFinite(t) && t >= 0 ? t : null;
}
