import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import type { MachineRow, VenueRow, VenueUpdate } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { VenueWithOwner } from './venues.repo.ts';
import { accrualOnNaming, startOfDate, stintsOf } from './venues.rules.ts';
import type { CreateVenueBody, PatchVenueBody, Venue, VenueListQuery } from './venues.schemas.ts';

export interface VenuesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

const PATCH_FIELDS = ['name', 'address', 'machineNos', 'kioskMachineNo', 'revShareBps', 'deploymentDate'] as const;

/**
 * Host venues and the start of host commission (spec 1 §2.9, §4.3 rule 6, §4.8). A venue names the
 * machines placed there; naming one is a move recorded in the machine's venue history (through the
 * machines repo, the one writer of `venue_moves`), with when commission accrues from and why.
 */
export class VenuesService {
  constructor(private readonly deps: VenuesDeps) {}

  async create(p: Principal, body: CreateVenueBody): Promise<Venue> {
    const machineNos = [...new Set(body.machineNos ?? [])].sort();
    const kiosk = body.kioskMachineNo ?? null;
    refuseKiosk(kiosk, machineNos);
    const now = this.deps.clock.now();
    const id = newId('ven', now);
    await this.deps.store.transaction(async (tx) => {
      const machines = await lockOwned(tx, p.operatorId, machineNos);
      const venue: VenueRow = {
        id,
        operator_id: p.operatorId,
        name: body.name,
        address: body.address ?? null,
        rev_share_bps: body.revShareBps,
        deployment_date: body.deploymentDate ?? null,
        kiosk_machine_no: kiosk,
        created_at: now,
      };
      await tx.venues.insert(venue);
      for (const m of machines) await this.attach(tx, p, venue, m, now);
      await this.deps.audit.record(tx, p, 'venues.create', `venue:${id}`);
    });
    return this.get(p, id);
  }

  /** Only sent fields change; `machineNos` is the whole new list (left-out machines are detached). */
  async update(p: Principal, id: string, body: PatchVenueBody): Promise<Venue> {
    if (!PATCH_FIELDS.some((f) => body[f] !== undefined))
      throw badRequest(undefined, [{ path: '', message: `send at least one field to change: ${PATCH_FIELDS.join(', ')}` }]);
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const v = requireOwned(p, await tx.venues.lock(id), () => notFound('Venue'));
      const attached = (await tx.venues.attached([id])).map((m) => m.machine_no);
      const wanted = body.machineNos === undefined ? attached : [...new Set(body.machineNos)].sort();
      const kiosk = body.kioskMachineNo !== undefined ? body.kioskMachineNo : v.kiosk_machine_no;
      if (body.kioskMachineNo !== undefined || body.machineNos !== undefined) refuseKiosk(kiosk, wanted);
      const set: VenueUpdate = {};
      if (body.name !== undefined) set.name = body.name;
      if (body.address !== undefined) set.address = body.address;
      if (body.revShareBps !== undefined) set.rev_share_bps = body.revShareBps;
      if (body.deploymentDate !== undefined) set.deployment_date = body.deploymentDate;
      if (body.kioskMachineNo !== undefined) set.kiosk_machine_no = body.kioskMachineNo;
      const venue: VenueRow = { ...v, ...set } as VenueRow;
      if (body.machineNos !== undefined) {
        const removed = attached.filter((no) => !wanted.includes(no));
        const machines = await lockOwned(tx, v.operator_id, [...new Set([...wanted, ...removed])].sort());
        for (const m of machines) {
          if (removed.includes(m.machine_no)) await this.detach(tx, p, m, now);
          else await this.attach(tx, p, venue, m, now);
        }
      }
      await tx.venues.update(id, set);
      await this.deps.audit.record(tx, p, 'venues.update', `venue:${id}`);
    });
    return this.get(p, id);
  }

  async list(p: Principal, q: VenueListQuery): Promise<Page<Venue>> {
    const { total, rows } = await this.deps.store.repos.venues.page(ownerFilter(p), q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: await this.views(p, rows) };
  }

  async get(p: Principal, id: string): Promise<Venue> {
    const row = requireOwned(p, await this.deps.store.repos.venues.byId(id), () => notFound('Venue'));
    return (await this.views(p, [row]))[0]!;
  }

  /** Naming a machine: a move (or, for a machine that already sold and is at no venue, the §4.8 exception). */
  private async attach(tx: Repos, p: Principal, venue: VenueRow, m: MachineRow, now: number): Promise<void> {
    if (m.venue_id === venue.id) return;
    const accrual = accrualOnNaming({
      now,
      currentVenueId: m.venue_id,
      lastLeftAt: m.venue_id === null ? await tx.venues.lastMoveAt(m.id) : null,
      firstSaleAt: await tx.venues.firstSaleAt(m.id),
      deploymentStart: venue.deployment_date === null ? null : startOfDate(venue.deployment_date, m.time_zone),
    });
    await tx.machines.moveToVenue({ id: newId('vmv', now), machine_id: m.id, venue_id: venue.id, moved_at: now }, accrual);
    await this.deps.audit.record(tx, p, 'venues.attach', `machine:${m.machine_no}`);
  }

  private async detach(tx: Repos, p: Principal, m: MachineRow, now: number): Promise<void> {
    await tx.machines.moveToVenue({ id: newId('vmv', now), machine_id: m.id, venue_id: null, moved_at: now }, null);
    await this.deps.audit.record(tx, p, 'venues.detach', `machine:${m.machine_no}`);
  }

  private async views(p: Principal, rows: readonly VenueWithOwner[]): Promise<Venue[]> {
    const ids = rows.map((r) => r.id);
    const repo = this.deps.store.repos.venues;
    const [attached, history] = await Promise.all([repo.attached(ids), repo.history(ids)]);
    const stints = stintsOf(history);
    return rows.map((v) => {
      const here = stints.filter((s) => s.venueId === v.id);
      const machines = attached
        .filter((m) => m.venue_id === v.id)
        .map((m) => {
          const open = here.find((s) => s.machineNo === m.machine_no && s.until === null);
          // A machine pointed here without a move row (data older than rule 6) accrues from the venue's creation.
          const from = open?.commissionFrom ?? v.created_at;
          return {
            machineNo: m.machine_no,
            attachedAt: formatTimestamp(open?.attachedAt ?? v.created_at)!,
            commissionFrom: formatTimestamp(from)!,
            commissionRule: open?.commissionRule ?? 'move',
          };
        });
      return {
        id: v.id,
        name: v.name,
        address: v.address,
        machineNos: machines.map((m) => m.machineNo),
        kioskMachineNo: v.kiosk_machine_no,
        revShareBps: v.rev_share_bps,
        deploymentDate: v.deployment_date,
        createdAt: formatTimestamp(v.created_at)!,
        machines,
        stints: here.map((s) => ({
          machineNo: s.machineNo,
          attachedAt: formatTimestamp(s.attachedAt)!,
          commissionFrom: formatTimestamp(s.commissionFrom)!,
          commissionRule: s.commissionRule,
          until: formatTimestamp(s.until),
        })),
        ...(p.admin ? { operatorEmail: v.operator_email } : {}),
      };
    });
  }
}

function refuseKiosk(kiosk: string | null, machineNos: readonly string[]): void {
  if (kiosk !== null && !machineNos.includes(kiosk)) {
    throw badRequest(undefined, [{ path: 'kioskMachineNo', message: `kioskMachineNo ${kiosk} is not one of machineNos` }]);
  }
}

/** Locks the named machines (in code order); 400 naming every one that is not the operator's (unknown ones included). */
async function lockOwned(tx: Repos, operatorId: string, machineNos: readonly string[]): Promise<MachineRow[]> {
  const out: MachineRow[] = [];
  const others: string[] = [];
  for (const no of machineNos) {
    const m = await tx.machines.lockByNo(no);
    if (!m || m.operator_id !== operatorId) others.push(no);
    else out.push(m);
  }
  if (others.length > 0)
    throw badRequest(undefined, [{ path: 'machineNos', message: `not machines of this venue's operator: ${others.slice(0, 20).join(', ')}` }]);
  return out;
}
