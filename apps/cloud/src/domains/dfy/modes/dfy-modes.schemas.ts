import { z } from 'zod';
import { CAPABILITIES } from '../deals/dfy.rules.ts';
import { TIMESTAMP, confirm } from '../deals/dfy.schemas.ts';
import { MODE_LEVELS } from './modes.ts';

const Cap = <T extends z.ZodType>(t: T) => Object.fromEntries(CAPABILITIES.map((c) => [c, t])) as Record<(typeof CAPABILITIES)[number], T>;

export const ModeParams = z.object({
  kind: z.enum(['deal', 'machine']),
  id: z.string().min(1).max(64).describe('a deal id, or a machine number'),
});
export const ModeBody = z.strictObject(Cap(z.boolean().nullable().optional().describe('true/false sets the toggle, null clears it, absent keeps it')));
export const ConciergeBody = z.strictObject({ action: z.enum(['enroll', 'takeback']), confirm });

export const Mode = z.object({
  kind: z.enum(['deal', 'machine']),
  id: z.string(),
  dealId: z.string().nullable(),
  machineNo: z.string().nullable(),
  label: z.enum(['auto', 'hybrid', 'manual']).describe('all on: auto; all off: manual; mixed: hybrid'),
  capabilities: z.object(Cap(z.object({ on: z.boolean(), decidedBy: z.enum(MODE_LEVELS).describe('the level of key rule 4 that decided it') }))),
  toggles: z.object(Cap(z.boolean().nullable())),
  installBy: z.enum(['team', 'self']).describe('concierge installs with the ops/install team; otherwise the portfolio installMode'),
  concierge: z.object({
    active: z.boolean(),
    enrolledAt: z.string().nullable().describe(TIMESTAMP),
    feePerMonthUsd: z.number(),
    feeOwedUsd: z.number().describe('accrued by enrolled days over every enrolment of the placement; stays owed after takeback'),
    enrolments: z.array(z.object({ kind: z.enum(['deal', 'machine']), enrolledAt: z.string(), takenBackAt: z.string().nullable() })),
  }),
});
