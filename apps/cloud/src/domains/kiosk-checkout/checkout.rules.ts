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
