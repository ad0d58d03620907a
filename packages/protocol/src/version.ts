/** Dotted-numeric versions ("1.10.0"), compared numerically per component so 1.10.0 > 1.9.0. */
export const DOTTED_VERSION = /^(0|[1-9]\d{0,8})(\.(0|[1-9]\d{0,8})){0,3}$/;

export function isDottedVersion(v: string): boolean {
  return DOTTED_VERSION.test(v);
}

/** Negative when a < b, zero when equal (1.0 equals 1.0.0), positive when a > b. */
export function compareVersions(a: string, b: string): number {
  if (!isDottedVersion(a) || !isDottedVersion(b)) throw new RangeError(`not a dotted-numeric version: ${isDottedVersion(a) ? b : a}`);
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}
