import { PNG } from 'pngjs';
import jsqrModule from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '@vend/protocol';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { checkedFetch } from '../../testing/contract.ts';

type Decode = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
// jsqr is CommonJS with a `default` export: take whichever the loader hands us
const jsQR = ((jsqrModule as unknown as { default?: Decode }).default ?? jsqrModule) as unknown as Decode;

const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
const factory = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey };
const MACHINE = 'SBX-ALICE-0001';

async function fetchPng(url: string, headers: Record<string, string>) {
  const res = await checkedFetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

function decodeQr(bytes: Buffer): { width: number; text: string | null } {
  const png = PNG.sync.read(bytes);
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height);
  return { width: png.width, text: code?.data ?? null };
}

describe.each(DIALECTS)('operator view and QR codes on %s', (dialect) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(dialect, { env: { PUBLIC_BASE_URL: 'https://ops.example.test/' } });
  });
  afterAll(async () => t.close());

  it('rolls up low, out and faulted aisles from the live inventory', async () => {
    const db = t.ctx.database.db;
    const id = (await db.selectFrom('machines').select('id').where('machine_no', '=', MACHINE).executeTakeFirstOrThrow()).id;
    await db.updateTable('aisles').set({ current_stock: 10, max_stock: 10, alert_threshold: 2, faulted: 0 }).where('machine_id', '=', id).execute();
    await db.updateTable('aisles').set({ current_stock: 0 }).where('machine_id', '=', id).where('aisle_no', '=', 3).execute();
    await db.updateTable('aisles').set({ current_stock: 2 }).where('machine_id', '=', id).where('aisle_no', '=', 5).execute();
    await db.updateTable('aisles').set({ faulted: 1 }).where('machine_id', '=', id).where('aisle_no', '=', 7).execute();
    const r = await call<{ data: { aisles: Record<string, unknown>; machine: Record<string, unknown> } }>(
      t.url,
      'GET',
      `/api/v1/machines/${MACHINE}/operator-view`,
      { headers: alice },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.aisles).toMatchObject({ total: 10, out: [3], low: [5], faulted: [7], stockUnits: 82, capacityUnits: 100, fillPercent: 82 });
    expect(r.body.data.machine).toMatchObject({ machineNo: MACHINE, timeZone: 'America/New_York' });
  });

  it('buckets sales by the machine-local day and counts free drops', async () => {
    const clock = t.clock as ManualClock;
    const db = t.ctx.database.db;
    const m = await db.selectFrom('machines').select(['id', 'operator_id']).where('machine_no', '=', MACHINE).executeTakeFirstOrThrow();
    const before = await call<{ data: { sales: { today: { orders: number; gross: number } }; money: { freeProduct: { drops30Days: number } } } }>(
      t.url,
      'GET',
      `/api/v1/machines/${MACHINE}/operator-view`,
      { headers: alice },
    );
    const base = {
      machine_id: m.id,
      operator_id: m.operator_id,
      aisle_no: 1,
      quantity: 1,
      tax_rate: null,
      terminal_id: null,
      card_brand: null,
      card_last4: null,
      settlement_account: null,
      command_id: null,
      dispense_id: null,
      vended: 1,
    };
    const now = clock.now();
    await db
      .insertInto('orders')
      .values([
        {
          ...base,
          order_number: 'OV-1',
          pay_status: 'shipped',
          paid_cents: 250,
          charged_cents: 250,
          channel: 'walkup',
          pay_method: 'cash',
          created_at: now - 1000,
          updated_at: now,
        },
        {
          ...base,
          order_number: 'OV-2',
          pay_status: 'shipped',
          paid_cents: 0,
          charged_cents: 0,
          channel: 'api_drop',
          pay_method: 'remote',
          created_at: now - 2000,
          updated_at: now,
        },
      ])
      .execute();
    const after = await call<typeof before.body>(t.url, 'GET', `/api/v1/machines/${MACHINE}/operator-view`, { headers: alice });
    expect(after.body.data.sales.today.orders).toBe(before.body.data.sales.today.orders + 2);
    expect(after.body.data.sales.today.gross).toBeCloseTo(before.body.data.sales.today.gross + 2.5, 5);
    expect(after.body.data.money.freeProduct.drops30Days).toBe(before.body.data.money.freeProduct.drops30Days + 1);
  });

  it('encodes the hosted operator view (the console page of the machine) in a real PNG QR code of the asked size', async () => {
    const r = await fetchPng(`${t.url}/api/v1/machines/${MACHINE}/operator-qr?size=300`, alice);
    expect(r.status).toBe(200);
    expect(r.type).toBe('image/png');
    const qr = decodeQr(r.bytes);
    expect(qr.width).toBe(300);
    expect(qr.text).toBe(`https://ops.example.test/console/machines/${MACHINE}`);
    // the address is a page of this service: a phone without a session is sent to sign in, and back
    const page = await fetch(`${t.url}${new URL(qr.text!).pathname}`, { redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([303, `/signin?next=${encodeURIComponent(`/console/machines/${MACHINE}`)}`]);
    expect(decodeQr((await fetchPng(`${t.url}/api/v1/machines/${MACHINE}/operator-qr`, alice)).bytes).width).toBe(640);
  });

  it('encodes the buyer chat address with the machine and a stable qrId', async () => {
    const a = decodeQr((await fetchPng(`${t.url}/api/v1/machines/${MACHINE}/advertise-qr?size=240`, alice)).bytes);
    const b = decodeQr((await fetchPng(`${t.url}/api/v1/machines/${MACHINE}/advertise-qr?size=1024`, admin)).bytes);
    const other = decodeQr((await fetchPng(`${t.url}/api/v1/machines/SBX-ALICE-0002/advertise-qr`, alice)).bytes);
    expect(a.text).toMatch(new RegExp(`^https://ops\\.example\\.test/advertise\\?machine=${MACHINE}&qr=qr_[0-9a-f]{16}$`));
    expect(b.text).toBe(a.text);
    expect(b.width).toBe(1024);
    expect(new URL(other.text!).searchParams.get('qr')).not.toBe(new URL(a.text!).searchParams.get('qr'));
  });

  it.each([
    ['239', 400],
    ['1025', 400],
    ['0', 400],
    ['abc', 422],
    ['640.5', 422],
  ])('refuses size=%s with %i in the envelope', async (size, status) => {
    for (const kind of ['operator-qr', 'advertise-qr']) {
      const r = await call(t.url, 'GET', `/api/v1/machines/${MACHINE}/${kind}`, { headers: alice, query: { size } });
      expect(r.status).toBe(status);
      expect(r.body).toMatchObject({ code: status, data: null });
    }
  });

  describe.each(['operator-view', 'operator-qr', 'advertise-qr'])('%s access', (path) => {
    it.each([
      ['no credential', {}, 401],
      ['wrong scope', { 'x-api-key': 'narrow' }, 403],
      ["another operator's machine", bob, 404],
      ['admin', admin, 200],
      ['owner', alice, 200],
    ] as const)('%s → %i', async (_name, headers, status) => {
      const given: Record<string, string> = { ...headers };
      const h = given['x-api-key'] === 'narrow' ? await narrowKey(t) : given;
      const r = await checkedFetch(`${t.url}/api/v1/machines/${MACHINE}/${path}`, { headers: h });
      expect(r.status).toBe(status);
      if (status === 404) expect(((await r.json()) as { message: string }).message).toBe('Machine not found');
    });
  });

  it('the factory key (machines:read only in this family) can read but not another operator’s machine', async () => {
    const r = await call(t.url, 'GET', `/api/v1/machines/${MACHINE}/operator-view`, { headers: factory });
    expect(r.status).toBe(404);
  });
});

/** An API key of alice's holding only inventory:read: lacks machines:read. */
async function narrowKey(t: TestServer): Promise<Record<string, string>> {
  const { hashSecret } = await import('../../crypto/secrets.ts');
  const id = 'a1a1a1a1a1a1a1a1';
  await t.ctx.database.db
    .insertInto('api_keys')
    .values({
      id,
      operator_id: 'op_sbx_alice',
      name: 'narrow',
      secret_hash: hashSecret('narrow-secret-123'),
      scopes: 'inventory:read',
      rate_limit: null,
      plant: null,
      created_at: 0,
      revoked_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return { 'x-api-key': `vk_${id}.narrow-secret-123` };
}
