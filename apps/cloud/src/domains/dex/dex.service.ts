import type { Clock } from '@vend/protocol';
import { badRequest, machineNotFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore } from '../../repos.ts';
import { canSeeMachine } from '../machines/ownership.ts';
import { renderDex, type DexAudit, type DexProduct, type Tally } from './dex.format.ts';
import type { AuditSale } from './dex.repo.ts';

export interface DexDeps {
  store: AppStore;
  clock: Clock;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest period one export covers. */
export const MAX_DAYS = 366;

const none = (): Tally => ({ count: 0, cents: 0 });
const add = (t: Tally, s: AuditSale) => {
  t.count += s.quantity;
  t.cents += s.charged_cents;
};

/** Cash pays at the board; every other method (card, wallet, remote, …) is cashless. */
const isCash = (s: AuditSale) => s.pay_method === 'cash';

/**
 * DEX/EVA-DTS 6.1 audit export of one machine (docs/dex.md): the "since initialisation" counters run from
 * the machine's first sale to the end of the period, the "since reset" ones cover the period.
 */
export class DexService {
  constructor(private readonly d: DexDeps) {}

  /** `from`/`to`: UTC days, inclusive; default today. */
  async export(p: Principal, machineNo: string, q: { from?: string | undefined; to?: string | undefined }): Promise<{ fileName: string; text: string }> {
    const repos = this.d.store.repos;
    const m = await repos.machines.machineByNo(machineNo);
    if (!m || !canSeeMachine(p, m)) throw machineNotFound();
    const today = new Date(this.d.clock.now()).toISOString().slice(0, 10);
    const start = Date.parse(`${q.from ?? q.to ?? today}T00:00:00Z`);
    const end = Date.parse(`${q.to ?? q.from ?? today}T00:00:00Z`) + DAY_MS;
    if (end <= start) throw badRequest('from must not be after to');
    if (end - start > MAX_DAYS * DAY_MS) throw badRequest(`A DEX export covers at most ${MAX_DAYS} days`);

    const [sales, aisles, failed] = [await repos.dex.salesBefore(m.id, end), await repos.dex.aisles(m.id), await repos.dex.failedVendTimes(m.id, end)];
    const pair = () => ({ sinceInit: none(), inPeriod: none() });
    const audit: DexAudit = {
      machineNo: m.machine_no,
      model: m.platform ?? '',
      agentVersion: m.agent_version ?? '',
      at: end,
      paid: pair(),
      cash: pair(),
      cashless: pair(),
      free: pair(),
      products: [],
      failedVends: { count: failed.length, cents: 0 },
      failedInPeriod: { count: failed.filter((f) => f.received_at >= start).length, cents: 0 },
    };
    const products = new Map<number, DexProduct>(
      aisles.map((a) => [a.aisle_no, { selection: a.aisle_no, priceCents: a.price_cents, productId: a.sku ?? '', sinceInit: none(), inPeriod: none() }]),
    );
    for (const s of sales) {
      const inPeriod = s.created_at >= start;
      const kind = s.charged_cents === 0 ? audit.free : audit.paid;
      add(kind.sinceInit, s);
      if (inPeriod) add(kind.inPeriod, s);
      if (s.charged_cents === 0) continue;
      const by = isCash(s) ? audit.cash : audit.cashless;
      add(by.sinceInit, s);
      if (inPeriod) add(by.inPeriod, s);
      // a sale on an aisle since removed still counts in the machine's totals, under its selection
      let prod = products.get(s.aisle_no);
      if (!prod) {
        prod = { selection: s.aisle_no, priceCents: 0, productId: '', sinceInit: none(), inPeriod: none() };
        products.set(s.aisle_no, prod);
      }
      add(prod.sinceInit, s);
      if (inPeriod) add(prod.inPeriod, s);
    }
    audit.products = [...products.values()].sort((a, b) => a.selection - b.selection);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    return { fileName: `${m.machine_no}_${day(start)}_${day(end - DAY_MS)}.dex`, text: renderDex(audit) };
  }
}
