import { describe, expect, it } from 'vitest';
import { CHECKOUT_STATUSES } from '@vend/protocol';
import { randomHex } from '../../crypto/secrets.ts';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { CHECKOUT_MOVES, canMove, type CheckoutMove } from './checkout.rules.ts';

describe.each(DIALECTS)('the kiosk checkouts repo on %s', (dialect) => {
  const t = suiteServer(dialect, { seed: false });
  const repo = () => t.services.store.repos.kioskCheckouts;
  const row = (status: string, machineId = `m_${randomHex(6)}`) => ({
    id: `chk_${randomHex(16)}`,
    machine_id: machineId,
    operator_id: null,
    aisle_no: 1,
    product_name: 'Cola',
    amount_cents: 175,
    currency: 'USD',
    processor: 'test',
    intent_id: null,
    checkout_url: null,
    pay_url: 'http://x/buy/chk',
    status,
    created_at: 1,
    expires_at: 2,
    paid_at: null,
    order_number: null,
    command_id: null,
    refund: null,
    detail: null,
    updated_at: 1,
  });
  const statusOf = async (id: string) =>
    (await t.ctx.database.db.selectFrom('kiosk_checkouts').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('walks every move from every status: it happens exactly where CHECKOUT_MOVES allows it', async () => {
    for (const status of CHECKOUT_STATUSES) {
      for (const move of Object.keys(CHECKOUT_MOVES) as CheckoutMove[]) {
        const r = row(status);
        expect(await repo().insert(r)).toBe(true);
        const moved = await repo().move(r.id, move, {}, 5);
        expect(moved, `${move} from ${status}`).toBe(canMove(status, move));
        expect(await statusOf(r.id)).toBe(moved ? CHECKOUT_MOVES[move].to : status);
      }
    }
  });

  it('holds at most one open checkout per machine: a second open insert is refused, a closed one is not', async () => {
    const machine = `m_${randomHex(6)}`;
    const first = row('awaiting_payment', machine);
    expect(await repo().insert(first)).toBe(true);
    for (const open of ['awaiting_payment', 'paid', 'vending']) expect(await repo().insert(row(open, machine)), open).toBe(false);
    expect(await repo().insert(row('expired', machine))).toBe(true);
    expect(await repo().move(first.id, 'pay', { paid_at: 3 }, 3)).toBe(true);
    expect(await repo().insert(row('awaiting_payment', machine))).toBe(false);
    expect(await repo().move(first.id, 'vend', {}, 4)).toBe(true);
    expect(await repo().insert(row('awaiting_payment', machine))).toBe(true);
  });

  it('a late payment is recorded once, and only on a checkout that ended unpaid', async () => {
    for (const status of CHECKOUT_STATUSES) {
      const r = row(status);
      await repo().insert(r);
      const owed = await repo().owePayment(r.id, 9);
      expect(owed, status).toBe(status === 'expired' || status === 'cancelled');
      expect(await repo().owePayment(r.id, 10)).toBe(false);
    }
  });

  it('claims a processor event id once', async () => {
    const e = {
      id: `evt_${randomHex(8)}`,
      processor: 'test',
      type: 'payment_intent.succeeded',
      intent_id: 'pi_1',
      checkout_id: 'chk_1',
      payload: '{}',
      received_at: 1,
    };
    expect(await repo().claimEvent(e)).toBe(true);
    expect(await repo().claimEvent({ ...e, payload: '{"again":true}' })).toBe(false);
  });
});
