import type { Clock } from '@vend/protocol';
import type { AuditActor, AuditLog } from '../../http/audit.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore, Repos } from '../../repos.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { centsToDecimal } from '../../http/money.ts';
import { newId } from '../../crypto/ids.ts';
import { visibleMachine } from '../machines/ownership.ts';
import type { MachineRef } from '../machines/machines.repo.ts';
import type { SalesService, SoldOrder } from '../orders/sales.service.ts';
import type { CommandRecord, CommandStatus } from './commands.repo.ts';
import type { CommandView } from './commands.schemas.ts';
import type { PendingNotifier } from './pending-notifier.ts';
import type { EventSink } from '../webhooks/webhook-events.ts';

/** The agent polls this many pending commands at most per call (oldest first); the rest follow on later polls. */
export const PENDING_LIMIT = 100;

/** `reason` starting with `reward` (any letter case) makes the resulting order free (spec 1 §2.3, §2.4). */
export function isReward(reason: string): boolean {
  return reason.trimStart().slice(0, 6).toLowerCase() === 'reward';
}

/** The order a successful ack writes is numbered from its command: `RD` + the command id's body. One command, one order. */
export function orderNumberFor(commandId: string): string {
  return `RD${commandId.slice(commandId.indexOf('_') + 1).toUpperCase()}`;
}

/** Command ids are `cmd_` + lower-case base 36 and hex; anything else names no command (and never reaches the store). */
const COMMAND_ID = /^cmd_[0-9a-z]{1,64}$/;

export function toView(c: CommandRecord): CommandView {
  return {
    commandId: c.id,
    machineNo: c.machine_no,
    channel: 'api_drop',
    aisleNo: c.aisle_no,
    reason: c.reason,
    externalRef: c.external_ref,
    status: c.status as CommandStatus,
    outcome: c.outcome,
    detail: c.detail,
    orderNumber: c.order_number,
    createdAt: formatTimestamp(c.created_at)!,
    ackedAt: formatTimestamp(c.acked_at),
    expiredAt: formatTimestamp(c.expired_at),
  };
}

export interface DispenseRequest {
  aisleNo: number;
  reason: string;
  externalRef: string | null;
}

/** A new command's row: pending, no outcome yet. `requestedBy`: the credential that asked (null: a paid checkout's drop). */
function pendingRow(id: string, machineId: string, req: DispenseRequest, requestedBy: string | null, now: number) {
  return {
    id,
    machine_id: machineId,
    aisle_no: req.aisleNo,
    reason: req.reason,
    external_ref: req.externalRef,
    status: 'pending',
    outcome: null,
    detail: null,
    order_number: null,
    requested_by: requestedBy,
    created_at: now,
    acked_at: null,
    expired_at: null,
    updated_at: now,
  };
}

export interface AckRequest {
  success: boolean;
  outcome: string;
  detail: string;
}

export interface CommandsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Records the sale a successful drop makes. */
  sales: SalesService;
  /** Wakes this process's long-polling pending calls of a machine when a command is enqueued for it. */
  pending?: Pick<PendingNotifier, 'notify'>;
  /** The outbox: acknowledged, failed and expired commands reach the operator's webhooks. */
  events: EventSink;
}

/**
 * Remote dispense (spec 1 §2.4, §4.6): enqueue, poll, read and acknowledge cloud-driven drops, and
 * the dispense-decision rule for commands whose outcome never arrives.
 */
/** Writes of the caller's made in the ack's transaction, given the command as it stands after the ack. */
/** What a command's effects need of its machine. */
export type CommandMachine = Pick<MachineRef, 'id' | 'machine_no' | 'operator_id'>;

export type AckHook = (tx: Repos, command: CommandRecord) => Promise<void>;

export class CommandsService {
  constructor(private readonly d: CommandsDeps) {}

  private get repos() {
    return this.d.store.repos;
  }

  /** The machine the caller may act on; another operator's (or a missing) machine is 404 'Machine not found'. */
  async machineFor(p: Principal, machineNo: string): Promise<MachineRef> {
    return visibleMachine(this.repos.machines, p, machineNo);
  }

  /**
   * Enqueues a drop. A repeated `externalRef` on the same machine answers the existing command
   * (`duplicate: true`) and creates nothing, even when the requests race (a unique index decides);
   * reusing a reference for a different aisle or reason is 409.
   */
  async enqueue(p: Principal, machineNo: string, req: DispenseRequest): Promise<CommandView & { duplicate: boolean }> {
    const machine = await this.machineFor(p, machineNo);
    const repo = this.repos.commands;
    if (req.externalRef !== null) {
      const existing = await repo.commandByRef(machine.id, req.externalRef);
      if (existing) return this.duplicateOf(existing, req);
    }
    const aisle = await this.repos.inventory.aisle(machine.id, req.aisleNo);
    if (!aisle) throw badRequest(undefined, [{ path: 'body.aisleNo', message: `Aisle ${req.aisleNo} does not exist on machine ${machine.machine_no}` }]);
    if (aisle.faulted) throw conflict(`Aisle ${req.aisleNo} is faulted`);
    if (aisle.current_stock <= 0) throw conflict(`Aisle ${req.aisleNo} is empty`);

    const now = this.d.clock.now();
    const id = newId('cmd', now);
    const inserted = await this.d.store.transaction(async (tx) => {
      const ok = await tx.commands.insertCommand(pendingRow(id, machine.id, req, p.credentialId, now));
      if (ok) await this.d.audit.record(tx, p, 'command.enqueue', `command:${id}`);
      return ok;
    });
    if (!inserted) {
      // A concurrent request with the same reference committed first: answer its command.
      const existing = await repo.commandByRef(machine.id, req.externalRef!);
      if (!existing) throw conflict('The command could not be recorded; retry the request');
      return this.duplicateOf(existing, req);
    }
    // committed: wake the long-polling pending calls of the machine, here and (broadcast) on every other replica
    this.d.pending?.notify(machine.id);
    const created = await repo.commandById(machine.id, id);
    return { ...toView(created!), duplicate: false };
  }

  /**
   * A drop someone already paid for (a kiosk checkout's, issue 32), enqueued inside the payment's transaction: a
   * pending command for the aisle, at most one per `externalRef` on the machine (a repeat answers the first's id).
   * No stock or fault rule refuses it: the money is taken, so the board's outcome decides (a failed drop's money
   * is owed back). The caller wakes the machine's long poll once its transaction committed (`wake`).
   */
  async enqueuePaid(tx: Repos, machine: CommandMachine, req: DispenseRequest & { externalRef: string }, now: number): Promise<string> {
    const id = newId('cmd', now);
    const inserted = await tx.commands.insertCommand(pendingRow(id, machine.id, req, null, now));
    if (!inserted) return (await tx.commands.commandByRef(machine.id, req.externalRef))!.id;
    await this.d.audit.record(tx, null, 'command.enqueue', `command:${id}`);
    return id;
  }

  /** Wakes the long-polling pending calls of a machine (here, and on every other replica): after a commit that enqueued for it. */
  wake(machineId: string): void {
    this.d.pending?.notify(machineId);
  }

  /** The ack's writes, in the caller's transaction: whether this call changed the command (false: a repeat), and the command as it stands after it. */
  private async applyAck(
    tx: Repos,
    actor: AuditActor,
    machine: CommandMachine,
    commandId: string,
    req: AckRequest,
    now: number,
  ): Promise<{ changed: boolean; command: CommandRecord }> {
    const cmd = await tx.commands.commandById(machine.id, commandId);
    if (!cmd) throw notFound('Command');
    if (cmd.status === 'acknowledged' || cmd.status === 'failed') return { changed: false, command: cmd };

    // The status change comes first: it takes the command's row lock, so of two racing acks only
    // one passes this line and the other answers as a repeat, before either touches stock or orders.
    const acked = { status: req.success ? 'acknowledged' : 'failed', outcome: req.outcome, detail: req.detail, acked_at: now } as const;
    const won = await tx.commands.recordAck(cmd.id, acked);
    // lost to a concurrent ack: the command as the winner left it
    if (!won) return { changed: false, command: (await tx.commands.commandById(machine.id, commandId))! };
    let orderNumber: string | null = null;

    if (req.success) {
      const linked = await tx.orders.ordersOfCommand(cmd.id);
      let order: SoldOrder;
      if (linked.length > 0) {
        // An order paid before the drop (a cabinet sale driven by this command): it is now shipped.
        order = { kind: 'command', commandId: cmd.id };
        orderNumber = linked[0]!.order_number;
      } else {
        const aisle = await tx.inventory.aisle(machine.id, cmd.aisle_no);
        const paid = isReward(cmd.reason) ? 0 : (aisle?.price_cents ?? 0);
        orderNumber = orderNumberFor(cmd.id);
        order = {
          kind: 'new',
          row: {
            order_number: orderNumber,
            machine_id: machine.id,
            operator_id: machine.operator_id,
            aisle_no: cmd.aisle_no,
            quantity: 1,
            paid_cents: paid,
            charged_cents: paid,
            channel: 'api_drop',
            pay_method: 'remote',
            terminal_id: null,
            card_brand: null,
            card_last4: null,
            settlement_account: null,
            command_id: cmd.id,
            dispense_id: null,
            created_at: now,
            updated_at: now,
          },
        };
      }
      // one unit leaves the aisle, clamped at 0 (a missing aisle takes nothing)
      await this.d.sales.recordSale(tx, { machineId: machine.id, aisleNo: cmd.aisle_no, quantity: 1, takesStock: true, order, now });
      await tx.commands.setOrderNumber(cmd.id, orderNumber);
    } else {
      // The drop failed: money paid for it beforehand goes back (refunded, or owed back through its processor).
      await this.d.sales.settleFailedDrop(tx, cmd.id, now);
    }
    await this.d.audit.record(tx, actor, req.success ? 'command.ack' : 'command.fail', `command:${cmd.id}`);
    await this.d.events.emit(tx, {
      operatorId: machine.operator_id,
      type: req.success ? 'command.acknowledged' : 'dispense.failed',
      machineNo: machine.machine_no,
      data: { commandId: cmd.id, aisleNo: cmd.aisle_no, outcome: req.outcome, detail: req.detail, channel: 'api_drop' },
    });
    return { changed: true, command: { ...cmd, ...acked, order_number: orderNumber ?? cmd.order_number } };
  }

  private duplicateOf(existing: CommandRecord, req: DispenseRequest): CommandView & { duplicate: boolean } {
    if (existing.aisle_no !== req.aisleNo || existing.reason !== req.reason) {
      throw conflict(
        `externalRef '${existing.external_ref}' already names command ${existing.id} (aisle ${existing.aisle_no}, reason '${existing.reason}'); use a new reference for a different drop`,
      );
    }
    return { ...toView(existing), duplicate: true };
  }

  /** Pending commands of a machine, oldest first: the agent's poll (and, later, the cabinet gateway's `/cabinet/pending`). */
  async pendingFor(machineId: string): Promise<CommandView[]> {
    return (await this.repos.commands.pending(machineId, PENDING_LIMIT)).map(toView);
  }

  async get(p: Principal, machineNo: string, commandId: string): Promise<CommandView> {
    return this.commandOf(await this.machineFor(p, machineNo), commandId);
  }

  /** A command of a machine already resolved: the operator's after the ownership check, a cabinet's own (its credential resolved the machine). */
  async commandOf(machine: CommandMachine, commandId: string): Promise<CommandView> {
    if (!COMMAND_ID.test(commandId)) throw notFound('Command');
    const c = await this.repos.commands.commandById(machine.id, commandId);
    if (!c) throw notFound('Command');
    return toView(c);
  }

  async list(p: Principal, machineNo: string, f: { status?: CommandStatus | undefined; externalRef?: string | undefined }, limit: number, offset: number) {
    const machine = await this.machineFor(p, machineNo);
    const { total, records } = await this.repos.commands.list(machine.id, f, limit, offset);
    return { total, records: records.map(toView) };
  }

  /**
   * The ack without its answer's view (what `ack` does, for a caller that answers with its own: the
   * cabinet's report): whether it changed the command, and the command as the transaction left it.
   * `within` writes the caller's rows in the same transaction (and commit) as the ack.
   */
  async acknowledge(p: Principal, machineNo: string, commandId: string, req: AckRequest, within?: AckHook) {
    return this.acknowledgeOn(p, await this.machineFor(p, machineNo), commandId, req, within);
  }

  /** The acknowledgement on a machine already resolved (see `commandOf`); `actor` is who the audit record names. */
  async acknowledgeOn(actor: AuditActor, machine: CommandMachine, commandId: string, req: AckRequest, within?: AckHook) {
    if (!COMMAND_ID.test(commandId)) throw notFound('Command');
    const now = this.d.clock.now();
    return this.d.store.transaction(async (tx) => {
      const result = await this.applyAck(tx, actor, machine, commandId, req, now);
      if (within) await within(tx, result.command);
      return result;
    });
  }

  /**
   * Records the agent's outcome in one transaction with its audit record. Success: the aisle loses
   * one unit (clamped at 0: the board's report is the truth) and a `shipped` walk-up-shaped order is
   * written with `channel: 'api_drop'` (free when the reason starts with `reward`). Failure: the
   * outcome is recorded and no stock changes. A second ack changes nothing and answers the command as
   * recorded with `alreadyAcknowledged: true`. An ack after the dispense-decision loop expired the
   * command is still recorded (the drop happened or not, whatever the cloud assumed).
   */
  async ack(p: Principal, machineNo: string, commandId: string, req: AckRequest) {
    const { changed, command: cmd } = await this.acknowledge(p, machineNo, commandId, req);
    const order = cmd.order_number ? await this.repos.orders.order(cmd.order_number) : undefined;
    return {
      ...toView(cmd),
      alreadyAcknowledged: !changed,
      order: order
        ? {
            orderNumber: order.order_number,
            payStatus: order.pay_status,
            paidPrice: centsToDecimal(order.paid_cents),
            chargedCents: order.charged_cents,
            channel: order.channel,
            payMethod: order.pay_method,
          }
        : null,
    };
  }

  /**
   * The dispense-decision rule for commands: a command still pending `timeoutMs` after it was
   * enqueued is ruled failed (`expired`, outcome `no_outcome`, detail 'no outcome within Ns') and any
   * order paid for it is refunded, in one transaction per command with its audit record. Returns how
   * many commands it expired.
   */
  async expireOverdue(timeoutMs: number, limit = 500): Promise<number> {
    const now = this.d.clock.now();
    const due = await this.repos.commands.overduePending(now - timeoutMs, limit);
    let expired = 0;
    for (const c of due) {
      const done = await this.d.store.transaction(async (tx) => {
        if (!(await tx.commands.expire(c.id, 'no_outcome', `no outcome within ${Math.round(timeoutMs / 1000)}s`, now))) return false;
        await this.d.sales.settleFailedDrop(tx, c.id, now);
        await this.d.audit.record(tx, null, 'command.expire', `command:${c.id}`);
        const m = await tx.machines.machineById(c.machine_id);
        await this.d.events.emit(tx, {
          operatorId: m?.operator_id ?? null,
          type: 'command.expired',
          machineNo: m?.machine_no ?? null,
          data: { commandId: c.id, aisleNo: c.aisle_no, timeoutSeconds: Math.round(timeoutMs / 1000) },
        });
        return true;
      });
      if (done) expired++;
    }
    return expired;
  }
}
