import { isClaimableSerial } from '@vend/protocol';
import type { VenueRow } from '../../db/schema.ts';
import { ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { AppError, badRequest, machineNotFound, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Repos } from '../../repos.ts';
import { requireMachineAccess } from '../machines/ownership.ts';

/** Whose books a finance read covers: one operator's, or (admin without `operatorEmail`) every operator's. */
export interface Books {
  ownerId: string | null;
  operatorEmail: string | null;
}

/** The books of the caller; `operatorEmail` narrows an admin's to one operator (403 for anyone else, as the machines list). */
export async function booksOf(repos: Repos, p: Principal, operatorEmail: string | undefined): Promise<Books> {
  if (operatorEmail === undefined) return { ownerId: ownerFilter(p), operatorEmail: p.admin ? null : p.operatorEmail };
  if (!p.admin) throw new AppError('forbidden', 'The operatorEmail filter is for admin credentials only');
  const op = await repos.machines.operatorByEmail(operatorEmail);
  if (!op) throw badRequest(undefined, [{ path: 'query.operatorEmail', message: 'operatorEmail does not name an operator' }]);
  return { ownerId: op.id, operatorEmail: op.email };
}

/** A machine named by a filter: 404 "Machine not found" unless it is in the books. */
export async function machineInBooks(repos: Repos, p: Principal, books: Books, machineNo: string): Promise<{ id: string; machineNo: string }> {
  const m = requireMachineAccess(p, isClaimableSerial(machineNo) ? await repos.machines.machineByNo(machineNo) : undefined);
  if (books.ownerId !== null && m.operator_id !== books.ownerId) throw machineNotFound();
  return { id: m.id, machineNo: m.machine_no };
}

/** A venue named by a filter or a path: 404 "Venue not found" unless it is in the books. */
export async function venueInBooks(repos: Repos, p: Principal, books: Books, venueId: string): Promise<VenueRow> {
  const v = requireOwned(p, await repos.venues.byId(venueId), () => notFound('Venue'));
  if (books.ownerId !== null && v.operator_id !== books.ownerId) throw notFound('Venue');
  return v;
}

const DAY = 86_400_000;

/** The first instant of a UTC day `YYYY-MM-DD`. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);
/** The first instant after a UTC day: a report's inclusive `to` as an exclusive bound. */
export const dayEnd = (day: string): number => dayStart(day) + DAY;
/** The UTC day of an instant. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
