import type { PortfolioSettings } from '../deals/dfy.rules.ts';
import { overCap } from '../inventory/refill.ts';

/**
 * What the autopilot may do alone (spec 3 §2 portfolio settings; docs/decisions/dfy-modes.md "The autopilot
 * in the background"). Pure: no I/O, no clock.
 */

/** The auto-approval window: an operator's UTC calendar day. `maxAutoApprove` counts the venues chosen alone in it. */
export function autoApproveWindowStart(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
}

/**
 * Whether the autopilot may accept the top shortlisted venue alone: its score reaches `autoApproveScore` and
 * fewer than `maxAutoApprove` venues were chosen alone in the window. Otherwise the reason, and the
 * `scout_outreach` checkpoint stays for a person.
 */
export function autoApproval(
  score: number,
  settings: Pick<PortfolioSettings, 'autoApproveScore' | 'maxAutoApprove'>,
  approvedInWindow: number,
): { ok: true } | { ok: false; reason: string } {
  if (score < settings.autoApproveScore) return { ok: false, reason: `top venue scores ${score}, below autoApproveScore ${settings.autoApproveScore}` };
  if (approvedInWindow >= settings.maxAutoApprove)
    return { ok: false, reason: `${approvedInWindow} of maxAutoApprove ${settings.maxAutoApprove} venues already chosen alone today (UTC)` };
  return { ok: true };
}

/**
 * Why a supplier order must wait for a confirmed approval (none: it is queued alone). Two bounds, both
 * applied: the machine's month may not go above `inventoryMonthlyCapUsd` (the sum), and no single order may
 * be above `moneyThresholdUsd` (the most one money action taken alone; 0: every order waits).
 */
export function orderApprovalReasons(
  spentThisMonthCents: number,
  orderCents: number,
  settings: Pick<PortfolioSettings, 'inventoryMonthlyCapUsd' | 'moneyThresholdUsd'>,
): string[] {
  const r: string[] = [];
  if (overCap(spentThisMonthCents, orderCents, settings.inventoryMonthlyCapUsd)) r.push(`over the monthly cap of ${settings.inventoryMonthlyCapUsd} USD`);
  if (orderCents > Math.round(settings.moneyThresholdUsd * 100)) r.push(`over the money threshold of ${settings.moneyThresholdUsd} USD`);
  return r;
}
