import { describe, expect, it } from 'vitest';
import { CHECKOUT_FINAL, CHECKOUT_STATUSES } from '@vend/protocol';
import { CHECKOUT_MOVES, OPEN_STATUSES, canMove, failureDetail, moveOfCommand, secondsLeft, type CheckoutMove } from './checkout.rules.ts';

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
