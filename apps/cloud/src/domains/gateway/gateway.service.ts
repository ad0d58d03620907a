import {
  isClaimableSerial,
  type BlockedReport,
  type ConfigBlock,
  type CreateOrderData,
  type CreateOrderRequest,
  type DeferralReport,
  type GoodsData,
  type HeartbeatData,
  type HeartbeatRequest,
  type PendingData,
  type RegisterRequest,
  type ReportData,
  type ReportRequest,
} from '@vend/protocol';
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppContext } from '../../context.ts';
import type { DB } from '../../db/schema.ts';
import { newId } from '../../crypto/ids.ts';
import { AppError, badRequest, conflict, machineNotFound } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { InventoryRepo } from '../inventory/inventory.repo.ts';
import { CommandsService } from '../commands/commands.service.ts';
import type { PendingNotifier } from '../commands/pending-notifier.ts';
import { MachinesRepo } from '../machines/machines.repo.ts';
import type { EnrolmentService, EnrollingMachine as MachineRef } from '../device-credentials/enrolment.service.ts';
import { derivedAdminPin } from '../device-credentials/device-keys.ts';
import { buildConfigBlock, parseCapabilities, parseFeatureSettings } from './config-block.ts';
import type { CabinetCaller, LegPolicy } from './device-auth.ts';
import { GatewayRepo } from './gateway.repo.ts';
import { CabinetSettingsRepo } from '../machines/cabinet-settings.repo.ts';
import type { SettingsData, SettingsInput } from './gateway.schemas.ts';
import { provisionPoolMachine } from './pool.ts';
import { isUniqueViolation } from '../../db/errors.ts';

type Services = Pick<AppContext, 'database' | 'clock' | 'audit' | 'config' | 'devices' | 'sealer' | 'pendingNotifier'>;

/** A long poll of `pending`: how long at most, the process's notifier, and the client's going away. */
export interface PendingHold {
  waitSeconds: number;
  notifier: PendingNotifier;
  signal?: AbortSignal;
}

/** Order states a dispense report may settle: awaiting the vend, or flagged by the refund sweep meanwhile. */
const SETTLEABLE = ['paid', 'refund_owed'] as const;

interface StoredDeferral extends DeferralReport {
  reportedAt: number;
}
interface StoredBlocked extends BlockedReport {
  reportedAt: number;
}

function parseJson<T>(json: string | null | undefined): T | null {
  if (!json) return null;
  try {
    return JSON.parse(json) as T;
  } catch {
    return null;
  }
}

/** A deferral or blocked block after it cleared: what lets the same block coming back keep its first report time. */
interface KeptBlock {
  version: string;
  minFrom?: string | undefined;
  firstAt: number;
  clearedAt: number;
}

/** The same block: same version, and (blocked) the same floor. A deferral's reason and counters may change. */
function sameBlock(a: { version: string; minFrom?: string | undefined }, b: { version: string; minFrom?: string | undefined }): boolean {
  return a.version === b.version && (a.minFrom ?? null) === (b.minFrom ?? null);
}

/**
 * The stored columns of one block after a heartbeat. Reported: `firstAt` carries over from the stored
 * block when it is the same one, or from the kept (cleared) one when that cleared at most `recallMs`
 * ago; otherwise it is now. Cleared: the block is kept with its first time and the clearing time.
 * `kept` undefined leaves the stored kept block as it is.
 */
export function carryBlock<T extends { version: string; minFrom?: string | undefined }>(
  report: T | null,
  storedJson: string | null | undefined,
  storedFirstAt: number | null | undefined,
  keptJson: string | null | undefined,
  now: number,
  recallMs: number,
): { json: string | null; firstAt: number | null; kept?: string | null } {
  const prev = parseJson<T & { reportedAt: number }>(storedJson);
  const prevFirstAt = prev ? (storedFirstAt ?? prev.reportedAt ?? now) : null;
  if (report) {
    const kept = parseJson<KeptBlock>(keptJson);
    let firstAt = now;
    if (prev && sameBlock(prev, report)) firstAt = prevFirstAt ?? now;
    else if (!prev && kept && sameBlock(kept, report) && now - kept.clearedAt <= recallMs) firstAt = kept.firstAt;
    return { json: JSON.stringify({ ...report, reportedAt: now }), firstAt, ...(kept ? { kept: null } : {}) };
  }
  if (prev) {
    const kept: KeptBlock = {
      version: prev.version,
      ...(prev.minFrom !== undefined ? { minFrom: prev.minFrom } : {}),
      firstAt: prevFirstAt ?? now,
      clearedAt: now,
    };
    return { json: null, firstAt: null, kept: JSON.stringify(kept) };
  }
  return { json: null, firstAt: null };
}

/** What a heartbeat reports, as the short fingerprint stored with it (`cabinet_status.report_fp`). */
function reportFingerprint(body: HeartbeatRequest): string {
  const json = JSON.stringify([body.agentVersion ?? null, body.vmcVersion ?? null, body.deferring ?? null, body.blocked ?? null, body.capabilities ?? null]);
  return createHash('sha256').update(json).digest('base64url');
}

/**
 * The cabinet acting on its own machine, as the commands service's caller: the credential resolved
 * the machine, so the owner filter is lifted for exactly that machine number (the only one passed).
 * The audit log records the device key (or `fleet-secret`) as the key and the owner as the user.
 */
export function cabinetPrincipal(caller: CabinetCaller): Principal {
  return {
    operatorId: caller.operatorId ?? '',
    operatorEmail: `cabinet:${caller.machineNo}`,
    admin: true,
    scopes: new Set(['commands:read', 'commands:write']),
    authMethod: 'api_key',
    credentialId: caller.keyId ?? 'fleet-secret',
    rateLimit: 0,
    plant: null,
  };
}

export type SoftwareReport = { agentVersion?: string | undefined; vmcVersion?: string | undefined; apkVersion?: string | undefined };

/**
 * The cabinet gateway (spec 2 §4.1): what each leg does once `cabinetAuth` has resolved the caller.
 * Family-A routes (`/apk`) reuse the same operations.
 */
export class GatewayService {
  private readonly commands: CommandsService;

  constructor(
    private readonly ctx: Services,
    private readonly creds: EnrolmentService,
  ) {
    this.commands = new CommandsService({ db: ctx.database.db, clock: ctx.clock, audit: ctx.audit, pending: ctx.pendingNotifier });
  }

  private repo(db: Kysely<DB> = this.ctx.database.db): GatewayRepo {
    return new GatewayRepo(db, this.ctx.database.dialect);
  }

  private settingsRepo(db: Kysely<DB> = this.ctx.database.db): CabinetSettingsRepo {
    return new CabinetSettingsRepo(db);
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  // --- resolution and presence ---------------------------------------------------------------

  /**
   * The machine a fleet-secret call names. Unknown serials are 404, except on first-contact legs:
   * a claimable serial is provisioned into the unclaimed pool, an unclaimable one is 400 naming
   * every fault (and remembered for the admins' list).
   */
  async resolveSerial(serial: string, policy: Pick<LegPolicy, 'provision' | 'leg'>): Promise<MachineRef & { provisioned: boolean }> {
    const repo = new MachinesRepo(this.ctx.database.db, this.ctx.database.dialect);
    const known = await repo.machineByNo(serial);
    if (known) return { ...known, provisioned: false };
    if (!policy.provision) throw new AppError('not_found', 'Unknown device');
    if (!isClaimableSerial(serial)) return this.creds.refuseUnclaimable(serial, policy.leg);
    const platform = policy.provision;
    const attempt = () =>
      this.ctx.database.db.transaction().execute(async (trx) => {
        const again = await new MachinesRepo(trx, this.ctx.database.dialect).machineByNo(serial);
        if (again) return { ...again, provisioned: false };
        const now = this.now;
        const id = await provisionPoolMachine(trx, this.ctx.database.dialect, { machineNo: serial, platform, mode: this.ctx.config.mode, now });
        await this.ctx.audit.record(trx, null, 'device.provision', `machine:${serial} pool platform:${platform}`);
        return { id, machine_no: serial, operator_id: null, retired_at: null, provisioned: true };
      });
    try {
      return await attempt();
    } catch (err) {
      // Two first contacts of one serial raced: the second finds the winner's row.
      if (!isUniqueViolation(err)) throw err;
      return attempt();
    }
  }

  /** Any authenticated call: the machine is online. `last_seen` is written at most once per interval per machine. */
  async touch(caller: CabinetCaller): Promise<void> {
    const t = this.ctx.devices.presence;
    const key = `seen:${caller.machineId}`;
    if (!t.due(key)) return;
    await this.repo().markSeen(caller.machineId, this.now);
    t.mark(key);
  }

  // --- configuration -------------------------------------------------------------------------

  private async adminPin(machineNo: string, sealed: string | null | undefined): Promise<{ pin: string; source: 'operator' | 'derived' }> {
    if (sealed) {
      try {
        return { pin: this.ctx.sealer.open(sealed), source: 'operator' };
      } catch {
        // A PIN sealed under another data key cannot be read: the derived one applies.
      }
    }
    return { pin: derivedAdminPin(this.ctx.config.dataKey, machineNo), source: 'derived' };
  }

  async configFor(machineId: string, machineNo: string): Promise<ConfigBlock> {
    const repo = this.repo();
    const [settings, status] = await Promise.all([this.settingsRepo().settings(machineId), repo.status(machineId)]);
    return buildConfigBlock({
      machineNo,
      settings,
      capabilities: parseCapabilities(status?.capabilities_json),
      adminPin: await this.adminPin(machineNo, settings?.admin_pin_enc),
    });
  }

  // --- legs ----------------------------------------------------------------------------------

  /**
   * Register: binds (or checks) the box, records the software it runs and answers the configuration
   * block. With a device key, a deviceId other than the credential's box is 403; a credential enrolled
   * without a deviceId (an unpinned arm) is bound to the first box that registers with it.
   */
  async register(caller: CabinetCaller, body: RegisterRequest): Promise<ConfigBlock> {
    const deviceId = body.deviceId ?? null;
    if (caller.via === 'device-key') {
      if (deviceId !== null && caller.credentialDeviceId !== null && deviceId !== caller.credentialDeviceId) {
        await this.creds.refuseWrongBox({ machineId: caller.machineId, deviceId: caller.credentialDeviceId }, deviceId, 'cabinet.register');
      }
      if (deviceId !== null && caller.credentialDeviceId === null && caller.keyId !== null) {
        await this.creds.bindKeyOnRegister({ machineId: caller.machineId, machineNo: caller.machineNo, keyId: caller.keyId }, deviceId, 'cabinet.register');
      }
    } else {
      await this.creds.bindOnRegister(
        { id: caller.machineId, machine_no: caller.machineNo, operator_id: caller.operatorId, retired_at: null },
        deviceId,
        'cabinet.register',
      );
    }
    const now = this.now;
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      // Spec 2 §2.5: apkVersion is family A's; a cabinet on the agent platform has none.
      await repo.markSeen(caller.machineId, now, {
        platform: 'agent',
        apk_version: null,
        ...(body.agentVersion !== undefined ? { agent_version: body.agentVersion } : {}),
        ...(body.vmcVersion !== undefined ? { vmc_version: body.vmcVersion } : {}),
      });
      // The versions just written did not come through the heartbeat: its next report is written whatever it says.
      await repo.upsertStatus(caller.machineId, {
        report_fp: null,
        ...(body.capabilities !== undefined ? { capabilities_json: JSON.stringify(body.capabilities) } : {}),
        updated_at: now,
      });
    });
    this.ctx.devices.presence.mark(`seen:${caller.machineId}`);
    return this.configFor(caller.machineId, caller.machineNo);
  }

  /**
   * Heartbeat: online, software versions, capabilities, and the agent's deferral / blocked reports
   * (a missing or null block means the condition ended). `firstReportedAt` is the cloud's: it is kept
   * while the same block (version, and floor for blocked) is reported, and when that block cleared and
   * comes back within one upgrade check interval — an agent restart clears it until the agent's next
   * check. Written when the report differs from the one stored (by any replica) or the stored one is
   * older than the software interval.
   */
  async heartbeat(caller: CabinetCaller, body: HeartbeatRequest): Promise<HeartbeatData> {
    const now = this.now;
    const { softwareIntervalMs, reportRecallMs } = this.ctx.devices.options;
    // Presence (online, last_seen) was written by the leg's `touch`; this writes the report, when it changed.
    const fingerprint = reportFingerprint(body);
    const fresh = (m: { report_fp: string | null; report_at: number | null } | undefined) =>
      m?.report_fp === fingerprint && m.report_at !== null && now - Number(m.report_at) < softwareIntervalMs;
    if (fresh(await this.repo().reportMark(caller.machineId))) return { status: 'online', serverTime: formatTimestamp(now)! };
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const status = await this.repo(trx).lockStatus(caller.machineId);
      // Another replica wrote this very report meanwhile.
      if (fresh(status)) return;
      const repo = this.repo(trx);
      await repo.markSeen(caller.machineId, now, {
        ...(caller.via === 'device-key' || body.agentVersion !== undefined ? { platform: 'agent', apk_version: null } : {}),
        ...(body.agentVersion !== undefined ? { agent_version: body.agentVersion } : {}),
        ...(body.vmcVersion !== undefined ? { vmc_version: body.vmcVersion } : {}),
      });
      const deferring = carryBlock(
        body.deferring ?? null,
        status?.deferring_json,
        status?.deferring_first_at,
        status?.deferring_kept_json,
        now,
        reportRecallMs,
      );
      const blocked = carryBlock(body.blocked ?? null, status?.blocked_json, status?.blocked_first_at, status?.blocked_kept_json, now, reportRecallMs);
      await repo.upsertStatus(caller.machineId, {
        deferring_json: deferring.json,
        deferring_first_at: deferring.firstAt,
        ...(deferring.kept !== undefined ? { deferring_kept_json: deferring.kept } : {}),
        blocked_json: blocked.json,
        blocked_first_at: blocked.firstAt,
        ...(blocked.kept !== undefined ? { blocked_kept_json: blocked.kept } : {}),
        ...(body.capabilities !== undefined ? { capabilities_json: JSON.stringify(body.capabilities) } : {}),
        report_fp: fingerprint,
        report_at: now,
        updated_at: now,
      });
    });
    this.ctx.devices.presence.mark(`seen:${caller.machineId}`);
    return { status: 'online', serverTime: formatTimestamp(now)! };
  }

  /** What the agent fleet view reads: the stored deferral and blocked blocks of a machine (null when clear). */
  async agentReports(machineId: string) {
    const s = await this.repo().status(machineId);
    const d = parseJson<StoredDeferral>(s?.deferring_json);
    const b = parseJson<StoredBlocked>(s?.blocked_json);
    return {
      deferring: d
        ? {
            version: d.version,
            count: d.count,
            seconds: d.seconds,
            reason: d.reason,
            reportedAt: formatTimestamp(d.reportedAt)!,
            firstReportedAt: formatTimestamp(s?.deferring_first_at ?? d.reportedAt)!,
          }
        : null,
      blocked: b
        ? { version: b.version, minFrom: b.minFrom, count: b.count, seconds: b.seconds, firstReportedAt: formatTimestamp(s?.blocked_first_at ?? b.reportedAt)! }
        : null,
    };
  }

  /** Family-A software reports: `apkUp` (app version; ignored for an agent-platform cabinet) and `validVmcVersion` (controller firmware). */
  async recordSoftware(caller: CabinetCaller, report: SoftwareReport) {
    const now = this.now;
    const repo = this.repo();
    const m = await repo.machine(caller.machineId);
    // Spec 2 §2.5: apkVersion is written only by family A's apkUp, and never for a cabinet on the agent
    // platform (an apkUp from one is answered, with apkVersion null, and not recorded).
    await repo.markSeen(caller.machineId, now, {
      ...(report.apkVersion !== undefined && m?.platform !== 'agent' ? { apk_version: report.apkVersion } : {}),
      ...(report.vmcVersion !== undefined ? { vmc_version: report.vmcVersion } : {}),
      // A cabinet that reported through /cabinet stays on the agent platform; otherwise it is family A.
      ...(m?.platform !== 'agent' ? { platform: 'apk' } : {}),
    });
    const after = await repo.machine(caller.machineId);
    return {
      machineCode: caller.machineNo,
      agentVersion: after?.agent_version ?? null,
      platform: after?.platform ?? null,
      vmcVersion: after?.vmc_version ?? null,
      apkVersion: after?.apk_version ?? null,
    };
  }

  /** The planogram: SKUs, prices, stock and faulted lanes. */
  async goods(caller: CabinetCaller): Promise<GoodsData> {
    const repo = this.repo();
    const [aisles, currency] = await Promise.all([repo.aisles(caller.machineId), repo.currencyOf(caller.operatorId)]);
    return {
      machineCode: caller.machineNo,
      currency,
      aisles: aisles.map((a) => ({
        aisleNo: a.aisle_no,
        sku: a.sku,
        name: a.product_name,
        price: centsToDecimal(a.price_cents),
        priceCents: a.price_cents,
        stock: a.current_stock,
        maxStock: a.max_stock,
        faulted: a.faulted === 1,
        sellable: a.faulted === 0 && a.current_stock > 0 && a.price_cents > 0,
      })),
    };
  }

  /**
   * Opens a walk-up order on the machine's operator (the pool's while unclaimed): paid, awaiting its
   * vend. The dispense report settles it (shipped, or refunded on failure); a cashless payment
   * webhook naming the order attaches its payment. Stock moves when the vend is reported.
   * `vended`: family A (`/apk/createOrder`) has no report leg, so its call records a sale already
   * made: shipped, stock taken, nothing left for the refund sweep.
   */
  async createOrder(caller: CabinetCaller, body: CreateOrderRequest, opts: { vended?: boolean } = {}): Promise<CreateOrderData> {
    const payStatus = opts.vended ? 'shipped' : 'paid';
    const now = this.now;
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const machine = await repo.machine(caller.machineId);
      if (!machine) throw new AppError('not_found', 'Unknown device');
      const aisle = await new InventoryRepo(trx, this.ctx.database.dialect).lockAisle(caller.machineId, body.aisleNo);
      if (!aisle) throw badRequest(`Machine ${caller.machineNo} has no aisle ${body.aisleNo}`);
      // A retried call (its answer was lost) gets the order the first one opened. Looked up under the
      // aisle's lock, before the stock rules: the first call may have taken the last unit.
      if (body.requestRef) {
        const prior = await repo.orderByRequestRef(caller.machineId, body.requestRef);
        if (prior) {
          if (prior.aisle_no !== body.aisleNo || prior.quantity !== body.quantity)
            throw conflict(`requestRef ${body.requestRef} already opened order ${prior.order_number} (aisle ${prior.aisle_no}, quantity ${prior.quantity})`);
          return {
            orderNumber: prior.order_number,
            machineCode: caller.machineNo,
            aisleNo: prior.aisle_no,
            quantity: prior.quantity,
            amount: centsToDecimal(prior.charged_cents),
            amountCents: prior.charged_cents,
            payStatus: prior.pay_status,
          };
        }
      }
      if (aisle.faulted === 1) throw conflict(`Aisle ${body.aisleNo} is faulted`);
      if (aisle.price_cents <= 0) throw conflict(`Aisle ${body.aisleNo} has no price`);
      if (aisle.current_stock < body.quantity) throw conflict(`Aisle ${body.aisleNo} has ${aisle.current_stock} in stock, ${body.quantity} ordered`);
      const amount = aisle.price_cents * body.quantity;
      const payMethod = body.payMethod ?? 'card';
      const cashless = payMethod !== 'cash';
      const terminal = cashless ? await repo.terminalOf(caller.machineId) : undefined;
      const orderNumber = newId('ord', now);
      const row = {
        order_number: orderNumber,
        machine_id: caller.machineId,
        operator_id: machine.operator_id,
        aisle_no: body.aisleNo,
        quantity: body.quantity,
        pay_status: payStatus,
        paid_cents: amount,
        charged_cents: amount,
        tax_rate: machine.sales_tax_rate,
        channel: 'walkup',
        pay_method: payMethod,
        terminal_id: terminal?.id ?? null,
        card_brand: cashless ? (body.cardBrand ?? null) : null,
        card_last4: cashless ? (body.cardLast4 ?? null) : null,
        settlement_account: terminal?.merchant_account ?? null,
        command_id: null,
        dispense_id: null,
        request_ref: body.requestRef ?? null,
        vended: opts.vended ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      try {
        await repo.insertOrder(row);
      } catch (e) {
        // the same requestRef racing in on another aisle (the same aisle waits on its lock above)
        if (body.requestRef && isUniqueViolation(e)) throw conflict(`requestRef ${body.requestRef} is already in use on this cabinet`);
        throw e;
      }
      if (opts.vended)
        await new InventoryRepo(trx, this.ctx.database.dialect).updateAisle(caller.machineId, body.aisleNo, {
          current_stock: aisle.current_stock - body.quantity,
        });
      await this.ctx.audit.record(trx, null, 'cabinet.order', `order:${orderNumber} machine:${caller.machineNo}`);
      return {
        orderNumber,
        machineCode: caller.machineNo,
        aisleNo: body.aisleNo,
        quantity: body.quantity,
        amount: centsToDecimal(amount),
        amountCents: amount,
        payStatus,
      };
    });
  }

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
    const now = this.now;
    const kind = body.orderNumber !== undefined ? 'order' : 'local';
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const fresh = await repo.claimReport(this.reportRow(caller, body, kind, null, null, now));
      if (!fresh) return this.firstReport(repo, caller, body.dispenseId);
      let status: string | null = null;
      if (kind === 'order') status = await this.settleWalkup(trx, caller, body, now);
      else if (body.success) await this.takeStock(trx, caller, body.aisleNo, 1);
      await repo.setReportStatus(body.dispenseId, status);
      return this.reportView((await repo.report(body.dispenseId))!, false);
    });
  }

  /**
   * A remote drop's report completes its command exactly as the operator ack does: the commands
   * service's ack (one transaction: command status under its row lock, stock, the shipped order) —
   * idempotent, so a duplicate or a concurrent copy of the report changes nothing more — then the
   * dispenseId is claimed with the command's outcome. An unknown command or a report naming
   * another aisle is refused before anything is written.
   */
  private async reportDrop(caller: CabinetCaller, body: ReportRequest, commandId: string): Promise<ReportData> {
    const seen = await this.repo().report(body.dispenseId);
    if (seen) return this.firstReport(this.repo(), caller, body.dispenseId);
    const who = cabinetPrincipal(caller);
    const command = await this.commands.get(who, caller.machineNo, commandId);
    if (command.aisleNo !== body.aisleNo) throw badRequest(`Command ${commandId} is for aisle ${command.aisleNo}, the report names aisle ${body.aisleNo}`);
    const acked = await this.commands.ack(who, caller.machineNo, commandId, { success: body.success, outcome: body.outcome, detail: body.detail });
    const now = this.now;
    return this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const fresh = await repo.claimReport(this.reportRow(caller, body, 'command', acked.status, acked.orderNumber, now));
      if (!fresh) return this.firstReport(repo, caller, body.dispenseId);
      return this.reportView((await repo.report(body.dispenseId))!, false);
    });
  }

  private reportRow(caller: CabinetCaller, body: ReportRequest, kind: string, status: string | null, orderNumber: string | null, now: number) {
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
  private async firstReport(repo: GatewayRepo, caller: CabinetCaller, dispenseId: string): Promise<ReportData> {
    const first = await repo.report(dispenseId);
    if (!first || first.machine_id !== caller.machineId) throw conflict('dispenseId was reported by another cabinet');
    return this.reportView(first, true);
  }

  /**
   * Pending remote drops of the cabinet, oldest first (the commands service's poll). With `hold`, a long
   * poll: when nothing is pending the answer waits until a command is enqueued for the machine (woken by
   * this process's notifier, or found by re-reading the store every `recheckMs` when another replica
   * enqueued it), the wait is over, the client went away or the process is stopping; then it answers
   * with what is pending (possibly nothing). A machine already holding its limit of calls, or a stopping
   * process, answers at once.
   */
  async pending(caller: CabinetCaller, hold?: PendingHold): Promise<PendingData> {
    const deadline = this.now + (hold?.waitSeconds ?? 0) * 1000;
    for (;;) {
      const remaining = deadline - this.now;
      // the waiter is in place before the store is read, so an enqueue between the two is not missed
      const held = hold && remaining > 0 ? hold.notifier.hold(caller.machineId, remaining, hold.signal) : null;
      const data = await this.pendingNow(caller.machineId);
      if (!held || data.commands.length > 0) {
        held?.release();
        return data;
      }
      const why = await held.ended;
      // client gone or shutting down: answer what was read, without another store read
      if (why === 'aborted' || why === 'shutdown') return data;
    }
  }

  private async pendingNow(machineId: string): Promise<PendingData> {
    const commands = await this.commands.pendingFor(machineId);
    return {
      commands: commands.map((c) => ({ commandId: c.commandId, aisleNo: c.aisleNo, reason: c.reason, externalRef: c.externalRef, createdAt: c.createdAt })),
    };
  }

  private reportView(
    r: { dispense_id: string; kind: string; command_id: string | null; order_number: string | null; status: string | null; received_at: number },
    duplicate: boolean,
  ): ReportData {
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

  private async takeStock(trx: Kysely<DB>, caller: CabinetCaller, aisleNo: number, quantity: number): Promise<void> {
    const inventory = new InventoryRepo(trx, this.ctx.database.dialect);
    const aisle = await inventory.lockAisle(caller.machineId, aisleNo);
    if (!aisle) throw badRequest(`Machine ${caller.machineNo} has no aisle ${aisleNo}`);
    await inventory.updateAisle(caller.machineId, aisleNo, { current_stock: Math.max(0, aisle.current_stock - quantity) });
  }

  /** Walk-up vend after createOrder: success ships the order and takes the stock; failure refunds it. */
  private async settleWalkup(trx: Kysely<DB>, caller: CabinetCaller, body: ReportRequest, now: number): Promise<string> {
    const repo = this.repo(trx);
    const order = await repo.order(body.orderNumber!);
    if (!order || order.machine_id !== caller.machineId) throw new AppError('not_found', `Order ${body.orderNumber} not found on this cabinet`);
    if (order.aisle_no !== body.aisleNo) throw badRequest(`Order ${order.order_number} is for aisle ${order.aisle_no}, the report names aisle ${body.aisleNo}`);
    const to = body.success ? 'shipped' : 'refunded';
    const settled = await repo.settleOrder(order.order_number, SETTLEABLE, {
      pay_status: to,
      vended: body.success ? 1 : 0,
      dispense_id: body.dispenseId,
      updated_at: now,
    });
    if (!settled) throw conflict(`Order ${order.order_number} is already settled (${order.pay_status})`);
    if (body.success) await this.takeStock(trx, caller, order.aisle_no, order.quantity);
    return to;
  }

  // --- per-machine settings (operator API) ----------------------------------------------------

  private async settingsMachine(p: Principal, machineNo: string, write: boolean): Promise<MachineRef> {
    const m = await new MachinesRepo(this.ctx.database.db, this.ctx.database.dialect).machineByNo(machineNo);
    if (!m || !(p.admin || (m.operator_id !== null && m.operator_id === p.operatorId))) throw machineNotFound();
    if (!p.admin && !p.scopes.has(write ? 'machines:write' : 'machines:read')) throw new AppError('forbidden');
    return m;
  }

  async settingsView(machineId: string, machineNo: string): Promise<SettingsData> {
    const s = await this.settingsRepo().settings(machineId);
    return {
      machineNo,
      settings: {
        module: s?.module ?? null,
        rows: s?.rows ?? null,
        columnsPerRow: s?.columns_per_row ?? null,
        pollInterval: s?.poll_interval ?? null,
        heartbeatInterval: s?.heartbeat_interval ?? null,
        dispatchMode: s?.dispatch_mode ?? null,
        kioskUiUrl: s?.kiosk_ui_url ?? null,
        adminPinSet: Boolean(s?.admin_pin_enc),
        features: parseFeatureSettings(s?.features_json),
      },
      config: await this.configFor(machineId, machineNo),
    };
  }

  async getSettings(p: Principal, machineNo: string): Promise<SettingsData> {
    const m = await this.settingsMachine(p, machineNo, false);
    return this.settingsView(m.id, m.machine_no);
  }

  async putSettings(p: Principal, machineNo: string, input: SettingsInput): Promise<SettingsData> {
    const m = await this.settingsMachine(p, machineNo, true);
    if (Object.values(input).every((v) => v === undefined)) throw badRequest('Send at least one setting to change');
    const now = this.now;
    await this.ctx.database.db.transaction().execute(async (trx) => {
      const repo = this.settingsRepo(trx);
      const current = await repo.settings(m.id);
      const features = parseFeatureSettings(current?.features_json);
      for (const [name, value] of Object.entries(input.features ?? {})) {
        if (value === undefined) continue;
        if (value === null) delete features[name as keyof typeof features];
        else features[name as keyof typeof features] = value;
      }
      const pick = <T>(v: T | undefined, old: T | null | undefined): T | null => (v === undefined ? (old ?? null) : v);
      await repo.upsertSettings(m.id, {
        features_json: JSON.stringify(features),
        module: pick(input.module, current?.module),
        rows: pick(input.rows, current?.rows),
        columns_per_row: pick(input.columnsPerRow, current?.columns_per_row),
        poll_interval: pick(input.pollInterval, current?.poll_interval),
        heartbeat_interval: pick(input.heartbeatInterval, current?.heartbeat_interval),
        dispatch_mode: pick(input.dispatchMode, current?.dispatch_mode),
        kiosk_ui_url: pick(input.kioskUiUrl, current?.kiosk_ui_url),
        admin_pin_enc: input.adminPin === undefined ? (current?.admin_pin_enc ?? null) : input.adminPin === null ? null : this.ctx.sealer.seal(input.adminPin),
        updated_at: now,
      });
      await this.ctx.audit.record(trx, p, 'cabinet.settings', `machine:${m.machine_no}`);
    });
    return this.settingsView(m.id, m.machine_no);
  }
}
