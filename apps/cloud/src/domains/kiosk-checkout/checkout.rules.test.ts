import { describe, expect, it } from 'vitest';
import { CHECKOUT_FINAL, CHECKOUT_STATUSES } from '@vend/protocol';
import {
  CHECKOUT_MOVES,
  MAX_REFUND_ATTEMPTS,
  OPEN_STATUSES,
  cabinetRefund,
  canMove,
  failureDetail,
  moveOfCommand,
  refundDue,
  refundKey,
  refundWords,
  secondsLeft,
  type CheckoutMove,
} from './checkout.rules.ts';

const MOVES = Object.keys(CHECKOUT_MOVES) as CheckoutMove[];

describe('the checkout rules', () => {
  it('every move goes between statuses of the protocol; a final status is never left', () => {
    for (const move of MOVES) {
      const { from, to } = CHECKOUT_MOVES[move];
      expect(CHECKOUT_STATUSES).toContain(to);
      for (const s of from) {
        expect(CHECKOUT_STATUSES).toContain(s);
        expect(CHECKOUT_FINAL, `${move} leaves ${s}`).not.toContain(s);
      }
    }
  });

  it('canMove answers the table for every status and move, and nothing else', () => {
    for (const status of [...CHECKOUT_STATUSES, 'bogus'])
      for (const move of MOVES) expect(canMove(status, move), `${move} from ${status}`).toBe((CHECKOUT_MOVES[move].from as readonly string[]).includes(status));
    expect(canMove('awaiting_payment', 'pay')).toBe(true);
    expect(canMove('paid', 'cancel')).toBe(false);
    expect(canMove('expired', 'pay')).toBe(false);
  });

  it('open statuses are the unfinished ones, and every one of them can end', () => {
    expect([...OPEN_STATUSES].sort()).toEqual(CHECKOUT_STATUSES.filter((s) => !CHECKOUT_FINAL.includes(s)).sort());
    for (const s of OPEN_STATUSES)
      expect(
        MOVES.some((m) => canMove(s, m)),
        s,
      ).toBe(true);
  });

  it('a paid checkout follows its command: acknowledged vends, failed or expired fails, pending waits', () => {
    expect(moveOfCommand({ status: 'acknowledged', expired_at: null })).toBe('vend');
    expect(moveOfCommand({ status: 'failed', expired_at: null })).toBe('fail');
    expect(moveOfCommand({ status: 'expired', expired_at: 5 })).toBe('fail');
    expect(moveOfCommand({ status: 'pending', expired_at: null })).toBeNull();
    // a late ack after the decision loop's ruling: the ruling stands (its order was owed back then)
    expect(moveOfCommand({ status: 'acknowledged', expired_at: 5 })).toBe('fail');
    expect(failureDetail({ status: 'failed', expired_at: null })).toMatch(/could not drop.*refunded/);
    expect(failureDetail({ status: 'acknowledged', expired_at: 5 })).toMatch(/in time.*refunded/);
  });

  it('secondsLeft counts whole seconds down to 0, never below', () => {
    expect(secondsLeft(10_000, 0)).toBe(10);
    expect(secondsLeft(10_000, 500)).toBe(9);
    expect(secondsLeft(10_000, 10_000)).toBe(0);
    expect(secondsLeft(10_000, 99_000)).toBe(0);
  });
});

describe('the refund rules', () => {
  const MIN = 60_000;
  it('an owed refund is due at once; a refused one after 15 min, then 2 h, and never after the third refusal', () => {
    expect(refundDue({ refund: 'owed', refund_attempts: 0, refund_at: null }, 0)).toBe(true);
    expect(refundDue({ refund: 'owed', refund_attempts: 2, refund_at: 1_000 }, 1_000)).toBe(true);
    expect(refundDue({ refund: null, refund_attempts: 0, refund_at: null }, 0)).toBe(false);
    expect(refundDue({ refund: 'issued', refund_attempts: 0, refund_at: 0 }, 10 ** 12)).toBe(false);
    const failed = (attempts: number) => ({ refund: 'failed', refund_attempts: attempts, refund_at: 1_000 });
    expect(refundDue(failed(1), 1_000 + 15 * MIN - 1)).toBe(false);
    expect(refundDue(failed(1), 1_000 + 15 * MIN)).toBe(true);
    expect(refundDue(failed(2), 1_000 + 120 * MIN - 1)).toBe(false);
    expect(refundDue(failed(2), 1_000 + 120 * MIN)).toBe(true);
    expect(refundDue(failed(MAX_REFUND_ATTEMPTS), 10 ** 12)).toBe(false);
  });

  it('each attempt has its own key; the cabinet reads a refused refund as still owed', () => {
    expect(refundKey('chk_1', 0)).toBe('vend-checkout-refund-chk_1-0');
    expect(refundKey('chk_1', 1)).not.toBe(refundKey('chk_1', 0));
    expect([null, 'owed', 'issued', 'failed'].map(cabinetRefund)).toEqual([null, 'owed', 'issued', 'owed']);
  });

  it('the shopper reads how the refund stands', () => {
    expect(refundWords(null, '$2.50', null)).toBeNull();
    expect(refundWords('owed', '$2.50', null)).toBe('Your refund of $2.50 is on its way to the card you paid with.');
    expect(refundWords('issued', '$2.50', null)).toBe('Refunded $2.50 to the card you paid with.');
    expect(refundWords('failed', '$2.50', 'card closed')).toBe('We could not refund $2.50 automatically: card closed. The operator has been told.');
  });
});
