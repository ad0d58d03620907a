import { randomBytes } from 'node:crypto';
import type { ManualClock } from '@vend/protocol';
import { hashSecret } from '../../crypto/secrets.ts';
import { formatScopes, type Scope } from '../../http/scopes.ts';
import type { TestServer } from '../../testing/harness.ts';

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
