/**
 * The store side of the fleet runs (the fleet benchmark, the fault drill), each call in its own process
 * (apps/cloud/src/bench/fleet-store.ts): the scripts import nothing of the cloud's src.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DriverLedger } from './driver.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export type StoreEnv = { DATA_DIR: string; DATABASE_URL?: string };
/** apps/cloud/src/bench/fleet-store.ts's Audit: counts by name. */
export type Audit = Record<string, number>;
const FLEET_STORE = path.join(ROOT, 'apps/cloud/src/bench/fleet-store.ts');

/** Runs the store side in its own process; answers what it wrote. */
function fleetStore<T>(env: StoreEnv, args: string[]): Promise<T> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vend-fleet-store-')), 'out.json');
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [FLEET_STORE, ...args, out], {
    env: { PATH: process.env['PATH'] ?? '', STORE_ENV: JSON.stringify(env) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`fleet-store ${args[0]} exited ${code}`));
      const v = JSON.parse(fs.readFileSync(out, 'utf8')) as T;
      fs.rmSync(path.dirname(out), { recursive: true, force: true });
      resolve(v);
    }),
  );
}

/** The sandbox, then `count` enrolled cabinets BENCH-000001… given to alice, four stocked aisles each. */
export const seedFleet = (env: StoreEnv, count: number) => fleetStore<{ no: string; key: string }[]>(env, ['seed', String(count)]);

/** Counts the fleet's sales and drops in the store against what the fleet saw answered (every driver's ledger). */
export async function auditStore(env: StoreEnv, ledger: DriverLedger): Promise<Audit> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vend-fleet-ledger-')), 'ledger.json');
  fs.writeFileSync(file, JSON.stringify({ opened: ledger.opened, sales: ledger.sales, enqueued: ledger.enqueued, acked: ledger.acked }));
  try {
    return { ...(await fleetStore<Audit>(env, ['audit', file])), duplicateDeliveries: ledger.duplicateDeliveries, reportRetries: ledger.reportRetries };
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
