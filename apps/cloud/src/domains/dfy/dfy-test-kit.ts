import { expect } from 'vitest';
import { call, type SuiteServer } from '../../testing/harness.ts';
import { newOperator } from '../machines/machines.factories.ts';
import type { DealState } from './deal-model.ts';

type H = Record<string, string>;
export type Env<T> = { code: number; message: string; data: T };
export type Person = { id: string; email: string; headers: H };
type Answer<T> = { status: number; text: string; body: Env<T> };

const VENUE = { name: 'Harbor Gym', address: '12 Pier St', lat: 40.7033, lng: -74.017 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };
export const SETTINGS = {
  autopilot: false,
  autoApproveScore: 80,
  maxAutoApprove: 0,
  installMode: 'self',
  autoInventory: false,
  inventoryMonthlyCapUsd: 500,
  moneyThresholdUsd: 0,
  capabilityDefaults: { placement: null, outreach: null, negotiation: null, contracting: null, install: null, inventory: null },
};

/** HTTP helpers of the DFY part-3 integration tests (modes, concierge, inventory). */
export function dfyKit(t: SuiteServer) {
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown, query?: Record<string, string>) =>
    call<Env<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const ok = <T>(r: Answer<T>): T => {
    expect(r.status, r.text).toBe(200);
    return r.body.data;
  };
  const refused = (r: Answer<unknown>, status: number, message: RegExp) => {
    expect(r.status, r.text).toBe(status);
    expect(r.body.message).toMatch(message);
  };
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  /** A deal walked to outreach (negotiation not started). */
  const atOutreach = async (who: Person) => {
    const d = ok(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' }));
    return ok(await api<DealState>('POST', `/deals/${d.id}/scout/accept`, who, { venue: VENUE }));
  };
  /** A deal walked to ready_to_ship: paid, its fleet pin (machine) provisioned. */
  const placed = async (who: Person) => {
    const d = await atOutreach(who);
    ok(await api('POST', `/deals/${d.id}/negotiation/start`, who, { confirm: true, envelope: ENVELOPE }));
    ok(await api('POST', `/deals/${d.id}/negotiation/terms`, who, { revenueSharePct: 10, termMonths: 24, rounds: 3 }));
    ok(await api('POST', `/deals/${d.id}/negotiation/review`, who));
    ok(await api('POST', `/deals/${d.id}/lease/send`, who, { confirm: true }));
    ok(await api('POST', `/deals/${d.id}/lease/signature`, who));
    return ok(await api<DealState>('POST', `/deals/${d.id}/order/checkout`, who, { confirm: true }));
  };
  const settings = async (who: Person, over: Record<string, unknown>) => ok(await api('PUT', '/portfolio/settings', who, { ...SETTINGS, ...over }));
  return { db, api, ok, refused, person, atOutreach, placed, settings };
}
