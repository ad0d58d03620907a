import { SANDBOX_SECRETS } from '../../config.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { call, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';

/** Test factories for the cabinet gateway: credentials, enrolment, arming. */
export const FLEET = { secret: SANDBOX_SECRETS.FLEET_SECRET } as const;
export const ADMIN = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey } as const;
export const ALICE = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey } as const;
export const BOB = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey } as const;
export const FACTORY = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey } as const;

let serialCounter = 0;
/** A fresh claimable serial, unique per test run. */
export function newSerial(prefix = 'TST'): string {
  serialCounter++;
  return `${prefix}-${process.pid.toString(36).toUpperCase()}-${String(serialCounter).padStart(5, '0')}`;
}

let deviceCounter = 0;
export function newDeviceId(): string {
  deviceCounter++;
  return `box-${process.pid}-${deviceCounter}-${Math.random().toString(16).slice(2, 10)}`;
}

export function keyHeader(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-device-key': key, ...extra };
}

/** Registers an unknown serial over the fleet secret: it lands in the unclaimed pool. */
export async function provision(t: TestServer, serial = newSerial(), deviceId?: string): Promise<string> {
  await expectStatus(call(t.url, 'POST', '/cabinet/register', { headers: FLEET, json: { equipmentNo: serial, ...(deviceId ? { deviceId } : {}) } }), 200);
  return serial;
}

export async function arm(
  t: TestServer,
  serial: string,
  body: Record<string, unknown> = { reason: 'test enrolment' },
  headers: Record<string, string> = ADMIN,
) {
  return call<Body<{ enrolmentArmed: { expiresAt: string; armedBy: { kind: string } } }>>(t.url, 'POST', `/api/v1/machines/${serial}/device-credential/arm`, {
    headers,
    json: body,
  });
}

export async function enrol(t: TestServer, serial: string, deviceId?: string) {
  return call<Body<{ keyId: string; deviceKey: string; machineCode: string }>>(t.url, 'POST', '/cabinet/enrol', {
    headers: FLEET,
    json: { equipmentNo: serial, ...(deviceId ? { deviceId } : {}) },
  });
}

/** A pool machine armed and enrolled: its `keyId:secret`. */
export async function enrolled(
  t: TestServer,
  serial = newSerial(),
  deviceId = newDeviceId(),
): Promise<{ serial: string; deviceId: string; key: string; keyId: string }> {
  await provision(t, serial);
  await expectStatus(arm(t, serial), 200);
  const r = await expectStatus(enrol(t, serial, deviceId), 200);
  const d = r.body.data as { keyId: string; deviceKey: string };
  return { serial, deviceId, key: `${d.keyId}:${d.deviceKey}`, keyId: d.keyId };
}

export async function machineRow(t: TestServer, serial: string) {
  return t.ctx.database.db.selectFrom('machines').selectAll().where('machine_no', '=', serial).executeTakeFirstOrThrow();
}

/** The stored stock of one aisle of a machine. */
export async function aisleStock(t: TestServer, serial: string, aisleNo: number): Promise<number> {
  const row = await t.ctx.database.db
    .selectFrom('aisles')
    .innerJoin('machines', 'machines.id', 'aisles.machine_id')
    .select('current_stock')
    .where('machine_no', '=', serial)
    .where('aisle_no', '=', aisleNo)
    .executeTakeFirstOrThrow();
  return row.current_stock;
}

export type Leg = readonly [method: 'GET' | 'POST', path: string];
/** Legs the fleet secret serves (spec 2 §5: bootstrap and the selling legs). */
export const FLEET_LEGS: Leg[] = [
  ['POST', '/cabinet/register'],
  ['POST', '/cabinet/enrol'],
  ['GET', '/cabinet/config'],
  ['GET', '/cabinet/goods'],
  ['POST', '/cabinet/createOrder'],
];
export const KEY_LEGS: Leg[] = [
  ['POST', '/cabinet/register'],
  ['POST', '/cabinet/heartbeat'],
  ['GET', '/cabinet/config'],
  ['GET', '/cabinet/goods'],
  ['POST', '/cabinet/createOrder'],
  ['GET', '/cabinet/pending'],
  ['GET', '/cabinet/upgrade'],
];
export const BODY: Record<string, unknown> = { aisleNo: 1, quantity: 1 };

/** One call of a leg with its usual body (POST) and the given headers, body fields and query. */
export function send(
  t: { url: string },
  [method, path]: Leg,
  headers: Record<string, string>,
  json: Record<string, unknown> = {},
  query?: Record<string, string>,
) {
  return call(t.url, method, path, { headers, ...(method === 'POST' ? { json: { ...BODY, ...json } } : {}), ...(query ? { query } : {}) });
}
