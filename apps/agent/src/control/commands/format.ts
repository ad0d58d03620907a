import type { ControlSpoolStatus } from '@vend/protocol';

/** Human output of the technician's commands: aligned label rows and relative times. */

/** "12s ago", "5m ago", "3h ago", or "never" for no time. */
export function ago(iso: unknown, now: number): string {
  if (typeof iso !== 'string') return 'never';
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  return seconds < 120 ? `${seconds}s ago` : seconds < 7200 ? `${Math.round(seconds / 60)}m ago` : `${Math.round(seconds / 3600)}h ago`;
}

/** One indented `label   text` line. */
export function row(label: string, text: string, width = 12): string {
  return `  ${label.padEnd(Math.max(width, label.length + 2))}${text}`;
}

/** A kiosk spool's line of `status` (ad plays, prize events): `noun` names one item. */
export function formatSpool(s: ControlSpoolStatus, noun: string, now: number): string {
  const waiting = `${s.backlog} ${noun}(s) waiting${s.oldestAt ? ` (oldest ${ago(s.oldestAt, now)})` : ''}`;
  return `${waiting}, ${s.delivered} delivered (last ${ago(s.lastDeliveredAt, now)}), ${s.dropped} dropped over the cap, ${s.rejected} refused by the cloud`;
}
