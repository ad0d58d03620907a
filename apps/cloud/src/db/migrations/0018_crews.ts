import type { Kysely } from 'kysely';

/**
 * Crews and their invitations (spec 1 §4.9; docs/decisions/crews.md):
 * - `crews`: a named team of people who run machines together. `default_for` holds the operator email whose
 *   default crew it is (auto-created on that person's first `GET /crew/mine`; unique, null for other crews).
 * - `crew_members`: one row per (crew, member email) with the member's role (`owner`, `admin`, `member`).
 * - `crew_invites`: one invitation to one email with the role it grants; only a salted SHA-256 of the
 *   one-time token is kept (`token_hash`). `state` is `pending`, `accepted`, `revoked` or `expired`; a
 *   pending row past `expires_at` reads as expired.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('crews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('default_for', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('crews_default_for').unique().on('crews').columns(['default_for']).execute();

  await db.schema
    .createTable('crew_members')
    .addColumn('crew_id', 'text', (c) => c.notNull().references('crews.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('joined_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('crew_members_pk', ['crew_id', 'email'])
    .execute();
  await db.schema.createIndex('crew_members_email').on('crew_members').columns(['email']).execute();

  await db.schema
    .createTable('crew_invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('crew_id', 'text', (c) => c.notNull().references('crews.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('accepted_at', 'bigint')
    .execute();
  await db.schema.createIndex('crew_invites_crew_email').on('crew_invites').columns(['crew_id', 'email']).execute();
}
