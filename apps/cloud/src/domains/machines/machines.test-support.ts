import { call, type TestServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { MachineView } from './machines.schemas.ts';
import { freshSerial } from './machines.factories.ts';

export type Page = { page: number; size: number; total: number; records: MachineView[] };

export const admin = { 'x-api-key': SANDBOX_CREDENTIALS.admin.apiKey };
export const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
export const bob = { 'x-api-key': SANDBOX_CREDENTIALS.bob.apiKey };
export const factory = { 'x-api-key': SANDBOX_CREDENTIALS.factory.apiKey };
export const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/;

/** The machines API of a running test server, as the machines suites call it. */
export function machinesApi(server: () => TestServer) {
  const db = () => server().ctx.database.db;
  const api = <T = MachineView>(method: string, path: string, headers: Record<string, string>, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(server().url, method, path, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const register = async (headers: Record<string, string>, body: Record<string, unknown> = {}) =>
    okData(await api('POST', '/api/v1/machines/register', headers, { machineNo: freshSerial(), ...body }));
  const patch = (machineNo: string, headers: Record<string, string>, body: unknown) => api('PATCH', `/api/v1/machines/${machineNo}`, headers, body);
  const row = (machineNo: string) => db().selectFrom('machines').selectAll().where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
  return { db, api, register, patch, row };
}
