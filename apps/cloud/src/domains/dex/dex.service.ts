import { parseDex, renderDex, type Clock, type DexAudit, type DexProduct, type DexSegment, type DexTally } from '@vend/protocol';
import { badRequest } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore } from '../../repos.ts';
import { visibleMachine } from '../machines/ownership.ts';
import type { AuditSale } from './dex.repo.ts';
import type { DexImportBody, DexReconciliation } from './dex.schemas.ts';

export interface DexDeps {
  store: AppStore;
  clock: Clock;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest period one export covers. */
export const MAX_DAYS = 366;

const none = (): DexTally => ({ count: 0, cents: 0 });
const add = (t: DexTally, s: AuditSale) => {
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
  async export(p: Principal, machineNo: string, q: Period): Promise<{ fileName: string; text: string }> {
    const repos = this.d.store.repos;
    const m = await this.machine(p, machineNo);
    const today = this.today();
    const { start, end } = period(q.from ?? q.to ?? today, q.to ?? q.from ?? today);

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
    return { fileName: `${m.machine_no}_${day(start)}_${day(end - DAY_MS)}.dex`, text: renderDex(audit) };
  }

  /**
   * Reconciles a DEX file read from the machine's board against the cloud's sales: per selection, the
   * vends the board counted against the units the cloud recorded as vended. With `from` the board's
   * "since reset" counters (PA203) are compared with that period; without, its "since initialisation"
   * counters (PA201) with every sale up to `to`. Writes nothing.
   */
  async reconcile(p: Principal, machineNo: string, body: DexImportBody): Promise<DexReconciliation> {
    const m = await this.machine(p, machineNo);
    const parsed = parseDex(body.dex);
    if (!parsed.ok) throw badRequest(`Not a readable DEX file: ${parsed.error}`);
    const to = body.to ?? this.today();
    const { start, end } = body.from === undefined ? { start: 0, end: period(to, to).end } : period(body.from, to);
    const sinceReset = body.from !== undefined;
    const board = boardCounts(parsed.segments, sinceReset);
    const cloud = new Map<number, number>();
    for (const s of await this.d.store.repos.dex.salesBefore(m.id, end)) {
      if (s.created_at >= start) cloud.set(s.aisle_no, (cloud.get(s.aisle_no) ?? 0) + s.quantity);
    }
    const selections = [...new Set([...board.bySelection.keys(), ...cloud.keys()])]
      .sort((a, b) => a - b)
      .map((selection) => ({ selection, ...compare(board.bySelection.get(selection) ?? 0, cloud.get(selection) ?? 0) }));
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      machineNo: m.machine_no,
      boardId: board.id,
      counters: sinceReset ? 'since_reset' : 'since_init',
      from: sinceReset ? day(start) : null,
      to: day(end - DAY_MS),
      selections,
      total: compare(sum(selections.map((l) => l.board)), sum(selections.map((l) => l.cloud))),
      failedVends: board.failed,
    };
  }

  private async machine(p: Principal, machineNo: string) {
    return visibleMachine(this.d.store.repos.machines, p, machineNo);
  }

  private today(): string {
    return day(this.d.clock.now());
  }
}

export interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** UTC days `from`…`to`, inclusive, as [start, end) epoch ms; 400 when backwards or too long. */
function period(from: string, to: string): { start: number; end: number } {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  if (end <= start) throw badRequest('from must not be after to');
  if (end - start > MAX_DAYS * DAY_MS) throw badRequest(`A DEX period covers at most ${MAX_DAYS} days`);
  return { start, end };
}

/** The board's vend counts per selection (PA1 followed by its PA2), its id and its failed-vend count. */
function boardCounts(segments: DexSegment[], sinceReset: boolean): { id: string; bySelection: Map<number, number>; failed: number | null } {
  const at = sinceReset ? 2 : 0;
  const bySelection = new Map<number, number>();
  let selection: number | null = null;
  let failed: number | null = null;
  for (const s of segments) {
    if (s.id === 'PA1') selection = Number.parseInt(s.elements[0] ?? '', 10);
    else if (s.id === 'PA2' && selection !== null && Number.isInteger(selection)) {
      const n = Number.parseInt(s.elements[at] ?? '', 10);
      if (!Number.isInteger(n) || n < 0)
        throw badRequest(`Not a readable DEX file: PA2 of selection ${selection} has no ${sinceReset ? 'PA203' : 'PA201'} count`);
      bySelection.set(selection, (bySelection.get(selection) ?? 0) + n);
      selection = null;
    } else if (s.id === 'EA2' && s.elements[0] === 'OFV') failed = Number.parseInt(s.elements[sinceReset ? 2 : 1] ?? '', 10) || 0;
  }
  const id = segments.find((s) => s.id === 'ID1')?.elements[0] || (segments[0]?.elements[0] ?? '');
  return { id, bySelection, failed };
}

function compare(board: number, cloud: number) {
  const difference = board - cloud;
  return { board, cloud, difference, status: difference === 0 ? ('match' as const) : difference > 0 ? ('over' as const) : ('short' as const) };
}
