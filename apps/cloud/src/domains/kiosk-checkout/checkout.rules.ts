import type { CheckoutStatus } from '@vend/protocol';

/**
 * The rules of a pay-by-phone checkout (issue 32, docs/kiosk-screen.md "Cloud: checkouts"), pure: which moves
 * exist and from where, what the drop's command makes of a paid checkout, the words a shopper reads.
 */

/** While a checkout is in one of these it holds its cabinet: migration 0039's one-open index lists the same three. */
export const OPEN_STATUSES = ['awaiting_payment', 'paid', 'vending'] as const satisfies readonly CheckoutStatus[];

/**
 * Every move a checkout makes, as data: the statuses it may leave and the one it reaches. The repo's one
 * conditional update reads this table (`KioskCheckoutsRepo.move`), so two racing moves cannot both win and no
 * move happens from a status the table does not list. `vending` is the agent's to know (the board took the drop):
 * the cloud moves a paid checkout straight on by its command's outcome.
 */
export const CHECKOUT_MOVES = {
  /** The processor confirmed the payment in time. */
  pay: { from: ['awaiting_payment'], to: 'paid' },
  /** Nobody paid before `expires_at` (applied lazily, by whoever reads it next). */
  expire: { from: ['awaiting_payment'], to: 'expired' },
  /** The cabinet gave up (the shopper pressed Back), or the processor could not make the intent. */
  cancel: { from: ['awaiting_payment'], to: 'cancelled' },
  /** The drop's command was acknowledged: the product dropped. */
  vend: { from: ['paid', 'vending'], to: 'vended' },
  /** The drop's command failed or expired: the money is owed back. */
  fail: { from: ['paid', 'vending'], to: 'failed' },
} as const satisfies Record<string, { from: readonly CheckoutStatus[]; to: CheckoutStatus }>;

export type CheckoutMove = keyof typeof CHECKOUT_MOVES;

export function canMove(status: string, move: CheckoutMove): boolean {
  return (CHECKOUT_MOVES[move].from as readonly string[]).includes(status);
}

/** A payment that arrives once a checkout ended unpaid is recorded and owed back from these (never dropped for). */
export const LATE_PAYMENT_FROM = ['expired', 'cancelled'] as const satisfies readonly CheckoutStatus[];

/** What a checkout reads of its drop's command. */
export interface DropCommand {
  status: string;
  /** When the dispense-decision loop ruled the drop failed for want of an outcome (null: it did not). */
  expired_at: number | null;
}

/**
 * What a paid checkout's command says of it: its move, or null while the drop is still pending. A drop the
 * dispense-decision loop once ruled failed stays failed for the checkout, even if a late ack comes: its order was
 * owed back at that ruling and the two never disagree.
 */
export function moveOfCommand(command: DropCommand): 'vend' | 'fail' | null {
  if (command.expired_at !== null || command.status === 'failed' || command.status === 'expired') return 'fail';
  if (command.status === 'acknowledged') return 'vend';
  return null;
}

/** Why a paid checkout failed, in words a shopper reads on the phone and on the screen. */
export function failureDetail(command: DropCommand): string {
  return command.expired_at !== null
    ? 'The machine did not confirm the drop in time. Your payment will be refunded.'
    : 'The machine could not drop your product. Your payment will be refunded.';
}

/** Whole seconds from `now` until `expiresAt`; 0 once it has passed. */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.floor((expiresAt - now) / 1000));
}

/** Checkout ids: `chk_` and 32 hex digits (128 random bits: the phone page's address is its only key). */
export const CHECKOUT_ID = /^chk_[0-9a-f]{32}$/;

/** The remote command's reason for a paid checkout's drop (the operator's commands list shows it). */
export function dropReason(checkoutId: string): string {
  return `kiosk checkout ${checkoutId}`;
}

// --- refunds (issue 34): a failed drop or a late payment is refunded through the processor it was paid with ---

/** A checkout's refund: `owed` (money taken, not given back yet) → `issued` | `failed` (the processor refused). */
export type RefundState = 'owed' | 'issued' | 'failed';

/** Failed attempts after which the loop stops retrying and the refund is the operator's to make by hand. */
export const MAX_REFUND_ATTEMPTS = 3;
/** How long after its n-th failed attempt (index n − 1) a refund is tried again with a new key. */
export const REFUND_RETRY_AFTER_MS = [15 * 60_000, 2 * 60 * 60_000] as const;

/**
 * The idempotency key of a checkout's refund attempt: the checkout and how many attempts failed before it. An attempt
 * whose outcome is unknown (the processor did not answer) keeps the count, so its retry sends the same key and the
 * processor answers the refund it may have made; a refused attempt raises the count, so the next one is a new request.
 */
export function refundKey(checkoutId: string, failedAttempts: number): string {
  return `vend-checkout-refund-${checkoutId}-${failedAttempts}`;
}

/** What the refund loop reads of a checkout to know whether to try its refund now. */
export interface RefundDue {
  refund: string | null;
  refund_attempts: number;
  refund_at: number | null;
}

/** Owed: now. Failed: again once its wait after the last failure passed, until MAX_REFUND_ATTEMPTS failed. */
export function refundDue(r: RefundDue, now: number): boolean {
  if (r.refund === 'owed') return true;
  if (r.refund !== 'failed' || r.refund_attempts >= MAX_REFUND_ATTEMPTS) return false;
  const wait = REFUND_RETRY_AFTER_MS[Math.min(r.refund_attempts, REFUND_RETRY_AFTER_MS.length) - 1] ?? 0;
  return (r.refund_at ?? 0) + wait <= now;
}

/**
 * The cabinet's `refund` field: `owed` until the money is back. A refused refund is still owed to the shopper (and
 * cabinets that know only `owed` and `issued` keep reading it); `refundState` tells the rest.
 */
export function cabinetRefund(refund: string | null): 'owed' | 'issued' | null {
  if (refund === null) return null;
  return refund === 'issued' ? 'issued' : 'owed';
}

/** The sentence a shopper reads about their refund (null: nothing is owed). `amount`: the price, formatted. */
export function refundWords(refund: RefundState | null, amount: string, reason: string | null): string | null {
  switch (refund) {
    case 'owed':
      return `Your refund of ${amount} is on its way to the card you paid with.`;
    case 'issued':
      return `Refunded ${amount} to the card you paid with.`;
    case 'failed':
      return `We could not refund ${amount} automatically: ${reason ?? 'the payment service refused it'}. The operator has been told.`;
    case null:
      return null;
  }
}
