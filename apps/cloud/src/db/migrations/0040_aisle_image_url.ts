import type { Kysely } from 'kysely';

/**
 * `aisles.image_url`: the product picture of an aisle, shown by the kiosk's storefront (issue 32) — an https URL or
 * a path on this service; null (every aisle before this column) shows the product without a picture.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('aisles').addColumn('image_url', 'text').execute();
}
