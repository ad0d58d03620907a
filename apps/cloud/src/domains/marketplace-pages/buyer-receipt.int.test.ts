import { Writable } from 'node:stream';
import type { ManualClock } from '@vend/protocol';
import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import type { RecordingMailSender } from '../../mail/mail-sender.ts';
import type { WebhookResult } from '../ad-purchases/ad-purchases.schemas.ts';
import { buy, marketplaceCast, pay, statusOf } from '../ad-purchases/ad-purchases.test-support.ts';
import { RECEIPT_RETRY } from '../ad-purchases/ad-receipts.ts';
import { SANDBOX_REJECTED_PURCHASE } from '../ad-purchases/sandbox-seed.ts';
import { PageClient } from './pages.test-support.ts';

const BUYER = 'dana@deli.example';

/** The buyer's receipt e-mail (issue 34): queued with the payment, sent once after the commit, retried when the sender fails. */
describe.each(DIALECTS)('the ad buyer receipt on %s', (dialect) => {
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' }, logDestination: sink });
  const outbox = () => t.services.mail as RecordingMailSender;
  const receiptsTo = (email: string) => outbox().sent.filter((m) => m.to === email && m.subject.startsWith('Receipt:'));
  const row = (id: string) => t.services.store.repos.adPurchases.purchase(id);

  it('sends one receipt once paid, with the status link, the amount and what was bought; a replayed webhook sends none', async () => {
    await marketplaceCast(t);
    const p = await buy(t);
    expect(receiptsTo(BUYER)).toHaveLength(0);
    const done = await pay(t, p.paymentIntentId);
    expect(done.delivery.status).toBe(200);

    const mails = receiptsTo(BUYER);
    expect(mails).toHaveLength(1);
    const text = mails[0]!.text;
    const total = `$${(p.quote.totalCents / 100).toFixed(2)}`;
    expect(mails[0]!.subject).toContain(total);
    expect(text).toContain(`Amount paid: ${total}`);
    expect(text).toMatch(new RegExp(`^http://[^\\s]+/advertise/status/${p.statusToken.replace('.', '\\.')}$`, 'm'));
    for (const o of p.quote.operators) for (const m of o.machineNos) expect(text).toContain(m);
    expect(text).toContain(`From ${p.quote.flightStart.slice(0, 10)} to ${p.quote.flightEnd.slice(0, 10)}`);
    expect(text).toContain(`${p.quote.machines} kiosks`);
    // the link opens the buyer's status page
    const page = await new PageClient(t.url).get(`/advertise/status/${p.statusToken}`);
    expect(page.status).toBe(200);

    const stored = (await row(p.purchaseId))!;
    expect(stored).toMatchObject({ receipt_status: 'sent', receipt_attempts: 0 });
    // the token is sealed, never in clear: no column of the row holds it or its secret
    const secret = p.statusToken.split('.')[1]!;
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored.status_token_sealed).toMatch(/^gcm\$/);

    // the processor delivers the same event again, then the loop runs: nothing more is sent
    const again = await pay(t, p.paymentIntentId);
    expect(again.delivery.status).toBe(200);
    expect((again.delivery.answer as { data: WebhookResult }).data.duplicate).toBe(true);
    await t.services.adReceipts.sendDue();
    expect(receiptsTo(BUYER)).toHaveLength(1);
  });

  it('retries a receipt the mail sender refused, later; neither the row nor the logs hold the address', async () => {
    const clock = t.clock as ManualClock;
    const mail = outbox();
    const send = mail.send.bind(mail);
    let failures = 0;
    mail.send = (m) => {
      failures++;
      return Promise.reject(new Error(`451 mailbox busy for <${m.to}>`));
    };
    const p = await buy(t, { buyer: { name: 'Ray Retry', email: 'ray@retry.example' } });
    try {
      const done = await pay(t, p.paymentIntentId);
      // the payment is confirmed whatever the mail does
      expect(done.delivery.status).toBe(200);
      expect((await statusOf(t, p.statusToken)).status).toBe('pending_approval');
      expect(failures).toBe(1);
      let stored = (await row(p.purchaseId))!;
      expect(stored).toMatchObject({ receipt_status: 'queued', receipt_attempts: 1 });
      expect(stored.receipt_error).toContain('r…@retry.example');
      expect(stored.receipt_error).not.toContain('ray@retry.example');
      // not due yet: the loop leaves it
      await t.services.adReceipts.sendDue();
      expect(failures).toBe(1);
      clock.advance(RECEIPT_RETRY.firstDelayMs);
      await t.services.adReceipts.sendDue();
      expect(failures).toBe(2);
      stored = (await row(p.purchaseId))!;
      expect(Number(stored.receipt_next_at)).toBe(clock.now() + 2 * RECEIPT_RETRY.firstDelayMs);
    } finally {
      mail.send = send;
    }
    clock.advance(2 * RECEIPT_RETRY.firstDelayMs);
    expect(await t.services.adReceipts.sendDue()).toBe(1);
    expect(receiptsTo('ray@retry.example')).toHaveLength(1);
    expect(receiptsTo('ray@retry.example')[0]!.text).toContain(`/advertise/status/${p.statusToken}`);
    expect(await row(p.purchaseId)).toMatchObject({ receipt_status: 'sent', receipt_attempts: 2 });
    // the logs say what happened to the receipt with the masked address, never the address or the token
    const receiptLogs = logs.filter((l) => l.includes('ad receipt e-mail'));
    expect(receiptLogs.some((l) => l.includes('retried later') && l.includes('r…@retry.example'))).toBe(true);
    expect(receiptLogs.some((l) => l.includes('"ad receipt e-mail sent"') && l.includes(p.purchaseId))).toBe(true);
    expect(logs.filter((l) => l.includes('ray@retry.example'))).toEqual([]);
    expect(receiptLogs.filter((l) => l.includes(p.statusToken.split('.')[1]!))).toEqual([]);
    clock.advance(RECEIPT_RETRY.maxDelayMs);
    expect(await t.services.adReceipts.sendDue()).toBe(0);
    expect(receiptsTo('ray@retry.example')).toHaveLength(1);
  });

  it('gives a receipt up after the last try', async () => {
    const clock = t.clock as ManualClock;
    const mail = outbox();
    const send = mail.send.bind(mail);
    mail.send = () => Promise.reject(new Error('550 relay refused'));
    const p = await buy(t, { buyer: { name: 'Gus Giveup', email: 'gus@giveup.example' } });
    try {
      await pay(t, p.paymentIntentId);
      for (let i = 1; i < RECEIPT_RETRY.maxAttempts; i++) {
        clock.advance(RECEIPT_RETRY.maxDelayMs);
        await t.services.adReceipts.sendDue();
      }
    } finally {
      mail.send = send;
    }
    expect(await row(p.purchaseId)).toMatchObject({ receipt_status: 'failed', receipt_attempts: RECEIPT_RETRY.maxAttempts, receipt_next_at: null });
    clock.advance(RECEIPT_RETRY.maxDelayMs);
    await t.services.adReceipts.sendDue();
    expect(receiptsTo('gus@giveup.example')).toHaveLength(0);
  });

  it('the sandbox seed holds a rejected, paid purchase whose status page shows the refund owed', async () => {
    const page = await new PageClient(t.url).get(`/advertise/status/${SANDBOX_REJECTED_PURCHASE.statusToken}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-status="rejected"');
    expect(page.text).toContain('Refund of $99.00 owed by Alice Vending Co');
    const admin = await expectStatus<{ lines: { refund: { status: string } | null }[]; paidAt: string | null }>(
      call(t.url, 'GET', `/api/v1/ad-purchases/${SANDBOX_REJECTED_PURCHASE.id}`, { headers: { 'x-api-key': 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d' } }),
      200,
    );
    expect(admin.body.data.paidAt).not.toBeNull();
    expect(admin.body.data.lines.map((l) => l.refund?.status)).toEqual(['owed']);
  });
});
