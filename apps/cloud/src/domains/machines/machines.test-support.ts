import { expect } from 'vitest';
import { call, type ApiResponse, type TestServer } from '../../testing/harness.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { MachineView } from './machines.schemas.ts';
import { freshSerial } from './machines.factories.ts';

export type Envelope<T> = { code: number; message: string; data: T };
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
    call<Envelope<T>>(server().url, method, path, { headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const register = async (headers: Record<string, string>, body: Record<string, unknown> = {}) => {
    const r = await api('POST', '/api/v1/machines/register', headers, { machineNo: freshSerial(), ...body });
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };
  const patch = (machineNo: string, headers: Record<string, string>, body: unknown) => api('PATCH', `/api/v1/machines/${machineNo}`, headers, body);
  const row = (machineNo: string) => db().selectFrom('machines').selectAll().where('machine_no', '=', machineNo).executeTakeFirstOrThrow();
  const expectRefused = (r: ApiResponse<Envelope<unknown>>, status: number, message?: string | RegExp) => {
    expect(r.status, r.text).toBe(status);
    expect(r.body).toEqual({ code: status, message: expect.any(String), data: null });
    if (message !== undefined) expect(r.body.message).toMatch(message);
  };
  return { db, api, register, patch, row, expectRefused };
}
