import { describe, expect, it } from 'vitest';
import { autoApproval, autoApproveWindowStart, orderApprovalReasons } from './autopilot.ts';

describe('what the autopilot may do alone', () => {
  it('the auto-approval window is the UTC calendar day', () => {
    expect(autoApproveWindowStart(Date.parse('2026-11-20T23:59:59.999Z'))).toBe(Date.parse('2026-11-20T00:00:00Z'));
    expect(autoApproveWindowStart(Date.parse('2026-11-21T00:00:00Z'))).toBe(Date.parse('2026-11-21T00:00:00Z'));
  });

  it('accepts a venue alone only at or above autoApproveScore and under maxAutoApprove in the window', () => {
    const s = { autoApproveScore: 80, maxAutoApprove: 2 };
    expect(autoApproval(80, s, 0)).toEqual({ ok: true });
    expect(autoApproval(79.9, s, 0)).toMatchObject({ ok: false, reason: expect.stringMatching(/below autoApproveScore 80/) });
    expect(autoApproval(95, s, 1)).toEqual({ ok: true });
    expect(autoApproval(95, s, 2)).toMatchObject({ ok: false, reason: expect.stringMatching(/2 of maxAutoApprove 2/) });
    expect(autoApproval(100, { autoApproveScore: 0, maxAutoApprove: 0 }, 0)).toMatchObject({ ok: false });
  });

  it('an order waits for approval over the month cap (the sum) or over moneyThresholdUsd (the one order); 0 means every order waits', () => {
    const s = { inventoryMonthlyCapUsd: 100, moneyThresholdUsd: 30 };
    expect(orderApprovalReasons(0, 3000, s)).toEqual([]);
    expect(orderApprovalReasons(0, 3001, s)).toEqual(['over the money threshold of 30 USD']);
    expect(orderApprovalReasons(8000, 2001, s)).toEqual(['over the monthly cap of 100 USD']);
    expect(orderApprovalReasons(9000, 3001, s)).toHaveLength(2);
    expect(orderApprovalReasons(0, 1, { inventoryMonthlyCapUsd: 100, moneyThresholdUsd: 0 })).toEqual(['over the money threshold of 0 USD']);
  });
});
