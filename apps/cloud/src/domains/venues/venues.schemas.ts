import { z } from 'zod';
import { safeString } from '@vend/protocol';
import { PagingQuery } from '../../http/paging.ts';
import { MachineNo } from '../machines/machines.schemas.ts';
import { parseWallClock } from '../calendar/local-time.ts';

const TIMESTAMP = 'YYYY-MM-DDTHH:MM:SS.mmm+0000';
export const COMMISSION_RULES = ['move', 'deploymentDate', 'firstSale'] as const;

const name = safeString({ trim: true }).min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const address = safeString({ trim: true }).min(1, 'must not be empty').max(500, 'must be at most 500 characters');
const machineNos = z.array(MachineNo).max(500, 'at most 500 machines');
const revShareBps = z.number().int('must be an integer number of basis points').min(0, 'must be 0–10000').max(10000, 'must be 0–10000');
const deploymentDate = z.iso.date('must be a date YYYY-MM-DD').refine((d) => parseWallClock(`${d} 00:00:00`) !== null, 'must be a date from 1970-01-01 on');

export const CreateVenueBody = z.strictObject({
  name,
  address: address.nullable().optional(),
  /** The machines placed at the venue; each must be the caller's. */
  machineNos: machineNos.optional(),
  /** One of `machineNos`. */
  kioskMachineNo: MachineNo.nullable().optional(),
  revShareBps,
  deploymentDate: deploymentDate.nullable().optional(),
});
export type CreateVenueBody = z.infer<typeof CreateVenueBody>;

export const PatchVenueBody = z.strictObject({
  name: name.optional(),
  address: address.nullable().optional(),
  /** The full new list: machines left out are detached, new ones attached. */
  machineNos: machineNos.optional(),
  kioskMachineNo: MachineNo.nullable().optional(),
  revShareBps: revShareBps.optional(),
  deploymentDate: deploymentDate.nullable().optional(),
});
export type PatchVenueBody = z.infer<typeof PatchVenueBody>;

export const VenueParams = z.object({ id: z.string().min(1).max(64) });
export const VenueListQuery = PagingQuery;
export type VenueListQuery = z.infer<typeof VenueListQuery>;

export const VenueMachine = z.object({
  machineNo: z.string(),
  attachedAt: z.string().describe(`${TIMESTAMP}: the move that attached it`),
  commissionFrom: z.string().describe(`${TIMESTAMP}: host commission accrues from here`),
  commissionRule: z.enum(COMMISSION_RULES).describe('move: from the move; deploymentDate / firstSale: the machine had already sold when the venue named it'),
});

export const VenueStint = VenueMachine.extend({
  until: z.string().nullable().describe(`${TIMESTAMP}: when it left (moved elsewhere or detached); null while still here`),
});

export const Venue = z.object({
  id: z.string(),
  name: z.string(),
  address: z.string().nullable(),
  machineNos: z.array(z.string()),
  kioskMachineNo: z.string().nullable(),
  revShareBps: z.number().int(),
  deploymentDate: z.string().nullable(),
  createdAt: z.string(),
  /** The machines here now, each with when its commission accrues from. */
  machines: z.array(VenueMachine),
  /** Every stay of a machine here, past and present: what a host line per period is computed from. */
  stints: z.array(VenueStint),
  operatorEmail: z.string().nullable().optional(),
});
export type Venue = z.infer<typeof Venue>;
export const VenuePage = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int(), records: z.array(Venue) });
