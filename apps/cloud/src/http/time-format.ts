/** The spec's timestamp form `YYYY-MM-DDTHH:MM:SS.mmm+0000` (UTC, numeric offset). */
export function formatTimestamp(ms: number | null): string | null {
  if (ms === null) return null;
  return new Date(ms).toISOString().replace('Z', '+0000');
}
