/**
 * The store side of the fleet load test (scripts/bench-fleet.ts, which imports nothing of the cloud's src and
 * runs this in its own process; `STORE_ENV` is the JSON of DATA_DIR and, for PostgreSQL, DATABASE_URL):
 *
 *   tsx fleet-store.ts seed <count> <outFile>      the sandbox, then <count> enrolled cabinets BENCH-000001…
 *                                                   given to alice with four stocked, priced aisles each;
 *                                                   writes [{no, key}] (the cabinets' device keys)
 *   tsx fleet-store.ts audit <ledgerFile> <outFile> counts the fleet's sales and drops in the store against
 *                                                   what the fleet saw answered (the ledger); writes the Audit
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { systemClock } from '@vend/protocol';
import { loadConfig } from '../config.ts';
import { closeContext, createContext, type AppContext } from '../context.ts';
import { seedIfEmpty } from '../bootstrap.ts';
import { createServices } from '../services.ts';
import { seedEnrolledFleet } from './enrolled-fleet.ts';

const ALICE = 'op_sbx_alice';
const AISLES = 4;

export interface StoreEnv {
  DATA_DIR: string;
  DATABASE_URL?: string;
}

/** What the fleet saw answered: the store must hold exactly this. */
export interface FleetLedger {
  /** orderNumbers createOrder answered */
  opened: string[];
  /** [dispenseId, orderNumber] of every walk-up sale report answered */
  sales: [string, string][];
  /** commandIds the operator's enqueue answered */
  enqueued: string[];
  /** commandIds a cabinet's report acknowledged */
  acked: string[];
}

export interface Audit {
  salesInStore: number;
  salesLost: number;
  salesUnexpected: number;
  salesDuplicated: number;
  ordersOpenedNotInStore: number;
  ordersOpenedUnsettled: number;
  commandsEnqueued: number;
  commandsAcked: number;
  commandsAckedInStore: number;
  commandsLost: number;
  commandsDuplicatedAcks: number;
  commandsStillPending: number;
}

/** Opens the store the cloud would open with `env` (migrating it), runs `fn`, closes it. */
async function withStore<T>(env: StoreEnv, fn: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(loadConfig({ ...env, LOG_LEVEL: 'silent', JOBS_ENABLED: 'false' }), {
    clock: systemClock,
    logger: pino({ level: 'silent' }),
  });
  try {
    return await fn(ctx);
  } finally {
    await closeContext(ctx);
  }
}

export async function seedFleet(env: StoreEnv, count: number): Promise<{ no: string; key: string }[]> {
  return withStore(env, async (ctx) => {
    await seedIfEmpty(ctx, createServices(ctx).seedSteps);
    const db = ctx.database.db;
    const keys = await seedEnrolledFleet(db, count, systemClock.now());
    await db.updateTable('machines').set({ operator_id: ALICE }).where('id', 'like', 'mch_bench_%').execute();
    for (let start = 0; start < count; start += 200) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + 200); i++)
        for (let a = 1; a <= AISLES; a++)
          rows.push({
            machine_id: `mch_bench_${i + 1}`,
            aisle_no: a,
            current_stock: 1_000_000,
            max_stock: 1_000_000,
            alert_threshold: 0,
            price_cents: 150 + 25 * a,
            sku: null,
            product_name: `Bench bar ${a}`,
            faulted: 0,
          });
      await db.insertInto('aisles').values(rows).execute();
    }
    return keys.map((key, i) => ({ no: `BENCH-${String(i + 1).padStart(6, '0')}`, key }));
  });
}

export async function auditStore(env: StoreEnv, ledger: FleetLedger): Promise<Audit> {
  const sales = new Map(ledger.sales);
  return withStore(env, async (ctx) => {
    const db = ctx.database.db;
    const reports = await db
      .selectFrom('dispense_reports')
      .select(['dispense_id', 'kind', 'command_id', 'order_number'])
      .where('machine_id', 'like', 'mch_bench_%')
      .execute();
    const saleRows = reports.filter((r) => r.kind === 'order');
    const saleIds = new Set(saleRows.map((r) => r.dispense_id));
    const perOrder = new Map<string, number>();
    for (const r of saleRows) perOrder.set(r.order_number ?? '', (perOrder.get(r.order_number ?? '') ?? 0) + 1);
    const orders = await db
      .selectFrom('orders')
      .select(['order_number', 'dispense_id'])
      .where('machine_id', 'like', 'mch_bench_%')
      .where('channel', '=', 'walkup')
      .execute();
    const orderByNo = new Map(orders.map((o) => [o.order_number, o]));
    const dropRows = reports.filter((r) => r.kind === 'command');
    const perCommand = new Map<string, number>();
    for (const r of dropRows) perCommand.set(r.command_id ?? '', (perCommand.get(r.command_id ?? '') ?? 0) + 1);
    const commands = await db.selectFrom('dispense_commands').select(['id', 'status']).where('machine_id', 'like', 'mch_bench_%').execute();
    const cmdById = new Map(commands.map((c) => [c.id, c]));
    return {
      salesInStore: saleRows.length,
      salesLost: [...sales.keys()].filter((id) => !saleIds.has(id)).length,
      salesUnexpected: saleRows.filter((r) => !sales.has(r.dispense_id)).length,
      salesDuplicated: [...perOrder.values()].filter((n) => n > 1).length,
      ordersOpenedNotInStore: ledger.opened.filter((o) => !orderByNo.has(o)).length,
      ordersOpenedUnsettled: ledger.opened.filter((o) => orderByNo.get(o)?.dispense_id == null).length,
      commandsEnqueued: ledger.enqueued.length,
      commandsAcked: ledger.acked.length,
      commandsAckedInStore: ledger.acked.filter((id) => cmdById.get(id)?.status === 'acknowledged' && perCommand.get(id) === 1).length,
      commandsLost: ledger.enqueued.filter((id) => !cmdById.has(id)).length + ledger.acked.filter((id) => cmdById.get(id)?.status !== 'acknowledged').length,
      commandsDuplicatedAcks: [...perCommand.values()].filter((n) => n > 1).length,
      commandsStillPending: commands.filter((c) => c.status === 'pending').length,
    };
  });
}

async function main(argv: string[]): Promise<void> {
  const env = JSON.parse(process.env['STORE_ENV'] ?? 'null') as StoreEnv | null;
  const [command, arg, outFile] = argv;
  if (!env?.DATA_DIR || !outFile) throw new Error('usage: STORE_ENV={"DATA_DIR":…} fleet-store.ts seed <count> <outFile> | audit <ledgerFile> <outFile>');
  if (command === 'seed') fs.writeFileSync(outFile, JSON.stringify(await seedFleet(env, Number(arg))));
  else if (command === 'audit') fs.writeFileSync(outFile, JSON.stringify(await auditStore(env, JSON.parse(fs.readFileSync(arg!, 'utf8')) as FleetLedger)));
  else throw new Error(`unknown command ${command}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
