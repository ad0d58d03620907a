import { newId } from '../../crypto/ids.ts';
import type { Repos } from '../../repos.ts';
import { DEFAULT_ALERT_THRESHOLD, DEFAULT_MAX_STOCK, NEW_MACHINE_AISLES, TERMINAL_PROVIDER } from '../machines/machines.service.ts';

/** The settlement account of payment terminals on unclaimed machines (the seed's pool machine uses it too). */
export const POOL_MERCHANT_ACCOUNT = 'acct_unclaimed_pool';

/**
 * What an auto-provisioned board is stocked with: the house planogram, every lane full (spec 1 §3:
 * "auto-provisioned by a first device contact, fully stocked"). Prices in cents.
 */
export const POOL_PLANOGRAM: readonly { sku: string; name: string; priceCents: number }[] = [
  { sku: 'SKU-COLA-355', name: 'Cola 355ml', priceCents: 175 },
  { sku: 'SKU-WATER-500', name: 'Spring water 500ml', priceCents: 125 },
  { sku: 'SKU-CHIPS-SALT', name: 'Sea salt chips', priceCents: 150 },
  { sku: 'SKU-BAR-CHOC', name: 'Chocolate bar', priceCents: 195 },
  { sku: 'SKU-NUTS-MIX', name: 'Trail mix', priceCents: 250 },
  { sku: 'SKU-GUM-MINT', name: 'Mint gum', priceCents: 100 },
  { sku: 'SKU-TEA-ICED', name: 'Iced tea', priceCents: 225 },
  { sku: 'SKU-COOKIE-OAT', name: 'Oat cookie', priceCents: 175 },
  { sku: 'SKU-JUICE-OJ', name: 'Orange juice', priceCents: 275 },
  { sku: 'SKU-ENERGY-250', name: 'Energy drink', priceCents: 325 },
];

export interface ProvisionInput {
  machineNo: string;
  /** `agent` for `/cabinet` first contact, `apk` for family A. */
  platform: 'agent' | 'apk';
  agentVersion?: string | undefined;
  vmcVersion?: string | undefined;
  apkVersion?: string | undefined;
  mode: 'sandbox' | 'production';
  now: number;
}

/**
 * Puts an unseen, claimable board into the unclaimed pool: a machine with no operator, online
 * (this is its first contact), ten full aisles of the house planogram and a payment terminal on the
 * pool's settlement account, which a later claim re-binds to the operator (machines domain).
 * Runs inside the caller's transaction; a concurrent first contact of the same serial fails on the
 * unique serial and the caller retries, finding the winner's row.
 */
export async function provisionPoolMachine(tx: Repos, input: ProvisionInput): Promise<string> {
  const machines = tx.machines;
  const id = newId('mch', input.now);
  await machines.insertMachine({
    id,
    machine_no: input.machineNo,
    operator_id: null,
    name: input.machineNo,
    status: 'online',
    last_seen: input.now,
    location: '',
    time_zone: 'UTC',
    platform: input.platform,
    agent_version: input.agentVersion ?? null,
    vmc_version: input.vmcVersion ?? null,
    apk_version: input.apkVersion ?? null,
    created_at: input.now,
    updated_at: input.now,
  });
  const rows = Array.from({ length: NEW_MACHINE_AISLES }, (_, i) => {
    const p = POOL_PLANOGRAM[i % POOL_PLANOGRAM.length]!;
    return {
      machine_id: id,
      aisle_no: i + 1,
      current_stock: DEFAULT_MAX_STOCK,
      max_stock: DEFAULT_MAX_STOCK,
      alert_threshold: DEFAULT_ALERT_THRESHOLD,
      price_cents: p.priceCents,
      sku: p.sku,
      product_name: p.name,
      faulted: 0,
    };
  });
  await tx.inventory.insertAisles(rows);
  await machines.insertTerminal({
    id: newId('trm', input.now),
    machine_id: id,
    operator_id: null,
    merchant_account: POOL_MERCHANT_ACCOUNT,
    provider: TERMINAL_PROVIDER[input.mode],
    bound_at: input.now,
  });
  return id;
}
