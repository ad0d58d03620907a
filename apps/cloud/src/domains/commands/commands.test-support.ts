import { randomBytes } from 'node:crypto';
import type { ManualClock } from '@vend/protocol';
import { hashSecret } from '../../crypto/secrets.ts';
import { formatScopes, type Scope } from '../../http/scopes.ts';
import { call, type TestServer } from '../../testing/harness.ts';
import type { Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';

/** Test factories for the remote-dispense and background-loop suites (never imported by production code). */

export const ALICE_MACHINE = 'SBX-ALICE-0001';
export const ALICE_MACHINE_2 = 'SBX-ALICE-0002';
export const BOB_MACHINE = 'SBX-BOB-0001';

export async function machineId(t: TestServer, machineNo: string): Promise<string> {
  const m = await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
  return m.id;
}

/** Sets an aisle's stock, fault flag and price, so a test never depends on the seed's random stock. */
export async function setAisle(t: TestServer, machineNo: string, aisleNo: number, set: { stock?: number; faulted?: boolean; priceCents?: number }) {
  const id = await machineId(t, machineNo);
  await t.ctx.database.db
    .updateTable('aisles')
    .set({
      ...(set.stock !== undefined ? { current_stock: set.stock } : {}),
      ...(set.faulted !== undefined ? { faulted: set.faulted ? 1 : 0 } : {}),
      ...(set.priceCents !== undefined ? { price_cents: set.priceCents } : {}),
    })
    .where('machine_id', '=', id)
    .where('aisle_no', '=', aisleNo)
    .execute();
}

export async function stockOf(t: TestServer, machineNo: string, aisleNo: number): Promise<number> {
  const id = await machineId(t, machineNo);
  const a = await t.ctx.database.db
    .selectFrom('aisles')
    .select('current_stock')
    .where('machine_id', '=', id)
    .where('aisle_no', '=', aisleNo)
    .executeTakeFirstOrThrow();
  return a.current_stock;
}

/** A fresh API key for an operator with exactly these scopes: the header to send. */
export async function keyWithScopes(t: TestServer, operatorId: string, scopes: Scope[]): Promise<Record<string, string>> {
  const keyId = randomBytes(8).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  await t.ctx.database.db
    .insertInto('api_keys')
    .values({
      id: keyId,
      operator_id: operatorId,
      name: 'test key',
      secret_hash: hashSecret(secret),
      scopes: formatScopes(scopes),
      rate_limit: null,
      plant: null,
      created_at: t.clock.now(),
      revoked_at: null,
    })
    .execute();
  return { 'x-api-key': `vk_${keyId}.${secret}` };
}

/**
 * A paid order that has not vended: a cabinet sale awaiting its outcome (no `dispenseId`), or one
 * whose board reported a failed drop (`dispenseId` set), or one driven by a command (`commandId`).
 */
export async function paidOrder(
  t: TestServer,
  o: { machineNo: string; createdAt: number; dispenseId?: string; commandId?: string; aisleNo?: number },
): Promise<string> {
  const id = await machineId(t, o.machineNo);
  const m = await t.ctx.database.db.selectFrom('machines').select('operator_id').where('id', '=', id).executeTakeFirstOrThrow();
  const orderNumber = `T${randomBytes(8).toString('hex').toUpperCase()}`;
  await t.ctx.database.db
    .insertInto('orders')
    .values({
      order_number: orderNumber,
      machine_id: id,
      operator_id: m.operator_id,
      aisle_no: o.aisleNo ?? 1,
      quantity: 1,
      pay_status: 'paid',
      paid_cents: 175,
      charged_cents: 175,
      tax_rate: null,
      channel: o.commandId ? 'api_drop' : 'walkup',
      pay_method: 'card',
      terminal_id: null,
      card_brand: 'visa',
      card_last4: '4242',
      settlement_account: null,
      command_id: o.commandId ?? null,
      dispense_id: o.dispenseId ?? null,
      vended: 0,
      created_at: o.createdAt,
      updated_at: o.createdAt,
    })
    .execute();
  return orderNumber;
}

export async function orderRow(t: TestServer, orderNumber: string) {
  return t.ctx.database.db.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
}

export async function auditActions(t: TestServer, resource: string): Promise<string[]> {
  const rows = await t.ctx.database.db.selectFrom('audit_log').select('action').where('resource', '=', resource).orderBy('timestamp').orderBy('id').execute();
  return rows.map((r) => r.action);
}

export function manual(t: TestServer): ManualClock {
  return t.clock as ManualClock;
}

export const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
export const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
export const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
export const factory = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey };

export interface Command {
  commandId: string;
  machineNo: string;
  channel: string;
  aisleNo: number;
  reason: string;
  externalRef: string | null;
  status: string;
  outcome: string | null;
  detail: string | null;
  orderNumber: string | null;
  createdAt: string;
  ackedAt: string | null;
  expiredAt: string | null;
  duplicate?: boolean;
  alreadyAcknowledged?: boolean;
  order?: { orderNumber: string; payStatus: string; paidPrice: number; chargedCents: number; channel: string; payMethod: string } | null;
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/;

/** Every test starts from known aisles on both of alice's machines and bob's: stocked, not faulted, known prices. */
export async function resetAisles(t: TestServer): Promise<void> {
  for (const m of [ALICE_MACHINE, ALICE_MACHINE_2, BOB_MACHINE])
    for (let a = 1; a <= 10; a++) await setAisle(t, m, a, { stock: 5, faulted: false, priceCents: 100 + a * 25 });
}

/** The remote-dispense API of a running test server, as the commands suites call it. */
export function commandsApi(server: () => TestServer) {
  const enqueue = (body: Record<string, unknown>, headers = alice, machineNo = ALICE_MACHINE) =>
    call<Body<Command>>(server().url, 'POST', `/api/v1/machines/${machineNo}/commands/dispense`, { headers, json: body });
  const ack = (commandId: string, body: Record<string, unknown>, headers = alice, machineNo = ALICE_MACHINE) => {
    manual(server()).advance(1); // the ack's audit record sorts after the enqueue's
    return call<Body<Command>>(server().url, 'POST', `/api/v1/machines/${machineNo}/commands/${commandId}/ack`, { headers, json: body });
  };
  const pending = (headers = alice, machineNo = ALICE_MACHINE) =>
    call<Body<Command[]>>(server().url, 'GET', `/api/v1/machines/${machineNo}/commands/pending`, { headers });
  const countCommands = async () =>
    Number(
      (
        await server()
          .ctx.database.db.selectFrom('dispense_commands')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const ordersOf = (commandId: string) => server().ctx.database.db.selectFrom('orders').selectAll().where('command_id', '=', commandId).execute();

  return { enqueue, ack, pending, countCommands, ordersOf };
}
