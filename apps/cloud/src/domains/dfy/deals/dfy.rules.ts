import type { Envelope, Terms } from './deal-model.ts';

/** Spec 3 §8 and key rule 2: the limits the part-1 rules read. */
export const TERMS_APPROVAL_ROUNDS = 8;
/** Share-ceiling proximity that needs terms approval: within 1 percentage point of the ceiling. */
export const SHARE_CEILING_PROXIMITY_PCT = 1;

/** Install work orders move forward only through these states (spec 3 §3). */
export const WORK_ORDER_STATES = ['open', 'assigned', 'scheduled', 'en_route', 'on_site', 'completed'] as const;
export type WorkOrderState = (typeof WORK_ORDER_STATES)[number];
export const WORK_ORDER_TYPES = ['dfy_install', 'dfy_refill'] as const;

/** Whether a work order may go from `from` to `to`: strictly forward (skipping states allowed). */
export function workOrderForward(from: WorkOrderState, to: WorkOrderState): boolean {
  return WORK_ORDER_STATES.indexOf(to) > WORK_ORDER_STATES.indexOf(from);
}

/**
 * Key rule 2: why the agreed terms need an operator's confirmed approval before the lease can be sent —
 * within 1% of the share ceiling, a term at a bound of the mandate, or low confidence (8 or more rounds,
 * or out-of-mandate asks from the counterparty). Empty: no approval needed.
 */
export function approvalReasons(env: Envelope, t: Terms): string[] {
  const r: string[] = [];
  if (t.revenueSharePct >= env.revenueShareMaxPct - SHARE_CEILING_PROXIMITY_PCT)
    r.push(`revenue share ${t.revenueSharePct}% is within ${SHARE_CEILING_PROXIMITY_PCT}% of the ceiling ${env.revenueShareMaxPct}%`);
  if (t.termMonths <= env.termMinMonths || t.termMonths >= env.termMaxMonths)
    r.push(`term ${t.termMonths} months sits at a bound of ${env.termMinMonths}–${env.termMaxMonths}`);
  if (t.rounds >= TERMS_APPROVAL_ROUNDS) r.push(`${t.rounds} rounds (low confidence at ${TERMS_APPROVAL_ROUNDS} or more)`);
  if (t.outOfMandateAsks > 0) r.push(`${t.outOfMandateAsks} out-of-mandate ask(s) from the venue (low confidence)`);
  return r;
}

/** Terms outside the mandate cannot be recorded for review (the engine never agrees to them). */
export function outsideMandate(env: Envelope, t: Terms): string | null {
  if (t.revenueSharePct > env.revenueShareMaxPct) return `revenue share ${t.revenueSharePct}% is above the mandate max ${env.revenueShareMaxPct}%`;
  if (t.termMonths < env.termMinMonths || t.termMonths > env.termMaxMonths)
    return `term ${t.termMonths} months is outside ${env.termMinMonths}–${env.termMaxMonths}`;
  return null;
}

/** Portfolio settings (spec 3 §2) and their defaults for an operator who never set them. */
export const CAPABILITIES = ['placement', 'outreach', 'negotiation', 'contracting', 'install', 'inventory'] as const;
export interface PortfolioSettings {
  autopilot: boolean;
  autoApproveScore: number;
  maxAutoApprove: number;
  installMode: 'team' | 'self';
  autoInventory: boolean;
  inventoryMonthlyCapUsd: number;
  moneyThresholdUsd: number;
  /** null: no portfolio default, the autopilot master switch decides (key rule 4, level 5). */
  capabilityDefaults: Record<(typeof CAPABILITIES)[number], boolean | null>;
}
export const DEFAULT_SETTINGS: PortfolioSettings = {
  autopilot: false,
  autoApproveScore: 80,
  maxAutoApprove: 0,
  installMode: 'team',
  autoInventory: false,
  inventoryMonthlyCapUsd: 500,
  moneyThresholdUsd: 0,
  capabilityDefaults: { placement: null, outreach: null, negotiation: null, contracting: null, install: null, inventory: null },
};
