import type { EventType, OutboundEvent } from '../webhooks/webhook-events.ts';

/** Spec 1 §8: a machine unseen for more than about 10 minutes is effectively down. */
export const OFFLINE_AFTER_MS = 10 * 60 * 1000;
/** A cleared condition must stay clear this long before its alert closes; returning sooner keeps the same alert. */
export const CLEAR_HOLD_MS = 30 * 60 * 1000;
/** Most rules one operator may have. */
export const MAX_RULES = 50;

/** The event types that can raise an alert, and the condition each raises. */
const RAISES: Partial<Record<EventType, (e: OutboundEvent) => string>> = {
  'machine.offline': (e) => `machine.offline:${e.machineNo}`,
  'dispense.failed': (e) => `dispense.failed:${e.machineNo}`,
  'command.expired': (e) => `command.expired:${e.machineNo}`,
  'order.refund_owed': (e) => `order.refund_owed:${e.machineNo}`,
  'order.refund_failed': (e) => `order.refund_failed:${e.machineNo}`,
  'aisle.low': (e) => `aisle.low:${e.machineNo}:${String(e.data['aisleNo'])}`,
  'aisle.out': (e) => `aisle.out:${e.machineNo}:${String(e.data['aisleNo'])}`,
  'aisle.fault': (e) => `aisle.fault:${e.machineNo}:${String(e.data['aisleNo'])}`,
  'agent.upgrade_blocked': (e) => `agent.upgrade_blocked:${e.machineNo}`,
  'agent.upgrade_reverted': (e) => `agent.upgrade_reverted:${e.machineNo}`,
};

/** The events that clear conditions, and which. Conditions no event clears stay open until resolved by hand. */
const CLEARS: Partial<Record<EventType, (e: OutboundEvent) => string[]>> = {
  'machine.online': (e) => [`machine.offline:${e.machineNo}`],
  'command.acknowledged': (e) => [`dispense.failed:${e.machineNo}`, `command.expired:${e.machineNo}`],
};

export const ALERTABLE_TYPES = Object.keys(RAISES) as EventType[];

export function conditionRaised(e: OutboundEvent): string | null {
  return RAISES[e.type]?.(e) ?? null;
}

export function conditionsCleared(e: OutboundEvent): string[] {
  return CLEARS[e.type]?.(e) ?? [];
}

/** Local minutes after midnight (with the fraction) of `now` in `zone`. */
function localMinutes(now: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(
    new Date(now),
  );
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute') + get('second') / 60 + (now % 1000) / 60_000;
}

/**
 * When an alert raised at `now` may be notified: `now`, or the end of the quiet hours `[start, end)`
 * (local minutes; a window may span midnight) when `now` falls inside them.
 */
export function notifyAt(now: number, quiet: { start: number; end: number; zone: string } | null): number {
  if (!quiet || quiet.start === quiet.end) return now;
  const m = localMinutes(now, quiet.zone);
  const inside = quiet.start < quiet.end ? m >= quiet.start && m < quiet.end : m >= quiet.start || m < quiet.end;
  if (!inside) return now;
  return now + Math.round(((((quiet.end - m) % 1440) + 1440) % 1440) * 60_000);
}

/** `HH:MM` → minutes after midnight. */
export function parseClock(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

export function formatClock(min: number): string {
  return `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
}
