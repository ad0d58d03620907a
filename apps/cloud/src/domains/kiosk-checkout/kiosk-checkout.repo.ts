import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, KioskCheckoutEventRow, KioskCheckoutRow, KioskCheckoutsTable } from '../../db/schema.ts';
import { CHECKOUT_MOVES, LATE_PAYMENT_FROM, MAX_REFUND_ATTEMPTS, OPEN_STATUSES, type CheckoutMove } from './checkout.rules.ts';

/** A checkout with the cabinet it is for: its serial, name and location (the phone page shows them). */
export type CheckoutRecord = KioskCheckoutRow & { machine_no: string; machine_name: string; machine_location: string };

/** What a move may write besides the status. */
type MoveSet = Pick<Updateable<KioskCheckoutsTable>, 'paid_at' | 'refund' | 'detail'>;

/** SQL of pay-by-phone checkouts: the one writer of `kiosk_checkouts` and `kiosk_checkout_events`. */
export class KioskCheckoutsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private records() {
    return this.db
      .selectFrom('kiosk_checkouts')
      .innerJoin('machines', 'machines.id', 'kiosk_checkouts.machine_id')
      .selectAll('kiosk_checkouts')
      .select(['machines.machine_no', 'machines.name as machine_name', 'machines.location as machine_location']);
  }

  checkout(id: string): Promise<CheckoutRecord | undefined> {
    return this.records().where('kiosk_checkouts.id', '=', id).executeTakeFirst();
  }

  /** The machine's checkouts that still hold it (at most one, the index says). */
  openOf(machineId: string): Promise<CheckoutRecord[]> {
    return this.records().where('kiosk_checkouts.machine_id', '=', machineId).where('kiosk_checkouts.status', 'in', OPEN_STATUSES).execute();
  }

  /** Inserts unless the machine already has an open checkout (the one-open index decides, even between racing calls); true when inserted. */
  async insert(row: Insertable<KioskCheckoutsTable>): Promise<boolean> {
    const r = await this.db
      .insertInto('kiosk_checkouts')
      .values(row)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** The processor's intent, once it exists. */
  async setIntent(id: string, intentId: string, checkoutUrl: string, now: number): Promise<void> {
    await this.db.updateTable('kiosk_checkouts').set({ intent_id: intentId, checkout_url: checkoutUrl, updated_at: now }).where('id', '=', id).execute();
  }

  /**
   * THE status change of a checkout: `move` from the statuses its row of `CHECKOUT_MOVES` lists, only while the
   * checkout is still in one of them (a conditional update, so of two racing moves one wins). True when this call moved it.
   */
  async move(id: string, move: CheckoutMove, set: MoveSet, now: number): Promise<boolean> {
    const { from, to } = CHECKOUT_MOVES[move];
    const r = await this.db
      .updateTable('kiosk_checkouts')
      .set({ ...set, status: to, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The order and command a paid checkout made (in the payment's transaction, after `move('pay')`). */
  async linkDrop(id: string, orderNumber: string, commandId: string, now: number): Promise<void> {
    await this.db.updateTable('kiosk_checkouts').set({ order_number: orderNumber, command_id: commandId, updated_at: now }).where('id', '=', id).execute();
  }

  /**
   * A payment after the checkout ended unpaid (expired or cancelled): recorded as money owed back, once (only while
   * no payment was recorded on it). True when this call recorded it.
   */
  async owePayment(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('kiosk_checkouts')
      .set({ paid_at: now, refund: 'owed', updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', LATE_PAYMENT_FROM)
      .where('paid_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** The order a late payment made. */
  async setOrder(id: string, orderNumber: string, now: number): Promise<void> {
    await this.db.updateTable('kiosk_checkouts').set({ order_number: orderNumber, updated_at: now }).where('id', '=', id).execute();
  }

  /** Paid checkouts whose drop has a command (the refund loop settles them, so a failed drop is owed back unread). */
  dropsUnderWay(limit: number): Promise<CheckoutRecord[]> {
    return this.records()
      .where('kiosk_checkouts.status', 'in', ['paid', 'vending'])
      .where('kiosk_checkouts.command_id', 'is not', null)
      .orderBy('kiosk_checkouts.updated_at')
      .limit(limit)
      .execute();
  }

  /** Refunds the loop may try: owed ones, and failed ones with attempts left (`refundDue` says which are due now), oldest first. */
  refundsToTry(limit: number): Promise<CheckoutRecord[]> {
    return this.records()
      .where((eb) =>
        eb.or([
          eb('kiosk_checkouts.refund', '=', 'owed'),
          eb.and([eb('kiosk_checkouts.refund', '=', 'failed'), eb('kiosk_checkouts.refund_attempts', '<', MAX_REFUND_ATTEMPTS)]),
        ]),
      )
      .orderBy('kiosk_checkouts.updated_at')
      .orderBy('kiosk_checkouts.id')
      .limit(limit)
      .execute();
  }

  /**
   * Attempt `attempt`'s refund issued: once, and only while the refund is still owed or failed after exactly that many
   * failed attempts (so a stale answer of an older attempt changes nothing). True when this call recorded it.
   */
  async refundIssued(id: string, attempt: number, refundId: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('kiosk_checkouts')
      .set({ refund: 'issued', refund_id: refundId, refund_failure: null, refund_at: now, updated_at: now })
      .where('id', '=', id)
      .where('refund', 'in', ['owed', 'failed'])
      .where('refund_attempts', '=', attempt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Attempt `attempt` refused, with the processor's reason: once per attempt (the next gets a new key). True when this call recorded it. */
  async refundFailed(id: string, attempt: number, reason: string, refundId: string | null, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('kiosk_checkouts')
      .set({ refund: 'failed', refund_id: refundId, refund_failure: reason, refund_at: now, refund_attempts: attempt + 1, updated_at: now })
      .where('id', '=', id)
      .where('refund', 'in', ['owed', 'failed'])
      .where('refund_attempts', '=', attempt)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Claims a processor event id: false when it was seen before (the primary key decides, even between racing deliveries). */
  async claimEvent(row: KioskCheckoutEventRow): Promise<boolean> {
    const r = await this.db
      .insertInto('kiosk_checkout_events')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
  }
}
