import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { formatDeviceKey, systemClock } from '@vend/protocol';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';
import { loadConfig } from '../config.ts';
import { closeContext, createContext } from '../context.ts';
import { seedIfEmpty } from '../bootstrap.ts';
import { createServices } from '../services.ts';
import { hashSecret } from '../crypto/secrets.ts';
import { mintDeviceKey } from '../domains/device-credentials/device-keys.ts';

/**
 * A fleet of enrolled cabinets written straight into a store (benchmarks, load tests): `count`
 * pool machines `BENCH-000001…`, each with an identity bound to its box and one active key
 * generation, stored exactly as enrolment stores it. Returns the `keyId:secret` of every cabinet.
 */
export async function seedEnrolledFleet(db: Kysely<DB>, count: number, now: number): Promise<string[]> {
  const keys: string[] = [];
  const BATCH = 250;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < count; start += BATCH) {
      const machines = [];
      const identities = [];
      const credentials = [];
      for (let i = start; i < Math.min(count, start + BATCH); i++) {
        const machineNo = `BENCH-${String(i + 1).padStart(6, '0')}`;
        const id = `mch_bench_${i + 1}`;
        const deviceId = `bench-box-${i + 1}`;
        const key = mintDeviceKey();
        keys.push(formatDeviceKey(key));
        machines.push({
          id,
          machine_no: machineNo,
          operator_id: null,
          name: machineNo,
          status: 'online',
          last_seen: now,
          platform: 'agent',
          created_at: now,
          updated_at: now,
        });
        identities.push({ machine_id: id, device_id: deviceId, binding: 'device-id', bound_at: now, cred_state: 'enrolled', updated_at: now });
        credentials.push({
          key_id: key.keyId,
          machine_id: id,
          generation: 1,
          secret_hash: hashSecret(key.secret),
          device_id: deviceId,
          state: 'active',
          created_at: now,
          activated_at: now,
        });
      }
      await trx.insertInto('machines').values(machines).execute();
      await trx.insertInto('device_identities').values(identities).execute();
      await trx.insertInto('device_credentials').values(credentials).execute();
    }
  });
  return keys;
}

/**
 * `tsx enrolled-fleet.ts <dataDir> <count> <keysFile>`: migrates and seeds the sandbox store
 * a cloud started with DATA_DIR=<dataDir> opens, adds the fleet, writes the keys (JSON array).
 */
async function main(argv: string[]): Promise<void> {
  const [dataDir, countArg, keysFile] = argv;
  const count = Number(countArg);
  if (!dataDir || !keysFile || !Number.isInteger(count) || count < 1) throw new Error('usage: enrolled-fleet.ts <dataDir> <count> <keysFile>');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const ctx = await createContext(config, { clock: systemClock, logger: pino({ level: 'silent' }) });
  try {
    await seedIfEmpty(ctx, createServices(ctx).seedSteps);
    const keys = await seedEnrolledFleet(ctx.database.db, count, systemClock.now());
    fs.mkdirSync(path.dirname(path.resolve(keysFile)), { recursive: true });
    fs.writeFileSync(keysFile, JSON.stringify(keys));
  } finally {
    await closeContext(ctx);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
