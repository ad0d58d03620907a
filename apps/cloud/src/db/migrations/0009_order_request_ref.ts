import type { Kysely } from 'kysely';

/**
 * `orders.request_ref`: the cabinet's own reference for a `createOrder` call (docs/decisions/
 * gateway-and-credentials.md, "createOrder is idempotent"). A retry after a lost answer names the
 * same reference and gets the order the first call opened, instead of a second order the
 * dispense-decision loop would later refund. Unique per machine; null for every other order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('request_ref', 'text').execute();
  await db.schema.createIndex('orders_machine_request_ref').unique().on('orders').columns(['machine_id', 'request_ref']).execute();
}
