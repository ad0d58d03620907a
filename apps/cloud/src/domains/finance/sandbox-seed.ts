import type { Repos } from '../../repos.ts';
import { accrualOnNaming, startOfDate } from '../venues/venues.rules.ts';
import type { TaxService } from '../tax/tax.service.ts';
import type { PayoutsService } from './payouts.service.ts';
import { periodBounds, periodOf } from '../calendar/period.ts';

const DAY = 86_400_000;
const ALICE = 'op_sbx_alice';

/** alice's host venues: a station concession with a deployment date, a gym paid from its first sale, a library moved in later. */
const VENUES = [
  {
    id: 'ven_sbx_union',
    name: 'Union Station Concessions',
    address: '50 Massachusetts Ave, New York, NY 10001',
    bps: 1500,
    machine: 'SBX-ALICE-0001',
    deployedDaysAgo: 100,
  },
  { id: 'ven_sbx_harbor', name: 'Harbor Fitness', address: '1 Harbor Plaza, New York, NY 10004', bps: 1000, machine: 'SBX-ALICE-0002', deployedDaysAgo: null },
] as const;
const MOVED_IN = {
  id: 'ven_sbx_library',
  name: 'Central Library',
  address: '630 W 5th St, Los Angeles, CA 90071',
  bps: 800,
  machine: 'SBX-ALICE-0003',
  daysAgo: 20,
};

/** Wholesale cost per unit of each seed SKU, first and second purchase order (the vendor raised prices). */
const COSTS: Record<string, [number, number]> = {
  'SKU-COLA-355': [62, 68],
  'SKU-WATER-500': [28, 30],
  'SKU-CHIPS-SALT': [55, 55],
  'SKU-BAR-CHOC': [84, 91],
  'SKU-NUTS-MIX': [118, 124],
  'SKU-GUM-MINT': [31, 33],
  'SKU-TEA-ICED': [79, 86],
  'SKU-COOKIE-OAT': [58, 62],
  'SKU-JUICE-OJ': [121, 129],
  'SKU-ENERGY-250': [142, 150],
};
const PURCHASES = [
  { id: 'po_sbx_0001', ref: 'PO-SBX-0001', vendor: 'Restaurant Depot', orderedDaysAgo: 104, receivedDaysAgo: 100, qty: 48, cost: 0 },
  { id: 'po_sbx_0002', ref: 'PO-SBX-0002', vendor: 'Costco Business Center', orderedDaysAgo: 50, receivedDaysAgo: 45, qty: 60, cost: 1 },
] as const;

/** alice's sales-tax schedule: New York's combined rate, rounded to whole basis points, from before the seeded sales. */
const SCHEDULE = { id: 'txs_sbx_alice', bps: 888, fromDaysAgo: 120 } as const;

const dateOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/**
 * The finance part of the sandbox data set (alice), so `/pnl` tells a story on first start: three
 * host venues — one accruing from its deployment date, one from the machine's first sale, one the
 * machine moved into 20 days ago (the move rule); two purchase orders received 100 and 45 days ago,
 * whose layers the seeded sales draw in order, as every real sale does (docs/fifo.md); a tax
 * schedule that stamped every seeded sale; the month before last remitted and its host statements
 * paid (so that month is closed to restatement); and payroll, a referral and expenses.
 * Runs after the base seed (machines and 90 days of orders) inside the seed's transaction.
 */
export async function seedFinance(
  tx: Repos,
  now: number,
  deps: { tax: Pick<TaxService, 'recordRemittance'>; payouts: Pick<PayoutsService, 'freezeStatement'> },
): Promise<void> {
  const today = Math.floor(now / DAY) * DAY;
  const machines = new Map<string, { id: string; zone: string | null }>();
  for (const no of [...VENUES.map((v) => v.machine), MOVED_IN.machine]) {
    const m = await tx.machines.machineByNo(no);
    if (m) machines.set(no, { id: m.id, zone: m.time_zone });
  }

  for (const v of VENUES) {
    const machine = machines.get(v.machine);
    const deploymentDate = v.deployedDaysAgo === null ? null : dateOf(today - v.deployedDaysAgo * DAY);
    await tx.venues.insert({
      id: v.id,
      operator_id: ALICE,
      name: v.name,
      address: v.address,
      rev_share_bps: v.bps,
      deployment_date: deploymentDate,
      kiosk_machine_no: v.machine,
      created_at: today - 101 * DAY,
    });
    if (!machine) continue;
    const accrual = accrualOnNaming({
      now: today - 101 * DAY,
      currentVenueId: null,
      lastLeftAt: await tx.venues.lastMoveAt(machine.id),
      firstSaleAt: await tx.venues.firstSaleAt(machine.id),
      deploymentStart: deploymentDate === null ? null : startOfDate(deploymentDate, machine.zone),
    });
    await tx.machines.moveToVenue({ id: `vmv_sbx_${v.id.slice(8)}`, machine_id: machine.id, venue_id: v.id, moved_at: today - 101 * DAY }, accrual);
  }
  const library = machines.get(MOVED_IN.machine);
  await tx.venues.insert({
    id: MOVED_IN.id,
    operator_id: ALICE,
    name: MOVED_IN.name,
    address: MOVED_IN.address,
    rev_share_bps: MOVED_IN.bps,
    deployment_date: null,
    kiosk_machine_no: library ? MOVED_IN.machine : null,
    created_at: today - MOVED_IN.daysAgo * DAY,
  });
  if (library) {
    const at = today - MOVED_IN.daysAgo * DAY + 9 * 3_600_000;
    await tx.machines.moveToVenue({ id: 'vmv_sbx_library', machine_id: library.id, venue_id: MOVED_IN.id, moved_at: at }, { from: at, rule: 'move' });
  }

  // Purchase orders are received in time order among the sales, so each sale draws the layers that existed then.
  const sales = await tx.orders.vendedSalesOf(ALICE);
  let next = 0;
  for (const po of PURCHASES) {
    const receivedAt = today - po.receivedDaysAgo * DAY + 7 * 3_600_000;
    for (; next < sales.length && sales[next]!.created_at < receivedAt; next++) await drawCost(tx, sales[next]!);
    const lines = Object.entries(COSTS);
    await tx.inventory.insertPurchaseOrder(
      {
        id: po.id,
        operator_id: ALICE,
        po_ref: po.ref,
        vendor: po.vendor,
        ordered_on: dateOf(today - po.orderedDaysAgo * DAY),
        total_cents: lines.reduce((sum, [, c]) => sum + po.qty * c[po.cost], 0),
        received_at: receivedAt,
      },
      lines.map(([sku, c], i) => ({
        id: `lot_sbx_${po.id.slice(7)}_${String(i + 1).padStart(2, '0')}`,
        operator_id: ALICE,
        sku,
        qty_received: po.qty,
        qty_remaining: po.qty,
        unit_cost_cents: c[po.cost],
        received_at: receivedAt,
        purchase_order_ref: po.ref,
        purchase_order_id: po.id,
        line_no: i + 1,
      })),
    );
  }
  for (; next < sales.length; next++) await drawCost(tx, sales[next]!);

  // The schedule stamped each seeded sale when it was made (the one sale-time rule: no machine rate of their own).
  const scheduleFrom = today - SCHEDULE.fromDaysAgo * DAY;
  await tx.tax.insertSchedule({
    id: SCHEDULE.id,
    operator_id: ALICE,
    bps: SCHEDULE.bps,
    effective_on: dateOf(scheduleFrom),
    effective_at: scheduleFrom,
    created_at: scheduleFrom,
  });
  for (const { id } of machines.values()) await tx.orders.pinUnstampedTaxRate(id, scheduleFrom, today + DAY, SCHEDULE.bps / 100);

  // The month before last is closed: its tax remitted and the station's host statement paid, early last month.
  const thisMonth = periodBounds(periodOf(now)).start;
  const lastMonth = periodBounds(periodOf(thisMonth - 1)).start;
  const closed = periodOf(lastMonth - 1);
  const closedAt = lastMonth + 9 * DAY + 10 * 3_600_000;
  await deps.tax.recordRemittance(tx, ALICE, closed, `ST-100 ${closed}`, closedAt);
  await deps.payouts.freezeStatement(tx, 'ven_sbx_union', closed, `CHK-${closed.replace('-', '')}-0001`, closedAt + 3_600_000);

  // Costs off the machines: monthly payroll, a referral on the station kiosk, route expenses against the venues.
  const entries: { kind: 'payroll' | 'referral' | 'expense'; cents: number; day: number; machine?: string; venue?: string; memo: string }[] = [
    { kind: 'payroll', cents: 12_000, day: periodBounds(closed).start, memo: 'Route driver, two runs a week' },
    { kind: 'payroll', cents: 12_000, day: lastMonth, memo: 'Route driver, two runs a week' },
    { kind: 'payroll', cents: 12_000, day: thisMonth, memo: 'Route driver, two runs a week' },
    { kind: 'referral', cents: 2_500, day: today - 60 * DAY, machine: 'SBX-ALICE-0001', memo: 'Placement referral: Union Station' },
    { kind: 'expense', cents: 1_854, day: today - 40 * DAY, venue: 'ven_sbx_harbor', memo: 'Card reader cable' },
    { kind: 'expense', cents: 1_275, day: today - 12 * DAY, memo: 'Van fuel' },
    { kind: 'expense', cents: 390, day: today - 5 * DAY, venue: 'ven_sbx_library', memo: 'Permit renewal' },
  ];
  for (const [i, e] of entries.entries())
    await tx.ledger.insertEntry({
      id: `fen_sbx_${String(i + 1).padStart(2, '0')}`,
      operator_id: ALICE,
      kind: e.kind,
      amount_cents: e.cents,
      occurred_on: dateOf(e.day),
      machine_id: e.machine === undefined ? null : (machines.get(e.machine)?.id ?? null),
      venue_id: e.venue ?? null,
      memo: e.memo,
      reverses_id: null,
      created_at: e.day + 12 * 3_600_000,
    });
}

async function drawCost(tx: Repos, s: { order_number: string; machine_id: string; aisle_no: number; quantity: number; created_at: number }): Promise<void> {
  await tx.inventory.consumeFifo({ orderNumber: s.order_number, machineId: s.machine_id, aisleNo: s.aisle_no, quantity: s.quantity, now: s.created_at });
}
