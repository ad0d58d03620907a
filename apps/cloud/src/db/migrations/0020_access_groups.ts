import type { Kysely } from 'kysely';

/**
 * Access groups (spec 1 §4.2 `/api/v1/access/*`; docs/decisions/access.md):
 * - `access_groups`: a named set of an operator's machines and the scopes a person may use on them.
 * - `access_group_machines`: the machines of a group.
 * - `access_assignments`: which group a person (`username`, an account email, a member of one of the
 *   operator's crews) is given on the operator's fleet; one per (operator, person).
 * - `access_sessions`: a person's session on an operator's fleet (`POST /access/session`); its bearer token
 *   lives in `access_tokens` (kind `access`), and the group is looked up live on every request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('access_groups_operator_name').unique().on('access_groups').columns(['operator_id', 'name']).execute();

  await db.schema
    .createTable('access_group_machines')
    .addColumn('group_id', 'text', (c) => c.notNull().references('access_groups.id').onDelete('cascade'))
    .addColumn('machine_id', 'text', (c) => c.notNull().references('machines.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('access_group_machines_pk', ['group_id', 'machine_id'])
    .execute();

  await db.schema
    .createTable('access_assignments')
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull().references('access_groups.id').onDelete('cascade'))
    .addColumn('assigned_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('access_assignments_pk', ['operator_id', 'username'])
    .execute();
  await db.schema.createIndex('access_assignments_username').on('access_assignments').columns(['username']).execute();

  await db.schema
    .createTable('access_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
