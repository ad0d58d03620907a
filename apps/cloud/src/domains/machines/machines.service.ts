import { isClaimableSerial } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import type { MachineRow, MachineUpdate } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, conflict, machineNotFound } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { Geocoder, GeocodeOutcome } from './geocoder.ts';
import { fenceFilter, requireMachineAccess } from './ownership.ts';
import type { MachineRecord, MachinesRepo } from './machines.repo.ts';
import type { ListInput, MachineView, RegisterInput, RetryGeocodeInput, TaxRestatementView, UpdatedMachineView, UpdateInput } from './machines.schemas.ts';
import { formatDegrees, geocodeColumns, geocodeView, planPlacement, refuse, type PlacementPlan, type PlacementState } from './placement.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { screenOf } from './screen.ts';
import type { ScreenInput } from './screen.schemas.ts';

/** A newly registered machine has ten empty aisles (spec 1 §2.2) with these defaults. */
export const NEW_MACHINE_AISLES = 10;
export const DEFAULT_MAX_STOCK = 10;
export const DEFAULT_ALERT_THRESHOLD = 2;
/** The payment provider recorded on terminal bindings this service creates. */
export const TERMINAL_PROVIDER = { sandbox: 'sandbox-pay', production: 'cashless' } as const;

const UPDATE_FIELDS = ['name', 'notes', 'location', 'lat', 'lng', 'address', 'placeId', 'timeZone', 'salesTaxRate', 'venueId'] as const;
const UNPLACED: PlacementState = { location: '', lat: null, lng: null, address: null, place_id: null };

/** Machine fields an access-group session may not change: they move money (tax restatement, host commission). */
const OPERATOR_ONLY_MACHINE_FIELDS = ['salesTaxRate', 'venueId'] as const;

/** Restates a machine's un-remitted orders at its new sales-tax rate, inside the machine's update transaction. */
export interface MachineTaxRestater {
  restateMachine(tx: Repos, p: Principal, machine: MachineRow, newRate: number | null, now: number): Promise<TaxRestatementView>;
}

export interface MachinesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Address geocoder for placement; null: every geocode is `skipped`. */
  geocoder: Geocoder | null;
  config: Pick<Config, 'mode' | 'geocoder'>;
  /** Recording `salesTaxRate` restates the machine's un-remitted orders: the tax domain's operation, wired by the composition root (tax sits above machines). */
  tax: MachineTaxRestater;
}

/** A geocode to run after the placement write committed, for the placement version it was written as. */
interface GeocodeJob {
  machineId: string;
  machineNo: string;
  version: number;
  address: string;
  labelSent: boolean;
}

/** The API's machine (spec 1 §2.1). `operatorEmail` only for admin credentials. */
export function toMachineView(r: MachineRecord, admin: boolean): MachineView {
  return {
    id: r.id,
    machineNo: r.machine_no,
    name: r.name,
    status: r.status === 'online' ? 'online' : 'offline',
    lastSeen: formatTimestamp(r.last_seen),
    location: r.location,
    lat: formatDegrees(r.lat),
    lng: formatDegrees(r.lng),
    geo: { lat: r.lat, lng: r.lng, address: r.location, placeId: r.place_id, ...geocodeView(r.geocode_status, r.geocode_detail) },
    notes: r.notes,
    expireDate: formatTimestamp(r.expire_date),
    rentState: r.rent_state,
    ...(admin ? { operatorEmail: r.operator_email } : {}),
    timeZone: r.time_zone,
    address: r.address,
    placeId: r.place_id,
    salesTaxRate: r.sales_tax_rate,
    venueId: r.venue_id,
    screen: screenOf(r),
    software: { agentVersion: r.agent_version, platform: r.platform, vmcVersion: r.vmc_version, apkVersion: r.apk_version },
    paymentTerminal:
      r.terminal_id !== null && r.terminal_merchant_account !== null && r.terminal_provider !== null && r.terminal_bound_at !== null
        ? {
            terminalId: r.terminal_id,
            merchantAccount: r.terminal_merchant_account,
            provider: r.terminal_provider,
            boundAt: formatTimestamp(r.terminal_bound_at)!,
          }
        : null,
  };
}

/** Columns every placement write sets besides the plan's own: confirmations void, version bumped. */
function placementWrite(plan: PlacementPlan, current: { placement_version: number }): MachineUpdate {
  if (plan.kind === 'none') return {};
  return { ...plan.columns, address_confirmed_at: null, installation_confirmed_at: null, placement_version: current.placement_version + 1 };
}

/** Machines: register/claim, read, edit and place (spec 1 §4.3). Every write is one transaction with its audit record. */
export class MachinesService {
  constructor(private readonly deps: MachinesDeps) {}

  async list(p: Principal, q: ListInput): Promise<Page<MachineView>> {
    if (q.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'The operatorEmail filter is for admin credentials only');
    const { total, records } = await this.deps.store.repos.machines.list(
      { operatorId: ownerFilter(p), status: q.status, operatorEmail: q.operatorEmail, machineNos: fenceFilter(p) },
      q.size,
      offsetOf(q),
    );
    return { page: q.page, size: q.size, total, records: records.map((r) => toMachineView(r, p.admin)) };
  }

  async get(p: Principal, machineNo: string): Promise<MachineView> {
    // A string that cannot be a serial names no machine; it never reaches the store.
    if (!isClaimableSerial(machineNo)) throw machineNotFound();
    const r = requireMachineAccess(p, await this.deps.store.repos.machines.findView(machineNo));
    return toMachineView(r, p.admin);
  }

  /** The machine locked for a write, or 404 when it is missing or not the caller's. */
  private async owned(repo: MachinesRepo, p: Principal, machineNo: string): Promise<MachineRow> {
    if (!isClaimableSerial(machineNo)) throw machineNotFound();
    return requireMachineAccess(p, await repo.lockByNo(machineNo));
  }

  /**
   * Registers a serial for the caller (or, for admins, for `operatorEmail`'s operator). A new serial
   * becomes an offline machine with ten empty aisles and a terminal bound to the owner's merchant
   * account; an unclaimed serial is claimed with its earlier vends and its terminal re-bound.
   */
  async register(p: Principal, input: RegisterInput): Promise<MachineView> {
    if (input.operatorEmail !== undefined && !p.admin) throw new AppError('forbidden', 'operatorEmail is accepted only from admin credentials');
    const attempt = () =>
      this.deps.store.transaction(async (tx) => {
        const repo = tx.machines;
        const owner = input.operatorEmail !== undefined ? await repo.operatorByEmail(input.operatorEmail) : await repo.operatorById(p.operatorId);
        if (!owner) throw refuse('operatorEmail', 'operatorEmail does not name an operator');
        const now = this.deps.clock.now();
        const existing = await repo.lockByNo(input.machineNo);
        if (!existing || existing.operator_id === null) await this.refuseFactoryBuild(tx, input.machineNo);
        const placement = { location: input.location, lat: input.lat, lng: input.lng };
        if (!existing) {
          const plan = planPlacement(UNPLACED, placement);
          const id = newId('mch', now);
          await repo.insertMachine({
            id,
            machine_no: input.machineNo,
            operator_id: owner.id,
            name: input.name ?? input.machineNo,
            status: 'offline',
            last_seen: null,
            location: '',
            ...placementWrite(plan, { placement_version: 0 }),
            created_at: now,
            updated_at: now,
          });
          await tx.inventory.insertEmptyAisles(id, NEW_MACHINE_AISLES, DEFAULT_MAX_STOCK, DEFAULT_ALERT_THRESHOLD);
          await repo.insertTerminal({
            id: newId('trm', now),
            machine_id: id,
            operator_id: owner.id,
            merchant_account: owner.merchant_account,
            provider: TERMINAL_PROVIDER[this.deps.config.mode],
            bound_at: now,
          });
          await this.deps.audit.record(tx, p, 'machines.register', `machine:${input.machineNo}`);
          return;
        }
        if (existing.operator_id === owner.id) {
          throw conflict(`Machine ${input.machineNo} is already in ${owner.id === p.operatorId ? 'your' : "that operator's"} fleet`);
        }
        if (existing.operator_id !== null) throw conflict(`Machine ${input.machineNo} is registered to another operator`);
        const plan = planPlacement(existing, placement);
        const claimed = await repo.claim(existing.id, owner.id, {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...placementWrite(plan, existing),
          claimed_at: now,
          updated_at: now,
        });
        if (!claimed) throw conflict(`Machine ${input.machineNo} is registered to another operator`);
        await tx.orders.adoptPoolOrders(existing.id, owner.id, owner.merchant_account);
        const terminal = await repo.terminalOf(existing.id);
        if (terminal) await repo.rebindTerminal(terminal.id, owner.id, owner.merchant_account, now);
        else {
          await repo.insertTerminal({
            id: newId('trm', now),
            machine_id: existing.id,
            operator_id: owner.id,
            merchant_account: owner.merchant_account,
            provider: TERMINAL_PROVIDER[this.deps.config.mode],
            bound_at: now,
          });
        }
        await this.deps.audit.record(tx, p, 'machines.claim', `machine:${input.machineNo}`);
      });
    try {
      await attempt();
    } catch (err) {
      // Two registrations of one new serial raced; the second look sees the winner's row and answers 409.
      if (!isUniqueViolation(err)) throw err;
      await attempt();
    }
    const r = await this.deps.store.repos.machines.findView(input.machineNo);
    if (!r) throw machineNotFound();
    return toMachineView(r, p.admin);
  }

  /**
   * Spec 2 §5 rule 6: a cabinet is never registered to an operator at the factory. A serial whose
   * build record has not shipped yet is still the factory's: registering or claiming it is 409, for
   * admins too; once the record is marked shipped the cabinet may be claimed like any pool machine.
   */
  private async refuseFactoryBuild(tx: Repos, machineNo: string): Promise<void> {
    const build = await tx.deviceCredentials.buildRecord(machineNo);
    if (build && build.shipped_at === null) {
      throw conflict(
        `Machine ${machineNo} is a factory build at plant ${build.plant} that has not shipped: it can be registered to an operator only after it ships`,
      );
    }
  }

  /** PATCH/PUT: only sent fields change; placement rules 1–6 of spec 1 §4.3. */
  async update(p: Principal, machineNo: string, input: UpdateInput): Promise<UpdatedMachineView> {
    if (!UPDATE_FIELDS.some((f) => input[f] !== undefined)) {
      throw refuse('', `send at least one field to change: ${UPDATE_FIELDS.join(', ')}`);
    }
    let taxRestatement: TaxRestatementView | undefined;
    const job = await this.deps.store.transaction(async (tx) => {
      const repo = tx.machines;
      const m = await this.owned(repo, p, machineNo);
      const moneyFields = OPERATOR_ONLY_MACHINE_FIELDS.filter((f) => input[f] !== undefined);
      if (p.fence && moneyFields.length) throw new AppError('forbidden', `${moneyFields.join(' and ')}: not for an access-group session`);
      const now = this.deps.clock.now();
      const plan = planPlacement(m, input);
      const set: MachineUpdate = { updated_at: now, ...placementWrite(plan, m) };
      if (input.name !== undefined) set.name = input.name;
      if (input.notes !== undefined) set.notes = input.notes;
      if (input.timeZone !== undefined) set.time_zone = input.timeZone;
      if (input.salesTaxRate !== undefined) set.sales_tax_rate = input.salesTaxRate;
      let geocode: GeocodeJob | null = null;
      if (plan.kind === 'address') {
        if (this.deps.geocoder) geocode = { machineId: m.id, machineNo, version: m.placement_version + 1, address: plan.address, labelSent: plan.labelSent };
        else Object.assign(set, geocodeColumns({ status: 'skipped' }, plan.labelSent));
      }
      if (input.venueId !== undefined && input.venueId !== m.venue_id) {
        // Rule 6: attaching (or detaching) is a move; host commission accrues from this moment.
        if (input.venueId !== null && (m.operator_id === null || !(await repo.venueOf(input.venueId, m.operator_id)))) {
          throw refuse('venueId', `venueId ${input.venueId} does not name a venue of this machine's operator`);
        }
        await repo.moveToVenue(
          { id: newId('vmv', now), machine_id: m.id, venue_id: input.venueId, moved_at: now },
          input.venueId === null ? null : { from: now, rule: 'move' },
        );
      }
      if (input.salesTaxRate !== undefined && input.salesTaxRate !== m.sales_tax_rate)
        taxRestatement = await this.deps.tax.restateMachine(tx, p, m, input.salesTaxRate, now);
      await repo.update(m.id, set);
      await this.deps.audit.record(tx, p, 'machines.update', `machine:${machineNo}`);
      return geocode;
    });
    if (job) await this.geocodeAndApply(p, job);
    const view = await this.get(p, machineNo);
    return taxRestatement ? { ...view, taxRestatement } : view;
  }

  /**
   * Re-geocodes the stored address, or a corrected one (which is a new placement). 409 when the
   * last answer was not_found and no corrected address is sent, or when there is no address at all.
   */
  async retryGeocode(p: Principal, machineNo: string, input: RetryGeocodeInput): Promise<MachineView> {
    const job = await this.deps.store.transaction(async (tx) => {
      const repo = tx.machines;
      const m = await this.owned(repo, p, machineNo);
      const now = this.deps.clock.now();
      let set: MachineUpdate;
      let address: string;
      let labelSent: boolean;
      if (input.address !== undefined && input.address !== m.address) {
        const plan = planPlacement(m, { address: input.address });
        set = placementWrite(plan, m);
        address = input.address;
        labelSent = false;
      } else {
        if (m.address === null) throw conflict('This machine has no stored address to geocode; send an address');
        if (m.geocode_status === 'not_found') throw conflict('The last geocode found no match for the stored address; send a corrected address');
        // Not a new placement (confirmations stand), but a newer one than any geocode still in flight.
        set = { placement_version: m.placement_version + 1 };
        address = m.address;
        // The label is replaced by the formatted address only while it is still the address as typed.
        labelSent = m.location !== m.address;
      }
      set.updated_at = now;
      let geocode: GeocodeJob | null = null;
      if (this.deps.geocoder) geocode = { machineId: m.id, machineNo, version: m.placement_version + 1, address, labelSent };
      else Object.assign(set, geocodeColumns({ status: 'skipped' }, labelSent));
      await repo.update(m.id, set);
      await this.deps.audit.record(tx, p, 'machines.geocode.retry', `machine:${machineNo}`);
      return geocode;
    });
    if (job) await this.geocodeAndApply(p, job);
    return this.get(p, machineNo);
  }

  /** PUT screen: the advertising screen block (spec 1 §2.1), already checked by its schema, replaces the stored one. */
  async setScreen(p: Principal, machineNo: string, screen: ScreenInput): Promise<MachineView> {
    await this.deps.store.transaction(async (tx) => {
      const m = await this.owned(tx.machines, p, machineNo);
      await tx.machines.setScreen(m.id, JSON.stringify(screen), this.deps.clock.now());
      await this.deps.audit.record(tx, p, 'machines.screen.set', `machine:${machineNo}`);
    });
    return this.get(p, machineNo);
  }

  /** DELETE screen: the machine leaves the screen inventory (no loop shape of its own, no DOOH export). Idempotent. */
  async clearScreen(p: Principal, machineNo: string): Promise<MachineView> {
    await this.deps.store.transaction(async (tx) => {
      const m = await this.owned(tx.machines, p, machineNo);
      if (m.screen_json === null) return;
      await tx.machines.setScreen(m.id, null, this.deps.clock.now());
      await this.deps.audit.record(tx, p, 'machines.screen.clear', `machine:${machineNo}`);
    });
    return this.get(p, machineNo);
  }

  /**
   * Asks the geocoder outside any transaction, then records the outcome only if the placement is
   * still the one it was computed for (rule 5: a late answer never overwrites a newer placement).
   */
  private async geocodeAndApply(p: Principal, job: GeocodeJob): Promise<void> {
    const outcome = await this.lookUp(job.address);
    await this.deps.store.transaction(async (tx) => {
      const applied = await tx.machines.applyIfVersion(job.machineId, job.version, {
        ...geocodeColumns(outcome, job.labelSent),
        updated_at: this.deps.clock.now(),
      });
      if (applied) await this.deps.audit.record(tx, p, 'machines.geocode', `machine:${job.machineNo}`);
    });
  }

  /**
   * A done-for-you deal's fleet pin (spec 3 §3, on payment): a machine record for `ownerId` at the leased
   * coordinates, offline, with ten empty aisles and no payment terminal yet (auto-onboarding binds one).
   * The cabinet shipped for the deal claims it by this serial when it enrols and registers. Joins the
   * caller's transaction; 409 when the serial is taken.
   */
  async provisionPin(tx: Repos, pin: { ownerId: string; machineNo: string; name: string; location: string; lat: number; lng: number }): Promise<string> {
    const now = this.deps.clock.now();
    if (await tx.machines.lockByNo(pin.machineNo)) throw conflict(`Machine ${pin.machineNo} already exists`);
    const plan = planPlacement(UNPLACED, { location: pin.location, lat: pin.lat, lng: pin.lng });
    const id = newId('mch', now);
    await tx.machines.insertMachine({
      id,
      machine_no: pin.machineNo,
      operator_id: pin.ownerId,
      name: pin.name,
      status: 'offline',
      last_seen: null,
      location: '',
      ...placementWrite(plan, { placement_version: 0 }),
      created_at: now,
      updated_at: now,
    });
    await tx.inventory.insertEmptyAisles(id, NEW_MACHINE_AISLES, DEFAULT_MAX_STOCK, DEFAULT_ALERT_THRESHOLD);
    return id;
  }

  /**
   * Binds a payment terminal for a machine under its owner's merchant account (auto-onboarding). Already
   * bound to the owner: `bound`. A reader already bound to another merchant account is not taken over:
   * `failed` with the reason (the operator sorts it out; a cashless_fail checkpoint says so).
   */
  async bindTerminal(tx: Repos, machineId: string): Promise<{ ok: true; terminalId: string } | { ok: false; reason: string }> {
    const m = await tx.machines.machineById(machineId);
    if (!m || m.operator_id === null) return { ok: false, reason: 'machine has no owner' };
    const owner = await tx.machines.operatorById(m.operator_id);
    if (!owner) return { ok: false, reason: 'owner not found' };
    const existing = await tx.machines.terminalOf(machineId);
    if (existing) {
      if (existing.merchant_account === owner.merchant_account) return { ok: true, terminalId: existing.id };
      return { ok: false, reason: `terminal ${existing.id} is bound to another merchant account (${existing.merchant_account})` };
    }
    const now = this.deps.clock.now();
    const terminalId = newId('trm', now);
    await tx.machines.insertTerminal({
      id: terminalId,
      machine_id: machineId,
      operator_id: owner.id,
      merchant_account: owner.merchant_account,
      provider: TERMINAL_PROVIDER[this.deps.config.mode],
      bound_at: now,
    });
    return { ok: true, terminalId };
  }

  private async lookUp(address: string): Promise<GeocodeOutcome> {
    const geocoder = this.deps.geocoder;
    if (!geocoder) return { status: 'skipped' };
    // A safety net over the geocoder's own timeout, for one that ignores its signal.
    const deadlineMs = (this.deps.config.geocoder?.timeoutMs ?? 5000) + 1000;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<GeocodeOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ status: 'provider_error', detail: `geocoder did not answer within ${deadlineMs} ms` });
      }, deadlineMs);
    });
    try {
      return await Promise.race([
        geocoder.geocode(address, controller.signal).catch((): GeocodeOutcome => ({ status: 'provider_error', detail: 'geocoder failed' })),
        deadline,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
