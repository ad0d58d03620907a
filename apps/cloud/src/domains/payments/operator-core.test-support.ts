import { randomBytes } from 'node:crypto';
import type { Dialect } from '../../db/database.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { hashSecret } from '../../crypto/secrets.ts';
import { ERROR_TABLE } from '../../http/errors.ts';
import { startTestServer, type TestServer } from '../../testing/harness.ts';
import type { Answer, Body } from '../../testing/answers.ts';
import { signWebhook } from '../../http/webhook-signature.ts';

/** Test support for the inventory, orders and payments suites (not shipped code). */

export const ADMIN: Record<string, string> = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
export const ALICE: Record<string, string> = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
export const BOB: Record<string, string> = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
export const FACTORY: Record<string, string> = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey };

/**
 * The spec 1 §7 catalogue text a refusal's message starts with, by status; a detail follows after
 * `: `. (Statuses whose messages carry no catalogue text are not listed.)
 */
const CATALOGUE: Record<number, string> = {
  400: ERROR_TABLE.bad_request.message,
  401: ERROR_TABLE.unauthorized.message,
  422: ERROR_TABLE.validation.message,
};

/** A pattern for a refusal message in the catalogue form: `<catalogue text>: …<detail>…`. */
export function catalogued(status: number, detail = ''): RegExp {
  const text = CATALOGUE[status];
  if (text === undefined) throw new Error(`no catalogue text for ${status}`);
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${esc(text)}: .*${esc(detail)}`, 's');
}

/** A test server whose rate limit never interferes with many-request suites. */
export function startServer(dialect: Dialect): Promise<TestServer> {
  return startTestServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '1000000' } });
}

/** An API key for `operatorId` holding exactly `scopes`; returns the X-API-Key header. */
export async function narrowKey(t: TestServer, operatorId: string, scopes: string): Promise<Record<string, string>> {
  const keyId = randomBytes(8).toString('hex');
  const secret = `narrow-secret-${keyId}`;
  await t.ctx.database.db
    .insertInto('api_keys')
    .values({
      id: keyId,
      operator_id: operatorId,
      name: 'narrow test key',
      secret_hash: hashSecret(secret),
      scopes,
      rate_limit: null,
      plant: null,
      created_at: 0,
      revoked_at: null,
    })
    .execute();
  return { 'x-api-key': `vk_${keyId}.${secret}` };
}

type Snapshotted = 'aisles' | 'orders' | 'payment_events' | 'lots' | 'audit_log';
const ALL_TABLES: Snapshotted[] = ['aisles', 'orders', 'payment_events', 'lots', 'audit_log'];

/** Every row of the tables these domains write, plus the audit log: equal snapshots mean nothing changed. */
export async function snapshot(t: TestServer, tables: Snapshotted[] = ALL_TABLES): Promise<string> {
  const db = t.ctx.database.db;
  const rows = await Promise.all(tables.map((table) => db.selectFrom(table).selectAll().execute()));
  // order-independent: sort each table's rows by their JSON form
  return JSON.stringify(tables.map((table, i) => [table, rows[i]!.map((r) => JSON.stringify(r)).sort()]));
}

export async function machineIdOf(t: TestServer, machineNo: string): Promise<string> {
  const m = await t.ctx.database.db.selectFrom('machines').select('id').where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
  return m.id;
}

export async function terminalOf(t: TestServer, machineNo: string): Promise<string> {
  const row = await t.ctx.database.db
    .selectFrom('payment_terminals')
    .innerJoin('machines', 'machines.id', 'payment_terminals.machine_id')
    .select('payment_terminals.id')
    .where('machines.machine_no', '=', machineNo)
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface WebhookCall {
  /** Unix seconds; defaults to the server clock. */
  timestamp?: number | string;
  /** Overrides the computed signature header (null: send none). */
  signature?: string | null;
  /** Sign with this secret instead of the server's. */
  secret?: string;
  contentType?: string;
  /** Omit the timestamp header. */
  noTimestamp?: boolean;
}

/** POSTs a webhook body (an object is JSON-serialised) signed the way the provider signs. */
export async function sendWebhook(t: TestServer, body: unknown, opts: WebhookCall = {}): Promise<Pick<Answer, 'status' | 'body'>> {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = String(opts.timestamp ?? Math.floor(t.clock.now() / 1000));
  const headers: Record<string, string> = { 'content-type': opts.contentType ?? 'application/json' };
  if (!opts.noTimestamp) headers['x-vend-timestamp'] = timestamp;
  const signature = opts.signature === undefined ? signWebhook(opts.secret ?? t.ctx.config.webhookSecret, timestamp, raw) : opts.signature;
  if (signature !== null) headers['x-vend-signature'] = signature;
  const res = await fetch(`${t.url}/api/v1/payments/cashless/webhook`, { method: 'POST', headers, body: raw });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: res.status, body: parsed as Body };
}
