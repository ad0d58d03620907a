import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { PeriodString } from '../calendar/period.ts';
import { MachineNo } from '../machines/machines.schemas.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
/** The highest schedule rate: 30% (no sales tax or VAT in the fleet's markets comes near it). */
export const MAX_SCHEDULE_BPS = 3000;

const effectiveDate = z.iso
  .date('must be a date YYYY-MM-DD')
  .refine((d) => Number(d.slice(0, 4)) >= 1970, 'must be a date from 1970-01-01 on')
  .describe('YYYY-MM-DD: the rate applies to sales from 00:00 UTC of this date');

export const ScheduleBody = z.strictObject({
  bps: z
    .number()
    .int('must be an integer number of basis points')
    .min(0, `must be 0–${MAX_SCHEDULE_BPS}`)
    .max(MAX_SCHEDULE_BPS, `must be 0–${MAX_SCHEDULE_BPS}`)
    .describe('basis points of the tax-inclusive rate: 888 = 8.88%; 0 = no tax from this date'),
  effectiveAt: effectiveDate,
});
export type ScheduleBody = z.infer<typeof ScheduleBody>;

export const ScheduleListQuery = PagingQuery;
export type ScheduleListQuery = z.infer<typeof ScheduleListQuery>;

export const Schedule = z.object({
  id: z.string(),
  bps: z.number().int(),
  ratePercent: z.number().describe('bps / 100: the percent stamped on sales (orders’ taxRate)'),
  effectiveAt: z.string().describe('YYYY-MM-DD as written'),
  effectiveFrom: z.string().describe(`${TIMESTAMP}: the first instant it applies (00:00 UTC)`),
  inEffect: z.boolean().describe('the row that stamps a sale made now (on machines without their own salesTaxRate)'),
  createdAt: z.string(),
  operatorEmail: z.string().nullable().optional().describe('admin credentials only'),
});
export type Schedule = z.infer<typeof Schedule>;
export const SchedulePage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Schedule) });

export const RemitBody = z.strictObject({
  period: PeriodString.describe('YYYY-MM (UTC calendar month); must have ended'),
  reference: safeString({ trim: true }).min(1, 'must not be empty').max(100, 'must be at most 100 characters').nullable().optional(),
});
export type RemitBody = z.infer<typeof RemitBody>;

export const RemittanceListQuery = PagingQuery;
export type RemittanceListQuery = z.infer<typeof RemittanceListQuery>;

export const Remittance = z.object({
  id: z.string(),
  period: z.string(),
  reference: z.string().nullable(),
  orders: z.number().int().describe('the period’s sales (every status but refunded)'),
  salesCents: z.number().int(),
  sales: z.number().describe('decimal of salesCents: charged amounts, tax included'),
  taxCents: z.number().int().describe('tax remitted: each sale’s tax at its rate, rounded per sale, summed'),
  tax: z.number(),
  netCents: z.number().int(),
  net: z.number(),
  remittedAt: z.string().describe(TIMESTAMP),
  operatorEmail: z.string().nullable().optional().describe('admin credentials only'),
});
export type Remittance = z.infer<typeof Remittance>;
export const RemittancePage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Remittance) });

export const BlockedQuery = PagingQuery.extend({ machineNo: MachineNo.optional() });
export type BlockedQuery = z.infer<typeof BlockedQuery>;

export const BlockedRestatement = z.object({
  id: z.string(),
  machineNo: z.string(),
  period: z.string().describe('YYYY-MM'),
  reason: z.enum(['remitted', 'paid_out']),
  requestedRate: z.number().nullable().describe('the salesTaxRate the PATCH recorded (percent); null: cleared'),
  keptRate: z.number().nullable().describe('the machine’s rate before: the period’s unstamped orders stay at it'),
  orders: z.number().int().describe('the machine’s orders in the period, left unchanged'),
  at: z.string().describe(`${TIMESTAMP}: when the change was refused`),
  operatorEmail: z.string().nullable().optional().describe('admin credentials only'),
});
export type BlockedRestatement = z.infer<typeof BlockedRestatement>;
export const BlockedPage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(BlockedRestatement) });
