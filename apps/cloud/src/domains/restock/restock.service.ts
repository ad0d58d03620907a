import { isClaimableSerial, type Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { RestockRunLineRow, RestockRunRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter } from '../../http/authenticate.ts';
import { AppError, badRequest, conflict, machineNotFound, notFound } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { CrewOfMember } from '../crews/crews.repo.ts';
import { isCrewRole, type CrewRole } from '../crews/crews.rules.ts';
import { emailOf, type CrewsService } from '../crews/crews.service.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import { fenceFilter } from '../machines/ownership.ts';
import {
  fleetPickList,
  isRunStatus,
  mayCancel,
  nextStatus,
  pickList,
  refusalOf,
  sourcesOf,
  totalsOf,
  type PlanAisle,
  type RunAction,
  type RunStatus,
} from './restock.rules.ts';
import type { CancelBody, CompleteBody, FleetPickList, PickListQuery, PlanBody, RestockRun, RunListQuery } from './restock.schemas.ts';

export interface RestockDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** The one way a default crew is made (planning a run of one's own machine before having a crew). */
  crews: Pick<CrewsService, 'ensureDefault'>;
}

/** What `planRun` writes: a run of `crewId` for `machine`, planned by `createdBy` at `now`. */
export interface RunPlan {
  id: string;
  crewId: string;
  machine: Pick<MachineRef, 'id' | 'machine_no' | 'operator_id'>;
  createdBy: string;
  notes: string | null;
  now: number;
}

const runNotFound = () => notFound('Restock run');
const openRunConflict = (machineNo: string, open: RestockRunRow) =>
  conflict(`Machine ${machineNo} already has an open restock run: ${open.id} (${open.status})`);

/**
 * Restock runs (spec 1 §4.9; docs/decisions/restock.md): one driver visit to one machine of a crew's fleet,
 * planned from par levels, started, completed (the stock goes into the aisles, once) or cancelled. A run
 * is visible to the members of its crew only (others get 404).
 */
export class RestockService {
  constructor(private readonly deps: RestockDeps) {}

  /**
   * Plans a run: the crew (given, or the caller's oldest crew over the machine, or their default crew made
   * now when they own the machine and have none), one open run per machine, the pick list from par levels.
   */
  async plan(p: Principal, body: PlanBody): Promise<RestockRun> {
    const email = emailOf(p);
    const now = this.deps.clock.now();
    const id = newId('rst', now);
    let machine: MachineRef | undefined;
    try {
      await this.deps.store.transaction(async (tx) => {
        const crewGiven = body.crewId === undefined ? undefined : await tx.crews.forMember(body.crewId, email);
        if (body.crewId !== undefined && !crewGiven) throw notFound('Crew');
        machine = isClaimableSerial(body.machineNo) ? await tx.machines.machineByNo(body.machineNo) : undefined;
        if (!machine) throw machineNotFound();
        const crewId = await this.crewFor(tx, p, machine, crewGiven);
        if (await outsideGroup(tx, email, machine)) throw machineNotFound();
        const open = await tx.restock.openRunOf(machine.id);
        if (open) throw openRunConflict(machine.machine_no, open);
        await this.planRun(tx, { id, crewId, machine, createdBy: email, notes: body.notes || null, now });
        await this.deps.audit.record(tx, p, 'restock.plan', `restock:${id}`);
      });
    } catch (e) {
      // a concurrent plan for the same machine won the open-run index
      const open = machine && isUniqueViolation(e) ? await this.deps.store.repos.restock.openRunOf(machine.id) : undefined;
      if (machine && open) throw openRunConflict(machine.machine_no, open);
      throw e;
    }
    return this.view((await this.deps.store.repos.restock.run(id))!, this.deps.store.repos);
  }

  /**
   * Writes a planned run in the caller's transaction: one line per aisle of the machine as it is now
   * (par = maxStock, pick = max(0, par − currentStock), faulted aisles pick nothing). The sandbox seed
   * plans through here too.
   */
  async planRun(tx: Repos, plan: RunPlan): Promise<void> {
    const aisles = await tx.inventory.aislesOf([plan.machine.id]);
    const lines = pickList(
      aisles.map((a) => ({
        aisleNo: a.aisle_no,
        currentStock: a.current_stock,
        maxStock: a.max_stock,
        faulted: a.faulted === 1,
        sku: a.sku,
        productName: a.product_name,
      })),
    );
    await tx.restock.insertRun(
      {
        id: plan.id,
        crew_id: plan.crewId,
        machine_id: plan.machine.id,
        machine_no: plan.machine.machine_no,
        operator_id: plan.machine.operator_id!,
        status: 'planned',
        notes: plan.notes,
        created_by: plan.createdBy,
        created_at: plan.now,
        started_by: null,
        started_at: null,
        completed_by: null,
        completed_at: null,
        cancelled_by: null,
        cancelled_at: null,
        cancel_reason: null,
      },
      lines.map((l) => ({
        run_id: plan.id,
        aisle_no: l.aisleNo,
        sku: l.sku,
        product_name: l.productName,
        stock_at_plan: l.stockAtPlan,
        par: l.par,
        pick: l.pick,
        faulted: l.faulted ? 1 : 0,
        filled: null,
        stock_after: null,
      })),
    );
  }

  /**
   * What to load on the truck: the par-level pick of every aisle of the machines the caller sees (as
   * `GET /api/v1/inventory`: operators their own, admins all, an access-group session its group's), summed
   * per product (`fleetPickList`). `machineNo` narrows it to one of them; any other is 404 "Machine not found".
   */
  async pickList(p: Principal, q: PickListQuery): Promise<FleetPickList> {
    const repos = this.deps.store.repos;
    let machines = await repos.inventory.machines(ownerFilter(p), fenceFilter(p));
    if (q.machineNo !== undefined) {
      machines = machines.filter((m) => m.machine_no === q.machineNo);
      if (machines.length === 0) throw machineNotFound();
    }
    const aisles = new Map(machines.map((m) => [m.id, [] as PlanAisle[]]));
    for (const a of await repos.inventory.aislesOf(machines.map((m) => m.id)))
      aisles.get(a.machine_id)?.push({
        aisleNo: a.aisle_no,
        currentStock: a.current_stock,
        maxStock: a.max_stock,
        faulted: a.faulted === 1,
        sku: a.sku,
        productName: a.product_name,
      });
    return fleetPickList(machines.map((m) => ({ machineNo: m.machine_no, name: m.name, aisles: aisles.get(m.id) ?? [] })));
  }

  /** The runs of the caller's crews, newest first (filters: status, machine, crew). */
  async list(p: Principal, q: RunListQuery): Promise<Page<RestockRun>> {
    const repos = this.deps.store.repos;
    const crewIds = (await repos.crews.ofMember(emailOf(p))).map((c) => c.id).filter((c) => q.crewId === undefined || c === q.crewId);
    const { total, rows } = await repos.restock.list({ crewIds, status: q.status, machineNo: q.machineNo }, q.size, offsetOf(q));
    const lines = await repos.restock.linesOf(rows.map((r) => r.id));
    return { page: q.page, size: q.size, total, records: rows.map((r) => runView(r, lines)) };
  }

  async get(p: Principal, runId: string): Promise<RestockRun> {
    const repos = this.deps.store.repos;
    const { run } = await this.access(repos, p, runId);
    return this.view(run, repos);
  }

  /** planned → in_progress, by any member of the run's crew. */
  async start(p: Principal, runId: string): Promise<RestockRun> {
    return this.move(p, runId, 'start', async (tx, run, email, now) => {
      await this.shift(tx, run, 'start', { started_by: email, started_at: now });
    });
  }

  /**
   * planned or in_progress → done, by any member, applying the stock in the same transaction exactly once:
   * the first write is the conditional status UPDATE (a concurrent completer matches nothing: 409), then
   * each aisle takes what was filled (clamped at maxStock) and its line records filled and the stock after.
   */
  async complete(p: Principal, runId: string, body: CompleteBody): Promise<RestockRun> {
    return this.move(p, runId, 'complete', async (tx, run, email, now) => {
      const lines = await tx.restock.linesOf([run.id]);
      const have = new Set(lines.map((l) => l.aisle_no));
      const missing = body.aisles.map((a) => a.aisleNo).filter((n) => !have.has(n));
      if (missing.length) throw badRequest(undefined, [{ path: 'body.aisles', message: `Machine ${run.machine_no} has no aisle ${missing.join(', ')}` }]);
      await this.shift(tx, run, 'complete', { completed_by: email, completed_at: now, startIfNot: { by: email, at: now } });
      const filled = new Map(body.aisles.map((a) => [a.aisleNo, a.filled]));
      for (const l of lines) {
        const qty = filled.get(l.aisle_no) ?? 0;
        const after = await tx.inventory.addStock(run.machine_id, l.aisle_no, qty);
        if (after === undefined) throw conflict(`Machine ${run.machine_no} no longer has aisle ${l.aisle_no}`);
        await tx.restock.recordFill(run.id, l.aisle_no, qty, after);
      }
    });
  }

  /** planned or in_progress → cancelled, by the run's creator or the crew's owners and admins. */
  async cancel(p: Principal, runId: string, body: CancelBody): Promise<RestockRun> {
    return this.move(p, runId, 'cancel', async (tx, run, email, now, role) => {
      if (!mayCancel(role, run.created_by === email)) throw new AppError('forbidden', "Only the run's creator or a crew owner or admin may cancel it");
      await this.shift(tx, run, 'cancel', { cancelled_by: email, cancelled_at: now, cancel_reason: body.reason || null });
    });
  }

  /** One move in one transaction: the caller must be in the run's crew (else 404); then `apply`, audited. */
  private async move(
    p: Principal,
    runId: string,
    action: RunAction,
    apply: (tx: Repos, run: RestockRunRow, email: string, now: number, role: CrewRole) => Promise<void>,
  ): Promise<RestockRun> {
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const { run, role, email } = await this.access(tx, p, runId);
      if (action !== 'cancel' && (await outsideGroup(tx, email, run))) {
        throw new AppError('forbidden', `Machine ${run.machine_no} is outside your access group on this fleet`);
      }
      await apply(tx, run, email, now, role);
      await this.deps.audit.record(tx, p, `restock.${action}`, `restock:${run.id}`);
    });
    return this.get(p, runId);
  }

  /**
   * The conditional status UPDATE of `action`: refused (409 naming the status) when the run as read cannot
   * make the move, or when it no longer can at the UPDATE (a concurrent move won: re-read for the message).
   */
  private async shift(tx: Repos, run: RestockRunRow, action: RunAction, set: Parameters<Repos['restock']['move']>[3]): Promise<void> {
    const from = statusOf(run);
    const to = nextStatus(from, action);
    if (to === null) throw conflict(refusalOf(action, from));
    if (!(await tx.restock.move(run.id, sourcesOf(action), to, set))) {
      const now = await tx.restock.run(run.id);
      throw conflict(refusalOf(action, now ? statusOf(now) : from));
    }
  }

  /** The run and the caller's role in its crew; 404 "Restock run not found" when either is missing. */
  private async access(repos: Repos, p: Principal, runId: string): Promise<{ run: RestockRunRow; role: CrewRole; email: string }> {
    const email = emailOf(p);
    const run = await repos.restock.run(runId);
    const member = run ? await repos.crews.member(run.crew_id, email) : undefined;
    if (!run || !member) throw runNotFound();
    return { run, role: isCrewRole(member.role) ? member.role : 'member', email };
  }

  /**
   * The crew a new run belongs to. Given: the caller must be in it (else 404 "Crew not found") and its
   * fleet must hold the machine (else 404 "Machine not found"). Absent: the caller's oldest crew whose
   * fleet holds the machine; failing that, when the caller owns the machine, their default crew (made
   * now if they have none). Anything else is the ownership rule's 404 "Machine not found".
   */
  private async crewFor(tx: Repos, p: Principal, machine: MachineRef, given: CrewOfMember | undefined): Promise<string> {
    const email = emailOf(p);
    const over = await tx.crews.ofMemberOverMachine(email, machine.id);
    if (given) {
      if (!over.some((c) => c.id === given.id)) throw machineNotFound();
      return given.id;
    }
    if (over[0]) return over[0].id;
    if (machine.operator_id !== null && machine.operator_id === p.operatorId) {
      const own = await this.deps.crews.ensureDefault(tx, p);
      if (await tx.crews.member(own.id, email)) return own.id;
    }
    throw machineNotFound();
  }

  private async view(run: RestockRunRow, repos: Repos): Promise<RestockRun> {
    return runView(run, await repos.restock.linesOf([run.id]));
  }
}

/**
 * Access groups narrow crews (docs/decisions/access.md): a person the machine's operator gave a group
 * works only the group's machines; a person without an assignment there, or the operator itself, is not narrowed.
 */
async function outsideGroup(tx: Repos, email: string, machine: { operator_id: string | null; machine_no: string }): Promise<boolean> {
  if (machine.operator_id === null) return false;
  const machines = await tx.access.assignedMachines(machine.operator_id, email);
  return machines !== null && !machines.includes(machine.machine_no);
}

function statusOf(run: Pick<RestockRunRow, 'status'>): RunStatus {
  return isRunStatus(run.status) ? run.status : 'cancelled';
}

const ts = (ms: number | null) => formatTimestamp(ms === null ? null : Number(ms));

function runView(r: RestockRunRow, allLines: RestockRunLineRow[]): RestockRun {
  const lines = allLines
    .filter((l) => l.run_id === r.id)
    .map((l) => ({
      aisleNo: l.aisle_no,
      sku: l.sku,
      productName: l.product_name,
      stockAtPlan: l.stock_at_plan,
      par: l.par,
      pick: l.pick,
      faulted: l.faulted === 1,
      filled: l.filled,
      stockAfter: l.stock_after,
    }));
  return {
    id: r.id,
    crewId: r.crew_id,
    machineNo: r.machine_no,
    status: statusOf(r),
    notes: r.notes,
    createdBy: r.created_by,
    createdAt: ts(r.created_at)!,
    startedBy: r.started_by,
    startedAt: ts(r.started_at),
    completedBy: r.completed_by,
    completedAt: ts(r.completed_at),
    cancelledBy: r.cancelled_by,
    cancelledAt: ts(r.cancelled_at),
    cancelReason: r.cancel_reason,
    lines,
    totals: totalsOf(lines),
  };
}
