import { randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import type { Dialect } from '../../db/database.ts';
import { merchantAccountOf } from '../../db/seed.ts';
import { hashSecret, mintSecret } from '../../crypto/secrets.ts';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import type { Geocoder, GeocodeResult } from './geocoder.ts';

/** Test factories for the machines domain: fresh serials, operators, keys, pool machines, snapshots. */

let serialCounter = 0;
/** A claimable serial no other test uses. */
export function freshSerial(prefix = 'T'): string {
  serialCounter++;
  return `${prefix}-${String(serialCounter).padStart(4, '0')}-${randomBytes(3).toString('hex').toUpperCase()}`;
}

type Db = AppContext['database']['db'];

/** An API key for `operatorId` holding exactly `scopes` (space-separated). */
export async function mintKey(db: Db, operatorId: string, scopes: string, now = Date.now()): Promise<string> {
  const id = randomBytes(8).toString('hex');
  const secret = mintSecret();
  await db
    .insertInto('api_keys')
    .values({
      id,
      operator_id: operatorId,
      name: 'test key',
      secret_hash: hashSecret(secret),
      scopes,
      rate_limit: null,
      plant: null,
      created_at: now,
      revoked_at: null,
    })
    .execute();
  return `vk_${id}.${secret}`;
}

/** A new operator with a standard operator key, so a test can own a fleet nobody else touches. */
export async function newOperator(db: Db, now = Date.now()): Promise<{ id: string; email: string; key: string; headers: Record<string, string> }> {
  const tag = randomBytes(4).toString('hex');
  const id = `op_test_${tag}`;
  const email = `op-${tag}@test.vend.test`;
  await db
    .insertInto('operators')
    .values({
      id,
      email,
      name: `Operator ${tag}`,
      admin: 0,
      password_hash: null,
      mfa_secret_enc: null,
      mfa_enabled: 0,
      currency: 'USD',
      merchant_account: merchantAccountOf(id),
      marketplace_opt_in: 0,
      created_at: now,
    })
    .execute();
  const key = await mintKey(
    db,
    id,
    'machines:read machines:write inventory:read inventory:write orders:read orders:write commands:read commands:write ads:read ads:write',
    now,
  );
  return { id, email, key, headers: { 'x-api-key': key } };
}

/** An unclaimed machine (no operator) with a terminal on the pool account and `orders` vends recorded while unclaimed. */
export async function insertPoolMachine(db: Db, machineNo: string, opts: { orders?: number; terminal?: boolean; now?: number } = {}): Promise<string> {
  const now = opts.now ?? Date.now();
  const id = `mch_test_${randomBytes(6).toString('hex')}`;
  await db
    .insertInto('machines')
    .values({
      id,
      machine_no: machineNo,
      operator_id: null,
      name: machineNo,
      status: 'online',
      last_seen: now - 60_000,
      created_at: now - 86_400_000,
      updated_at: now - 86_400_000,
    })
    .execute();
  for (let a = 1; a <= 10; a++) {
    await db
      .insertInto('aisles')
      .values({ machine_id: id, aisle_no: a, current_stock: 5, max_stock: 8, alert_threshold: 1, price_cents: 150, faulted: 0 })
      .execute();
  }
  const terminalId = `trm_test_${randomBytes(6).toString('hex')}`;
  if (opts.terminal !== false) {
    await db
      .insertInto('payment_terminals')
      .values({
        id: terminalId,
        machine_id: id,
        operator_id: null,
        merchant_account: 'acct_unclaimed_pool',
        provider: 'sandbox-pay',
        bound_at: now - 86_400_000,
      })
      .execute();
  }
  for (let i = 0; i < (opts.orders ?? 0); i++) {
    // even vends paid by card through the pool's terminal, odd ones in cash
    const card = i % 2 === 0 && opts.terminal !== false;
    await db
      .insertInto('orders')
      .values({
        ...(card
          ? { pay_method: 'card', terminal_id: terminalId, card_brand: 'visa', card_last4: '4242', settlement_account: 'acct_unclaimed_pool' }
          : { pay_method: 'cash' }),
        order_number: `POOL${randomBytes(6).toString('hex')}`,
        machine_id: id,
        operator_id: null,
        aisle_no: 1,
        quantity: 1,
        pay_status: 'shipped',
        paid_cents: 150,
        charged_cents: 150,
        channel: 'walkup',
        vended: 1,
        created_at: now - 3_600_000,
        updated_at: now - 3_600_000,
      })
      .execute();
  }
  return id;
}

/** Every row a machines write may touch: what a refused write must leave exactly as it was. */
export async function snapshot(db: Db): Promise<string> {
  const [machines, aisles, terminals, moves, orders, audit] = await Promise.all([
    db.selectFrom('machines').selectAll().orderBy('id').execute(),
    db.selectFrom('aisles').selectAll().orderBy('machine_id').orderBy('aisle_no').execute(),
    db.selectFrom('payment_terminals').selectAll().orderBy('id').execute(),
    db.selectFrom('venue_moves').selectAll().orderBy('id').execute(),
    // which fleet each order counts in, per machine: all a machines write may change about orders
    db
      .selectFrom('orders')
      .select(['machine_id', 'operator_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['machine_id', 'operator_id'])
      .orderBy('machine_id')
      .orderBy('operator_id')
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return JSON.stringify({ machines, aisles, terminals, moves, orders: orders.map((o) => ({ ...o, n: Number(o.n) })), audit: Number(audit.n) });
}

/** A geocoder whose answers the test hands out one call at a time, to stage late answers. */
export class GatedGeocoder implements Geocoder {
  private readonly pending: { address: string; answer: (r: GeocodeResult) => void }[] = [];
  private readonly waiting: ((c: { address: string; answer: (r: GeocodeResult) => void }) => void)[] = [];

  geocode(address: string): Promise<GeocodeResult> {
    return new Promise((answer) => {
      const call = { address, answer };
      const w = this.waiting.shift();
      if (w) w(call);
      else this.pending.push(call);
    });
  }

  /** The next geocode call, once it has been made. */
  nextCall(): Promise<{ address: string; answer: (r: GeocodeResult) => void }> {
    const p = this.pending.shift();
    return p ? Promise.resolve(p) : new Promise((resolve) => this.waiting.push(resolve));
  }
}

/** A real listening server like `startTestServer`, with a stand-in geocoder in its context. */
export function startServerWithGeocoder(dialect: Dialect, geocoder: Geocoder): Promise<TestServer> {
  return startTestServer(dialect, { geocoder });
}
