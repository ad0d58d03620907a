import { call, type SuiteServer } from '../../../testing/harness.ts';
import { okData, type Body } from '../../../testing/answers.ts';
import { newOperator } from '../../machines/machines.factories.ts';
import type { DealState } from '../deals/deal-model.ts';
import { DealWriter } from '../deals/deal-writer.ts';
import { STARTER_PLANOGRAM } from '../shipping-install/planogram.ts';

type H = Record<string, string>;
export type Person = { id: string; email: string; headers: H };

const VENUE = { name: 'Harbor Gym', address: '12 Pier St', lat: 40.7033, lng: -74.017 };
const ENVELOPE = { revenueShareTargetPct: 10, revenueShareMaxPct: 15, termMinMonths: 12, termTargetMonths: 24, termMaxMonths: 36 };
export const SETTINGS = {
  autopilot: false,
  autoApproveScore: 80,
  maxAutoApprove: 0,
  installMode: 'self',
  autoInventory: false,
  inventoryMonthlyCapUsd: 500,
  // above any test's order: the inventory tests exercise the monthly cap (the threshold has its own tests)
  moneyThresholdUsd: 1000,
  capabilityDefaults: { placement: null, outreach: null, negotiation: null, contracting: null, install: null, inventory: null },
};

/** HTTP helpers of the DFY part-3 integration tests (modes, concierge, inventory); answers are read with testing/answers.ts. */
export function dfyKit(t: SuiteServer) {
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const person = (): Promise<Person> => newOperator(db(), t.clock.now());
  /** A deal (a new request, or `dealId` at shortlisting) walked to outreach (negotiation not started). */
  const atOutreach = async (who: Person, dealId?: string) => {
    const id = dealId ?? okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' })).id;
    return okData(await api<DealState>('POST', `/deals/${id}/scout/accept`, who, { venue: VENUE }));
  };
  /** A deal walked to ready_to_ship: paid (at checkout, unless already paid: a pool-funded deal), its fleet pin (machine) provisioned. */
  const placed = async (who: Person, dealId?: string) => {
    const d = await atOutreach(who, dealId);
    okData(await api('POST', `/deals/${d.id}/negotiation/start`, who, { confirm: true, envelope: ENVELOPE }));
    okData(await api('POST', `/deals/${d.id}/negotiation/terms`, who, { revenueSharePct: 10, termMonths: 24, rounds: 3 }));
    okData(await api('POST', `/deals/${d.id}/negotiation/review`, who));
    okData(await api('POST', `/deals/${d.id}/lease/send`, who, { confirm: true }));
    const signed = okData(await api<DealState>('POST', `/deals/${d.id}/lease/signature`, who));
    if (signed.stage === 'ready_to_ship') return signed;
    return okData(await api<DealState>('POST', `/deals/${d.id}/order/checkout`, who, { confirm: true }));
  };
  /**
   * A deal (a new request, or `dealId` at shortlisting) walked to live with its aisles at `stock` (aisle number →
   * units; others full). Installed over HTTP; the cabinet coming online is what onboardTick would verify, so the
   * test applies its outcome directly.
   */
  const live = async (who: Person, stock: Record<number, number> = {}, dealId?: string) => {
    const d = await placed(who, dealId);
    okData(await api('POST', `/deals/${d.id}/shipping/tracking`, who, { carrier: 'ACME', trackingNumber: `T${d.id.slice(-6)}` }));
    const wo = okData(await api<{ id: string }>('POST', `/deals/${d.id}/install/dispatch`, who, { confirm: true }));
    okData(await api('POST', `/install/orders/${wo.id}`, who, { state: 'on_site' }));
    const now = t.clock.now();
    await t.services.store.transaction(async (tx) => {
      const row = (await tx.dfy.deal(d.id))!;
      const machine = (await tx.machines.machineByNo(d.machineNo!))!;
      await tx.inventory.loadPlanogram(
        machine.id,
        STARTER_PLANOGRAM.map((l) => ({ ...l, stock: stock[l.aisleNo] ?? l.stock })),
      );
      const w = await DealWriter.open(tx, row, now, 'system', 'system');
      w.emit({ type: 'onboarding_checked', online: true, terminal: 'bound', planogram: true });
      await w.move('onboarded', { facts: { onboarded: true } });
      await w.flush({ machineId: machine.id });
    });
    return { dealId: d.id, machineNo: d.machineNo! };
  };
  const settings = async (who: Person, over: Record<string, unknown>) => okData(await api('PUT', '/portfolio/settings', who, { ...SETTINGS, ...over }));
  return { db, api, person, atOutreach, placed, live, settings };
}
