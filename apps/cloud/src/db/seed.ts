import type { Insertable, Kysely } from 'kysely';
import type { DB, OrdersTable } from './schema.ts';
import { SeededRandom } from '../random.ts';
import { hashPassword, hashSecret, type Sealer } from '../crypto/secrets.ts';
import { ADMIN_SCOPES, FACTORY_SCOPES, STANDARD_OPERATOR_SCOPES, formatScopes } from '../http/scopes.ts';
import { STARTER_PRODUCTS } from './starter-products.ts';

/**
 * The sandbox's fixed credentials. Documented in README.md and docs/sandbox.md; they exist only
 * when VEND_MODE=sandbox and are public by design.
 */
export const SANDBOX_CREDENTIALS = {
  admin: { email: 'admin@sandbox.vend.test', apiKey: 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d' },
  alice: {
    email: 'alice@sandbox.vend.test',
    apiKey: 'vk_5ba11ce00000a001.sbx-alice-key-7d41a0c2',
    password: 'sandbox-alice-pass',
    totpSecret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    oauthClientId: 'sbx-client-alice',
    oauthClientSecret: 'sbx-oauth-secret-alice-5e1b',
  },
  bob: { email: 'bob@sandbox.vend.test', apiKey: 'vk_5bb0b00000000001.sbx-bob-key-c3e822f1', password: 'sandbox-bob-pass' },
  /** A route driver in alice's default crew: no machines of his own. */
  dave: { email: 'dave@sandbox.vend.test', apiKey: 'vk_5bda0e0000000001.sbx-dave-key-4a17e9b3', password: 'sandbox-dave-pass' },
  factory: { email: 'factory@sandbox.vend.test', apiKey: 'vk_5bfac0000000f001.sbx-factory-key-91ab04', plant: 'PLANT-SZ1' },
} as const;

const SEED = 20261122;
/** Orders in the seed carry this prefix, so a reset can tell them from orders written later. */
export const SEED_ORDER_PREFIX = 'SBX';
const DAY = 86_400_000;

interface SeedMachine {
  no: string;
  owner: 'alice' | 'bob' | null;
  name: string;
  location: string;
  lat: number;
  lng: number;
  timeZone: string;
  online: boolean;
}

const MACHINES: SeedMachine[] = [
  {
    no: 'SBX-ALICE-0001',
    owner: 'alice',
    name: 'Lobby kiosk',
    location: 'Union Station, Concourse A',
    lat: 40.7506,
    lng: -73.9935,
    timeZone: 'America/New_York',
    online: true,
  },
  {
    no: 'SBX-ALICE-0002',
    owner: 'alice',
    name: 'Gym kiosk',
    location: 'Harbor Fitness',
    lat: 40.7033,
    lng: -74.017,
    timeZone: 'America/New_York',
    online: false,
  },
  {
    no: 'SBX-ALICE-0003',
    owner: 'alice',
    name: 'Library kiosk',
    location: 'Central Library',
    lat: 34.0505,
    lng: -118.2551,
    timeZone: 'America/Los_Angeles',
    online: true,
  },
  { no: 'SBX-BOB-0001', owner: 'bob', name: 'Campus kiosk', location: 'Student Union', lat: 51.5246, lng: -0.134, timeZone: 'Europe/London', online: true },
  { no: 'SBX-BOB-0002', owner: 'bob', name: 'Office kiosk', location: 'Docklands Tower', lat: 51.5054, lng: -0.0235, timeZone: 'Europe/London', online: false },
  { no: 'SBX-POOL-0001', owner: null, name: 'SBX-POOL-0001', location: '', lat: 0, lng: 0, timeZone: 'UTC', online: false },
];

const BRANDS = ['visa', 'mastercard', 'amex', 'discover'] as const;
const PAY_METHODS = ['card', 'card', 'card', 'wallet', 'cash'] as const;

export const OPERATOR_IDS = { admin: 'op_sbx_admin', alice: 'op_sbx_alice', bob: 'op_sbx_bob', factory: 'op_sbx_factory', dave: 'op_sbx_dave' } as const;

/** Merchant account of an operator: the settlement account its payment terminals feed. */
export function merchantAccountOf(operatorId: string): string {
  return `acct_${operatorId}`;
}

/**
 * A domain's part of the sandbox data set, run in the seed's transaction after the rows every domain
 * starts from (operators, credentials, machines, stock, orders). The composition root hands the steps
 * in (bootstrap.ts): the store knows no domain.
 */
/**
 * The demo passwords' hashes, computed once per process: scrypt is deliberately slow (about 50 ms each) and a
 * sandbox reset re-seeds; a salted hash of a public demo password may be reused.
 */
const seedHashes = new Map<string, Promise<string>>();
function seedPasswordHash(password: string): Promise<string> {
  let hash = seedHashes.get(password);
  if (!hash) seedHashes.set(password, (hash = hashPassword(password)));
  return hash;
}

export type SeedStep = (db: Kysely<DB>, now: number) => Promise<void>;

/**
 * Writes the deterministic sandbox data set. Everything is derived from one seed and from the UTC
 * day of `now`, so two resets on the same day give byte-identical rows.
 */
export async function seedSandbox(db: Kysely<DB>, now: number, sealer: Sealer, steps: readonly SeedStep[]): Promise<void> {
  const rng = new SeededRandom(SEED);
  const today = Math.floor(now / DAY) * DAY;
  const created = today - 120 * DAY;
  const c = SANDBOX_CREDENTIALS;

  const operators = [
    { id: OPERATOR_IDS.admin, email: c.admin.email, name: 'Sandbox Admin', admin: 1, currency: null },
    { id: OPERATOR_IDS.alice, email: c.alice.email, name: 'Alice Vending Co', admin: 0, currency: 'USD' },
    { id: OPERATOR_IDS.bob, email: c.bob.email, name: 'Bob Snacks Ltd', admin: 0, currency: 'GBP' },
    { id: OPERATOR_IDS.factory, email: c.factory.email, name: 'Sandbox Factory', admin: 0, currency: null },
    { id: OPERATOR_IDS.dave, email: c.dave.email, name: 'Dave (route driver)', admin: 0, currency: 'USD' },
  ];
  for (const o of operators) {
    await db
      .insertInto('operators')
      .values({
        ...o,
        password_hash: null,
        mfa_secret_enc: null,
        mfa_enabled: 0,
        merchant_account: merchantAccountOf(o.id),
        marketplace_opt_in: o.id === OPERATOR_IDS.alice ? 1 : 0,
        created_at: created,
      })
      .execute();
  }
  await db
    .updateTable('operators')
    .set({ password_hash: await seedPasswordHash(c.alice.password), mfa_secret_enc: sealer.seal(c.alice.totpSecret), mfa_enabled: 1 })
    .where('id', '=', OPERATOR_IDS.alice)
    .execute();
  await db
    .updateTable('operators')
    .set({ password_hash: await seedPasswordHash(c.bob.password) })
    .where('id', '=', OPERATOR_IDS.bob)
    .execute();
  await db
    .updateTable('operators')
    .set({ password_hash: await seedPasswordHash(c.dave.password) })
    .where('id', '=', OPERATOR_IDS.dave)
    .execute();

  const keys = [
    { key: c.admin.apiKey, op: OPERATOR_IDS.admin, name: 'sandbox admin key', scopes: ADMIN_SCOPES, plant: null },
    { key: c.alice.apiKey, op: OPERATOR_IDS.alice, name: 'sandbox operator key', scopes: STANDARD_OPERATOR_SCOPES, plant: null },
    { key: c.bob.apiKey, op: OPERATOR_IDS.bob, name: 'sandbox operator key', scopes: STANDARD_OPERATOR_SCOPES, plant: null },
    { key: c.dave.apiKey, op: OPERATOR_IDS.dave, name: 'sandbox operator key', scopes: STANDARD_OPERATOR_SCOPES, plant: null },
    { key: c.factory.apiKey, op: OPERATOR_IDS.factory, name: 'sandbox factory key', scopes: FACTORY_SCOPES, plant: c.factory.plant },
  ];
  for (const k of keys) {
    const [handle, secret] = k.key.slice(3).split('.') as [string, string];
    await db
      .insertInto('api_keys')
      .values({
        id: handle,
        operator_id: k.op,
        name: k.name,
        secret_hash: hashSecret(secret, `seed-${handle}`),
        scopes: formatScopes(k.scopes),
        rate_limit: null,
        plant: k.plant,
        created_at: created,
        revoked_at: null,
      })
      .execute();
  }
  await db
    .insertInto('oauth_clients')
    .values({
      id: c.alice.oauthClientId,
      operator_id: OPERATOR_IDS.alice,
      name: 'sandbox OAuth client',
      secret_hash: hashSecret(c.alice.oauthClientSecret, `seed-${c.alice.oauthClientId}`),
      scopes: formatScopes(STANDARD_OPERATOR_SCOPES),
      rate_limit: null,
      created_at: created,
      revoked_at: null,
    })
    .execute();

  for (const m of MACHINES) {
    const machineId = `mch_sbx_${m.no.toLowerCase().replace(/-/g, '')}`;
    const ownerId = m.owner ? OPERATOR_IDS[m.owner] : null;
    const pooled = ownerId === null;
    await db
      .insertInto('machines')
      .values({
        id: machineId,
        machine_no: m.no,
        operator_id: ownerId,
        name: m.name,
        status: m.online ? 'online' : 'offline',
        last_seen: m.online ? today + 8 * 3_600_000 : today - 3 * DAY,
        location: m.location,
        lat: pooled ? null : m.lat,
        lng: pooled ? null : m.lng,
        time_zone: m.timeZone,
        rent_state: 1,
        expire_date: today + 365 * DAY,
        platform: pooled ? 'apk' : 'agent',
        agent_version: pooled ? null : '1.0.0',
        vmc_version: 'VMC-2.4.1',
        created_at: created,
        updated_at: created,
      })
      .execute();
    for (let aisle = 1; aisle <= 10; aisle++) {
      const { sku, productName: product, priceCents: price } = STARTER_PRODUCTS[aisle - 1]!;
      const max = rng.pick([8, 10, 12]);
      await db
        .insertInto('aisles')
        .values({
          machine_id: machineId,
          aisle_no: aisle,
          max_stock: max,
          current_stock: pooled ? max : rng.int(0, max),
          alert_threshold: 2,
          price_cents: price,
          sku,
          product_name: product,
          faulted: !pooled && rng.chance(5) ? 1 : 0,
        })
        .execute();
    }
    const terminalId = `trm_sbx_${rng.hex(12)}`;
    await db
      .insertInto('payment_terminals')
      .values({
        id: terminalId,
        machine_id: machineId,
        operator_id: ownerId,
        merchant_account: ownerId ? merchantAccountOf(ownerId) : 'acct_unclaimed_pool',
        provider: 'sandbox-pay',
        bound_at: created,
      })
      .execute();
    if (pooled) continue;
    const orders: Insertable<OrdersTable>[] = [];
    let n = 0;
    for (let day = 89; day >= 0; day--) {
      const count = rng.int(0, 5);
      for (let i = 0; i < count; i++) {
        const at = today - day * DAY + rng.int(6 * 3600, 22 * 3600) * 1000;
        const aisle = rng.int(1, 10);
        const price = STARTER_PRODUCTS[aisle - 1]!.priceCents;
        const method = rng.pick(PAY_METHODS);
        const refunded = rng.chance(3);
        n++;
        orders.push({
          order_number: `${SEED_ORDER_PREFIX}${m.no.replace(/-/g, '')}${String(n).padStart(5, '0')}`,
          machine_id: machineId,
          operator_id: ownerId,
          aisle_no: aisle,
          quantity: 1,
          pay_status: refunded ? 'refunded' : 'shipped',
          paid_cents: price,
          charged_cents: price,
          tax_rate: null,
          channel: 'walkup',
          pay_method: method,
          terminal_id: method === 'cash' ? null : terminalId,
          card_brand: method === 'card' ? rng.pick(BRANDS) : method === 'wallet' ? 'apple_pay' : null,
          card_last4: method === 'cash' ? null : String(rng.int(0, 9999)).padStart(4, '0'),
          settlement_account: method === 'cash' ? null : merchantAccountOf(ownerId!),
          command_id: null,
          dispense_id: null,
          vended: refunded ? 0 : 1,
          created_at: at,
          updated_at: at,
        });
      }
    }
    for (let i = 0; i < orders.length; i += 200)
      await db
        .insertInto('orders')
        .values(orders.slice(i, i + 200))
        .execute();
  }
  for (const step of steps) await step(db, now);
}
