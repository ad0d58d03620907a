import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, call, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { OPERATOR_IDS } from '../../db/seed.ts';
import { ADMIN, ALICE, BOB, catalogued, machineIdOf, sendWebhook, snapshot, startServer, terminalOf } from './operator-core.test-support.ts';
import { signWebhook } from '../../http/webhook-signature.ts';

interface PaymentOut {
  orderNumber: string;
  machineNo: string;
  terminalId: string;
  cardBrand: string | null;
  last4: string | null;
  settlementAccount: string | null;
  payMethod: string;
  amount: number;
  amountCents: number;
  status: 'captured' | 'refunded';
  payStatus: string;
  createdAt: string;
}
interface Totals {
  count: number;
  capturedCents: number;
  refundedCents: number;
  settledCents: number;
}
type Result = { eventId: string; type: string; duplicate: boolean; orderNumber: string | null; payStatus: string | null };

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../docs/payments-webhook.md');

let seq = 0;
const uid = (p: string) => `${p}_${Date.now().toString(36)}_${seq++}`;

describe.each(DIALECTS)('payments on %s', (dialect) => {
  let t: TestServer;
  let aliceTerminal: string;
  beforeAll(async () => {
    t = await startServer(dialect);
    aliceTerminal = await terminalOf(t, 'SBX-ALICE-0001');
  });
  afterAll(async () => t.close());

  const db = () => t.ctx.database.db;
  const cashlessOf = (operatorId: string | null) =>
    db()
      .selectFrom('orders')
      .selectAll()
      .where('terminal_id', 'is not', null)
      .$if(operatorId !== null, (q) => q.where('operator_id', '=', operatorId))
      .execute();
  const capture = (data: Record<string, unknown>, id = uid('evt')) =>
    ({
      id,
      type: 'payment.captured',
      data: { paymentId: uid('pay'), terminalId: aliceTerminal, amountCents: 150, cardBrand: 'visa', last4: '4242', aisleNo: 3, ...data },
    }) as const;
  const order = (n: string) => db().selectFrom('orders').selectAll().where('order_number', '=', n).executeTakeFirstOrThrow();

  describe('reads', () => {
    it('lists every cashless transaction of the caller with terminal, brand, last four and settlement account', async () => {
      const mine = await cashlessOf(OPERATOR_IDS.alice);
      const r = await call<Body<{ total: number; records: PaymentOut[] }>>(t.url, 'GET', '/api/v1/payments', { headers: ALICE, query: { size: '100' } });
      expect(r.status).toBe(200);
      expect(r.body.data.total).toBe(mine.length);
      const byNo = new Map(mine.map((o) => [o.order_number, o]));
      for (const p of r.body.data.records) {
        const o = byNo.get(p.orderNumber)!;
        expect(p).toEqual({
          orderNumber: o.order_number,
          machineNo: expect.stringMatching(/^SBX-ALICE-/),
          terminalId: o.terminal_id,
          cardBrand: o.card_brand,
          last4: o.card_last4,
          settlementAccount: 'acct_op_sbx_alice',
          payMethod: o.pay_method,
          amount: o.charged_cents / 100,
          amountCents: o.charged_cents,
          status: o.pay_status === 'refunded' ? 'refunded' : 'captured',
          payStatus: o.pay_status,
          createdAt: new Date(o.created_at).toISOString().replace('Z', '+0000'),
        });
        expect(p.payMethod).not.toBe('cash');
      }
    });

    it('honours the machine filter; another operator’s machine is 404', async () => {
      const r = await call<Body<{ records: PaymentOut[] }>>(t.url, 'GET', '/api/v1/payments', {
        headers: ALICE,
        query: { machineNo: 'SBX-ALICE-0002', size: '100' },
      });
      expect(new Set(r.body.data.records.map((p) => p.machineNo))).toEqual(new Set(['SBX-ALICE-0002']));
      expect((await call(t.url, 'GET', '/api/v1/payments', { headers: ALICE, query: { machineNo: 'SBX-BOB-0001' } })).status).toBe(404);
    });

    it('totals by settlement account: the caller’s own, or every account for admin', async () => {
      const expected = (rows: Awaited<ReturnType<typeof cashlessOf>>): Totals => {
        const captured = rows.reduce((a, o) => a + o.charged_cents, 0);
        const refunded = rows.filter((o) => o.pay_status === 'refunded').reduce((a, o) => a + o.charged_cents, 0);
        return { count: rows.length, capturedCents: captured, refundedCents: refunded, settledCents: captured - refunded };
      };
      const alice = await cashlessOf(OPERATOR_IDS.alice);
      const r = await call<Body<Totals & { accounts: (Totals & { settlementAccount: string })[] }>>(t.url, 'GET', '/api/v1/payments/summary', {
        headers: ALICE,
      });
      expect(r.status).toBe(200);
      expect(r.body.data.accounts).toEqual([{ settlementAccount: 'acct_op_sbx_alice', ...expected(alice) }]);
      expect(r.body.data).toMatchObject(expected(alice));
      expect(expected(alice).refundedCents).toBeGreaterThan(0);

      const a = await call<Body<{ accounts: (Totals & { settlementAccount: string })[] }>>(t.url, 'GET', '/api/v1/payments/summary', { headers: ADMIN });
      const bob = await cashlessOf(OPERATOR_IDS.bob);
      expect(a.body.data.accounts).toEqual([
        { settlementAccount: 'acct_op_sbx_alice', ...expected(alice) },
        { settlementAccount: 'acct_op_sbx_bob', ...expected(bob) },
      ]);
    });

    it('shows which reader is on which machine and which account it feeds', async () => {
      type T = { terminalId: string; machineNo: string; provider: string; settlementAccount: string; boundAt: string };
      const r = await call<Body<T[]>>(t.url, 'GET', '/api/v1/payments/cashless/terminals', { headers: ALICE });
      expect(r.status).toBe(200);
      expect(r.body.data.map((x) => [x.machineNo, x.settlementAccount])).toEqual([
        ['SBX-ALICE-0001', 'acct_op_sbx_alice'],
        ['SBX-ALICE-0002', 'acct_op_sbx_alice'],
        ['SBX-ALICE-0003', 'acct_op_sbx_alice'],
      ]);
      expect(r.body.data[0]).toEqual({
        terminalId: aliceTerminal,
        machineNo: 'SBX-ALICE-0001',
        provider: 'sandbox-pay',
        settlementAccount: 'acct_op_sbx_alice',
        boundAt: expect.stringMatching(/\+0000$/),
      });
      const b = await call<Body<T[]>>(t.url, 'GET', '/api/v1/payments/cashless/terminals', { headers: BOB });
      expect(b.body.data.map((x) => x.machineNo)).toEqual(['SBX-BOB-0001', 'SBX-BOB-0002']);
      const a = await call<Body<T[]>>(t.url, 'GET', '/api/v1/payments/cashless/terminals', { headers: ADMIN });
      expect(a.body.data.find((x) => x.machineNo === 'SBX-POOL-0001')?.settlementAccount).toBe('acct_unclaimed_pool');
      expect(a.body.data).toHaveLength(6);
    });
  });

  describe('webhook', () => {
    // First in this block: the example is signed at the test clock's start, and a later test moves the clock on.
    it('the worked example in docs/payments-webhook.md is accepted verbatim', async () => {
      const doc = fs.readFileSync(DOC, 'utf8');
      const ts = /^X-Vend-Timestamp: (\d+)$/m.exec(doc)?.[1];
      const sig = /^X-Vend-Signature: (v1=[0-9a-f]{64})$/m.exec(doc)?.[1];
      const body = /Body \(exact bytes, one line\):\n\n```json\n(.*)\n```/.exec(doc)?.[1];
      expect(/"terminalId":"([^"]+)"/.exec(body ?? '')?.[1]).toBe(aliceTerminal);
      expect(sig).toBe(signWebhook(t.ctx.config.webhookSecret, ts!, body!));
      expect(Math.abs(Number(ts) - t.clock.now() / 1000)).toBeLessThanOrEqual(300);
      const r = await sendWebhook(t, body!, { timestamp: ts!, signature: sig! });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ eventId: 'evt_doc_0001', duplicate: false, payStatus: 'shipped' });
      const o = await order((r.body.data as Result).orderNumber!);
      expect(o).toMatchObject({ charged_cents: 175, aisle_no: 1, card_brand: 'visa', card_last4: '4242', settlement_account: 'acct_op_sbx_alice' });
    });

    it('a captured payment on a known terminal records a cashless order settled to the machine owner', async () => {
      await db().updateTable('machines').set({ sales_tax_rate: 8.875 }).where('machine_no', '=', 'SBX-ALICE-0001').execute();
      const ev = capture({ amountCents: 175, aisleNo: 1, cardBrand: 'mastercard', last4: '0042' });
      const r = await sendWebhook(t, ev);
      expect(r.status).toBe(200);
      const data = r.body.data as Result;
      expect(data).toMatchObject({ eventId: ev.id, type: 'payment.captured', duplicate: false, payStatus: 'shipped' });
      const o = await order(data.orderNumber!);
      expect(o).toMatchObject({
        machine_id: await machineIdOf(t, 'SBX-ALICE-0001'),
        operator_id: OPERATOR_IDS.alice,
        aisle_no: 1,
        pay_status: 'shipped',
        charged_cents: 175,
        paid_cents: 175,
        tax_rate: 8.875,
        channel: 'walkup',
        pay_method: 'card',
        terminal_id: aliceTerminal,
        card_brand: 'mastercard',
        card_last4: '0042',
        settlement_account: 'acct_op_sbx_alice',
        payment_ref: ev.data.paymentId,
        created_at: t.clock.now(),
      });
      const seen = await call<Body<{ payment: unknown; chargedCents: number; taxCents: number }>>(t.url, 'GET', `/api/v1/orders/${o.order_number}`, {
        headers: ALICE,
      });
      expect(seen.body.data).toMatchObject({
        chargedCents: 175,
        taxCents: 14,
        payment: { terminalId: aliceTerminal, cardBrand: 'mastercard', last4: '0042', settlementAccount: 'acct_op_sbx_alice' },
      });
      expect((await call(t.url, 'GET', `/api/v1/orders/${o.order_number}`, { headers: BOB })).status).toBe(404);
      const audit = await db().selectFrom('audit_log').selectAll().where('resource', '=', `order:${o.order_number}`).execute();
      expect(audit.map((a) => a.action)).toEqual(['payments.webhook.captured']);
      await db().updateTable('machines').set({ sales_tax_rate: null }).execute();
    });

    it('a capture naming an existing cabinet order attaches the payment to it, amount unchanged', async () => {
      const m2 = await machineIdOf(t, 'SBX-ALICE-0002');
      const cash = await db().selectFrom('orders').selectAll().where('machine_id', '=', m2).where('pay_method', '=', 'cash').executeTakeFirstOrThrow();
      const terminal = await terminalOf(t, 'SBX-ALICE-0002');
      const ev = capture({
        terminalId: terminal,
        orderNumber: cash.order_number,
        amountCents: cash.charged_cents,
        method: 'wallet',
        cardBrand: 'apple_pay',
        aisleNo: undefined,
      });
      const r = await sendWebhook(t, ev);
      expect(r.status).toBe(200);
      expect((r.body.data as Result).orderNumber).toBe(cash.order_number);
      expect(await order(cash.order_number)).toEqual({
        ...cash,
        terminal_id: terminal,
        card_brand: 'apple_pay',
        card_last4: '4242',
        settlement_account: 'acct_op_sbx_alice',
        pay_method: 'wallet',
        payment_ref: ev.data.paymentId,
        updated_at: t.clock.now(),
      });
    });

    it.each([
      ['an order on another machine', async (t: TestServer) => ({ orderNumber: await anyOrder(t, 'SBX-ALICE-0002') })],
      ['a different amount', async (t: TestServer) => ({ orderNumber: await anyOrder(t, 'SBX-ALICE-0001'), amountCents: 99_999 })],
    ])('refuses to attach to %s with 409 and changes nothing', async (_what, make) => {
      const before = await snapshot(t);
      const r = await sendWebhook(t, capture(await make(t)));
      expect(r.status).toBe(409);
      expect(r.body.data).toBeNull();
      expect(await snapshot(t)).toBe(before);
    });

    it('refuses an unknown terminal with 404 and records nothing, so a retry after binding it can succeed', async () => {
      const before = await snapshot(t);
      const r = await sendWebhook(t, capture({ terminalId: 'trm_unknown_0001' }));
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, message: 'Unknown payment terminal trm_unknown_0001', data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it.each([
      ['no aisle for a new order', { aisleNo: undefined }, 400, 'body.data.aisleNo: is required'],
      ['an aisle the machine lacks', { aisleNo: 11 }, 400, 'body.data.aisleNo: Machine SBX-ALICE-0001 has no aisle 11'],
      ['a string amount', { amountCents: '150' }, 422, 'amountCents'],
      ['a negative amount', { amountCents: -1 }, 400, 'amountCents'],
      ['a five-digit last4', { last4: '42424' }, 400, 'last4'],
      ['an unknown field', { tip: 1 }, 400, 'tip'],
    ])('refuses %s and changes nothing', async (_what, data, status, inMessage) => {
      const before = await snapshot(t);
      const r = await sendWebhook(t, capture(data));
      expect(r.status).toBe(status);
      expect(r.body).toEqual({ code: status, message: expect.stringMatching(catalogued(status, inMessage)), data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it('refuses signed bodies that are not JSON or not an event, and changes nothing', async () => {
      const before = await snapshot(t);
      for (const [body, status] of [
        ['{"id":', 400],
        ['', 400],
        [JSON.stringify({ id: 'evt_x', type: 'payment.disputed', data: {} }), 400],
        [JSON.stringify([1, 2]), 422],
        ['"just a string"', 422],
      ] as const) {
        const r = await sendWebhook(t, body);
        expect(r.status, body).toBe(status);
        expect(r.body).toEqual({ code: status, message: expect.stringMatching(catalogued(status)), data: null });
      }
      expect(await snapshot(t)).toBe(before);
    });

    it('refuses a body over 64 kB with 413 in the envelope before doing anything', async () => {
      const before = await snapshot(t);
      const r = await sendWebhook(t, { ...capture({}), padding: 'x'.repeat(70_000) });
      expect(r.status).toBe(413);
      expect(r.body).toEqual({ code: 413, message: 'Request body too large', data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it('a refunded payment moves its order to refunded; payments show it refunded', async () => {
      const cap = capture({});
      const orderNumber = ((await sendWebhook(t, cap)).body.data as Result).orderNumber!;
      const r = await sendWebhook(t, { id: uid('evt'), type: 'payment.refunded', data: { paymentId: cap.data.paymentId, reason: 'dispense failed' } });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ duplicate: false, orderNumber, payStatus: 'refunded' });
      expect((await order(orderNumber)).pay_status).toBe('refunded');
      const list = await call<Body<{ records: PaymentOut[] }>>(t.url, 'GET', '/api/v1/payments', {
        headers: ALICE,
        query: { machineNo: 'SBX-ALICE-0001', size: '5' },
      });
      expect(list.body.data.records.find((p) => p.orderNumber === orderNumber)).toMatchObject({ status: 'refunded', payStatus: 'refunded', amountCents: 150 });
    });

    it('refuses a refund of an unknown payment with 404 and changes nothing', async () => {
      const before = await snapshot(t);
      const r = await sendWebhook(t, { id: uid('evt'), type: 'payment.refunded', data: { paymentId: 'pay_never_seen' } });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ code: 404, message: 'Unknown payment pay_never_seen', data: null });
      expect(await snapshot(t)).toBe(before);
    });

    it('a replayed event changes nothing and answers duplicate: true', async () => {
      const cap = capture({});
      const first = await sendWebhook(t, cap);
      expect(first.status).toBe(200);
      const before = await snapshot(t);
      const again = await sendWebhook(t, cap);
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual({ ...(first.body.data as Result), duplicate: true });
      // same id, different content: still the same event
      const altered = await sendWebhook(t, { ...cap, data: { ...cap.data, paymentId: uid('pay'), amountCents: 999 } });
      expect(altered.body.data).toMatchObject({ duplicate: true, orderNumber: (first.body.data as Result).orderNumber });
      expect(await snapshot(t)).toBe(before);
    });

    it('a replayed refund changes nothing and answers duplicate: true', async () => {
      const cap = capture({});
      await sendWebhook(t, cap);
      const refund = { id: uid('evt'), type: 'payment.refunded', data: { paymentId: cap.data.paymentId } };
      expect((await sendWebhook(t, refund)).status).toBe(200);
      const before = await snapshot(t);
      const again = await sendWebhook(t, refund);
      expect(again.body.data).toMatchObject({ duplicate: true, payStatus: 'refunded' });
      expect(await snapshot(t)).toBe(before);
    });

    it('concurrent deliveries of one event apply it once', async () => {
      const cap = capture({});
      const results = await Promise.all([sendWebhook(t, cap), sendWebhook(t, cap), sendWebhook(t, cap)]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(results.filter((r) => !(r.body.data as Result).duplicate)).toHaveLength(1);
      expect(await db().selectFrom('orders').select('order_number').where('payment_ref', '=', cap.data.paymentId).execute()).toHaveLength(1);
    });

    it('a second event capturing the same payment records nothing new', async () => {
      const cap = capture({});
      const first = (await sendWebhook(t, cap)).body.data as Result;
      const before = await snapshot(t);
      const second = await sendWebhook(t, { ...cap, id: uid('evt') });
      expect(second.body.data).toMatchObject({ duplicate: true, orderNumber: first.orderNumber });
      const after = JSON.parse(await snapshot(t)) as { orders: unknown[] };
      expect(after.orders).toEqual((JSON.parse(before) as { orders: unknown[] }).orders);
    });

    it('verifies the raw bytes: any spacing, key order or content type the provider signed is accepted', async () => {
      const cap = capture({});
      const raw = `{ "type" : "payment.captured",\n  "data": ${JSON.stringify(cap.data, null, 2)}, "id": "${cap.id}" }`;
      const r = await sendWebhook(t, raw, { contentType: 'text/plain' });
      expect(r.status).toBe(200);
      expect(r.body.data).toMatchObject({ eventId: cap.id, duplicate: false });
    });

    describe('authentication', () => {
      const now = () => Math.floor(t.clock.now() / 1000);
      it.each([
        ['no signature headers', { signature: null, noTimestamp: true }, 'missing X-Vend-Timestamp'],
        ['no signature', { signature: null }, 'missing X-Vend-Signature'],
        ['no timestamp', { noTimestamp: true }, 'missing X-Vend-Timestamp'],
        ['a signature by another secret', { secret: 'not-the-webhook-secret-at-all' }, 'signature does not match'],
        ['a malformed signature', { signature: 'sha256=abc' }, 'X-Vend-Signature must be v1=<64 hex digits>'],
        ['a zero signature', { signature: `v1=${'0'.repeat(64)}` }, 'signature does not match'],
        ['a timestamp in words', { timestamp: 'yesterday' }, 'X-Vend-Timestamp must be unix seconds'],
        ['a timestamp 301 s old', { timestamp: 'old' }, 'X-Vend-Timestamp is outside the 300 s tolerance'],
        ['a timestamp 301 s ahead', { timestamp: 'ahead' }, 'X-Vend-Timestamp is outside the 300 s tolerance'],
      ])('refuses %s with 401 in the envelope and changes nothing', async (_what, opts, reason) => {
        const o = { ...opts } as Record<string, unknown>;
        if (o['timestamp'] === 'old') o['timestamp'] = now() - 301;
        if (o['timestamp'] === 'ahead') o['timestamp'] = now() + 301;
        const before = await snapshot(t);
        const r = await sendWebhook(t, capture({}), o);
        expect(r.status).toBe(401);
        // spec 1 §7: an unsigned webhook is 401 'Invalid API key', here followed by the reason
        expect(r.body).toEqual({ code: 401, message: `Invalid API key: ${reason}`, data: null });
        expect(await snapshot(t)).toBe(before);
      });

      it('accepts a timestamp up to 300 s away', async () => {
        expect((await sendWebhook(t, capture({}), { timestamp: now() - 300 })).status).toBe(200);
        expect((await sendWebhook(t, capture({}), { timestamp: now() + 300 })).status).toBe(200);
      });

      it('refuses a body changed after signing', async () => {
        const ev = capture({});
        const raw = JSON.stringify(ev);
        const ts = String(now());
        const signature = signWebhook(t.ctx.config.webhookSecret, ts, raw);
        const tampered = raw.replace('"amountCents":150', '"amountCents":1');
        const r = await sendWebhook(t, tampered, { timestamp: ts, signature });
        expect(r.status).toBe(401);
      });

      it('follows the injected clock: a request signed now is stale once the clock moves past 300 s', async () => {
        const ev = capture({});
        const ts = now();
        // ManualClock only moves forward; every other webhook test signs with the clock's current time
        (t.clock as ManualClock).advance(301_000);
        expect((await sendWebhook(t, ev, { timestamp: ts })).status).toBe(401);
        expect((await sendWebhook(t, ev)).status).toBe(200);
      });
    });
  });
});

async function anyOrder(t: TestServer, machineNo: string): Promise<string> {
  const id = await machineIdOf(t, machineNo);
  const o = await t.ctx.database.db
    .selectFrom('orders')
    .select('order_number')
    .where('machine_id', '=', id)
    .where('payment_ref', 'is', null)
    .executeTakeFirstOrThrow();
  return o.order_number;
}
