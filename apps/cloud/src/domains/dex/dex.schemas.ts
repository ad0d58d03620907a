import { z } from 'zod';
import { Day } from '../finance/finance.schemas.ts';
import { MachineNoParams } from '../machines/machines.schemas.ts';

export const DexParams = MachineNoParams;
export const DexQuery = z.object({
  from: Day.optional().describe('first day of the period, inclusive (UTC); default: to, or today'),
  to: Day.optional().describe('last day of the period, inclusive (UTC); default: from, or today'),
});

export const DexImportBody = z.strictObject({
  dex: z
    .string()
    .min(1)
    .max(512 * 1024)
    .describe('the DEX file read from the board, as text'),
  from: DexQuery.shape.from.describe("first day of the board's counting period (its last reset), inclusive (UTC)"),
  to: DexQuery.shape.to.describe('last day of that period, inclusive (UTC); default: today'),
});
export type DexImportBody = z.infer<typeof DexImportBody>;

const RECONCILE_STATUS = ['match', 'over', 'short'] as const;

export const ReconcileLine = z.object({
  selection: z.number().int(),
  board: z.number().int().describe('vends the board counted'),
  cloud: z.number().int().describe('units the cloud recorded as vended (paid and free)'),
  difference: z.number().int().describe('board − cloud'),
  status: z.enum(RECONCILE_STATUS).describe('over: the board vended more than the cloud recorded (unrecorded sales); short: fewer'),
});

export const DexReconciliation = z.object({
  machineNo: z.string(),
  boardId: z.string().describe("the file's ID101 (machine serial) or, without one, its DXS01 sender"),
  counters: z.enum(['since_reset', 'since_init']).describe('since_reset (PA203) with from/to, else since_init (PA201) against every sale'),
  from: z.string().nullable(),
  to: z.string(),
  selections: z.array(ReconcileLine),
  total: ReconcileLine.omit({ selection: true }),
  failedVends: z.number().int().nullable().describe("the file's failed-vend count (EA2 OFV) for the same counters, when present"),
});
export type DexReconciliation = z.infer<typeof DexReconciliation>;
