import { z } from 'zod';
import { FreeProductMoney, GameMoney } from '../prizes/prizes.schemas.ts';

export const MachineNoParams = z.object({ machineNo: z.string() });

/** QR side in pixels: 240–1024, default 640 (spec 1 §8). */
export const QrQuery = z.object({ size: z.coerce.number().int().min(240).max(1024).default(640) });

const Bucket = z.object({ orders: z.number().int(), gross: z.number(), refunded: z.number() });

export const OperatorView = z.object({
  machine: z.object({
    machineNo: z.string(),
    name: z.string(),
    status: z.enum(['online', 'offline']),
    lastSeen: z.string().nullable(),
    /** Unseen for more than ten minutes: effectively down whatever the last status said (spec 1 §8). */
    effectivelyDown: z.boolean(),
    location: z.string(),
    timeZone: z.string().nullable(),
  }),
  sales: z.object({ today: Bucket, last7Days: Bucket, last30Days: Bucket }),
  aisles: z.object({
    total: z.number().int(),
    low: z.array(z.number().int()),
    out: z.array(z.number().int()),
    faulted: z.array(z.number().int()),
    stockUnits: z.number().int(),
    capacityUnits: z.number().int(),
    fillPercent: z.number(),
  }),
  money: z.object({
    currency: z.string().nullable(),
    sales30Days: z.number(),
    screenAds: z.object({ estRevenue30Days: z.number(), activeCampaigns: z.number().int() }),
    freeProduct: FreeProductMoney,
    game: GameMoney,
  }),
});
export type OperatorView = z.infer<typeof OperatorView>;
