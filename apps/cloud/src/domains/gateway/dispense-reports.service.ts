import type { Clock, ReportData, ReportRequest } from '@vend/protocol';
import { AppError, badRequest, conflict } from '../../http/errors.ts';
import type { AuditActor } from '../../http/audit.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { CommandMachine, CommandsService } from '../commands/commands.service.ts';
import type { SalesService } from '../orders/sales.service.ts';
import type { CabinetCaller } from './device-auth.ts';
import type { GatewayRepo } from './gateway.repo.ts';

/**
 * The cabinet acting on its own machine: the credential resolved it, so nothing is looked up by number
 * and no owner filter applies. The audit log records the device key (or `fleet-secret`) as the key and
 * the owner as the user.
 */
function cabinetActor(caller: CabinetCaller): AuditActor {
  return { credentialId: caller.keyId ?? 'fleet-secret', operatorId: caller.operatorId ?? '' };
}

function cabinetMachine(caller: CabinetCaller): CommandMachine {
  return { id: caller.machineId, machine_no: caller.machineNo, operator_id: caller.operatorId };
}

export interface DispenseReportsDeps {
  store: AppStore;
  clock: Clock;
  /** A remote drop's report completes its command as the operator ack does. */
  commands: CommandsService;
  /** A walk-up order's report settles its sale. */
  sales: SalesService;
}

type ReportRow = { dispense_id: string; kind: string; command_id: string | null; order_number: string | null; status: string | null; received_at: number };

function reportView(r: ReportRow, duplicate: boolean): ReportData {
  return {
    dispenseId: r.dispense_id,
    duplicate,
    kind: r.kind === 'command' ? 'command' : r.kind === 'order' ? 'order' : 'local',
    commandId: r.command_id,
    orderNumber: r.order_number,
    status: r.status,
    receivedAt: formatTimestamp(r.received_at)!,
  };
}

function reportRow(caller: CabinetCaller, body: ReportRequest, kind: string, status: string | null, orderNumber: string | null, now: number) {
  return {
    dispense_id: body.dispenseId,
    machine_id: caller.machineId,
    kind,
    command_id: body.commandId ?? null,
    order_number: orderNumber ?? body.orderNumber ?? null,
    aisle_no: body.aisleNo,
    success: body.success ? 1 : 0,
    outcome: body.outcome,
    detail: body.detail,
    status,
    received_at: now,
  };
}

/** A duplicate report answers the first report's result; a dispenseId another cabinet used is 409. */
async function firstReport(repo: GatewayRepo, caller: CabinetCaller, dispenseId: string): Promise<ReportData> {
  const first = await repo.report(dispenseId);
  if (!first || first.machine_id !== caller.machineId) throw conflict('dispenseId was reported by another cabinet');
  return reportView(first, true);
}

/** `/cabinet/report` (spec 2 §4.1): what a cabinet says it dispensed, applied once per `dispenseId`. */
export class DispenseReportsService {
  constructor(private readonly deps: DispenseReportsDeps) {}

  /**
   * A dispense report, applied exactly once per `dispenseId` (spec 2 §4.1). The id is claimed and
   * the effect applied in one transaction; a duplicate — even a concurrent one, which waits on the
   * claim — answers the first report's result. A refused report (unknown order, settled order)
   * rolls back with its claim, so a corrected retry can still land. Accepted for a retired machine.
   * A fleet-secret caller (an un-enrolled cabinet) may report only its walk-up sales.
   */
  async report(caller: CabinetCaller, body: ReportRequest): Promise<ReportData> {
    // On the fleet secret only a walk-up sale's report is taken (the order the same leg opened, on this
    // machine): remote drops and local dispenses need the cabinet's own key.
    if (caller.via !== 'device-key' && (body.orderNumber === undefined || body.commandId !== undefined))
      throw new AppError('unauthorized', 'A device key is required for remote-drop and local dispense reports');
    if (body.commandId !== undefined && body.orderNumber !== undefined)
      throw badRequest('Send commandId (remote drop) or orderNumber (walk-up sale), not both');
    if (body.commandId !== undefined) return this.reportDrop(caller, body, body.commandId);
    const now = this.deps.clock.now();
    const orderNumber = body.orderNumber;
    return this.deps.store.transaction(async (tx) => {
      const repo = tx.gateway;
      const fresh = await repo.claimReport(reportRow(caller, body, orderNumber !== undefined ? 'order' : 'local', null, null, now));
      if (!fresh) return firstReport(repo, caller, body.dispenseId);
      let status: string | null = null;
      if (orderNumber !== undefined) {
        const report = { orderNumber, aisleNo: body.aisleNo, success: body.success, dispenseId: body.dispenseId };
        status = await this.deps.sales.settleWalkup(tx, caller, report, now);
      } else if (body.success && !(await tx.inventory.takeStock(caller.machineId, body.aisleNo, 1))) {
        // a local dispense (no order): the unit leaves the aisle
        throw badRequest(`Machine ${caller.machineNo} has no aisle ${body.aisleNo}`);
      }
      await repo.setReportStatus(body.dispenseId, status);
      return reportView((await repo.report(body.dispenseId))!, false);
    });
  }

  /**
   * A remote drop's report completes its command exactly as the operator ack does: the commands
   * service's ack (one transaction: command status under its row lock, the sale it makes) —
   * idempotent, so a duplicate or a concurrent copy of the report changes nothing more — and in the
   * same transaction the dispenseId is claimed with the command's outcome. An unknown command or a report naming
   * another aisle is refused before anything is written.
   */
  private async reportDrop(caller: CabinetCaller, body: ReportRequest, commandId: string): Promise<ReportData> {
    const repos = this.deps.store.repos;
    const seen = await repos.gateway.report(body.dispenseId);
    if (seen) return firstReport(repos.gateway, caller, body.dispenseId);
    const machine = cabinetMachine(caller);
    const commands = this.deps.commands;
    const command = await commands.commandOf(machine, commandId);
    if (command.aisleNo !== body.aisleNo) throw badRequest(`Command ${commandId} is for aisle ${command.aisleNo}, the report names aisle ${body.aisleNo}`);
    const now = this.deps.clock.now();
    // the dispenseId is claimed in the ack's own transaction: one commit, one wait for the store's disk, per report
    let claimed: ReportData | null = null;
    await commands.acknowledgeOn(
      cabinetActor(caller),
      machine,
      commandId,
      { success: body.success, outcome: body.outcome, detail: body.detail },
      async (tx, acked) => {
        if (await tx.gateway.claimReport(reportRow(caller, body, 'command', acked.status, acked.order_number, now)))
          claimed = reportView((await tx.gateway.report(body.dispenseId))!, false);
      },
    );
    // claimed meanwhile by a copy of this report (its answer) or by another cabinet (409, the ack stands)
    return claimed ?? firstReport(this.deps.store.repos.gateway, caller, body.dispenseId);
  }
}
