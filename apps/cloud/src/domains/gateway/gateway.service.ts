import type { EventSink } from '../webhooks/webhook-events.ts';
import {
  isClaimableSerial,
  type Clock,
  type ConfigBlock,
  type GoodsData,
  type HeartbeatData,
  type HeartbeatRequest,
  type RegisterRequest,
} from '@vend/protocol';
import type { Config } from '../../config.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError } from '../../http/errors.ts';
import { centsToDecimal } from '../../http/money.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { EnrolmentService } from '../device-credentials/enrolment.service.ts';
import type { DeviceRuntime } from '../device-credentials/runtime.ts';
import type { CabinetSettingsService } from '../machines/cabinet-settings.service.ts';
import type { CabinetCaller, CabinetPresence, LegPolicy, ResolvedSerial } from './device-auth.ts';
import { agentReportsOf, carryBlock, reportFingerprint } from './heartbeat-blocks.ts';
import { provisionPoolMachine } from './pool.ts';

export type SoftwareReport = { agentVersion?: string | undefined; vmcVersion?: string | undefined; apkVersion?: string | undefined };

export interface GatewayDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Per-process cabinet state: the presence throttle and the software-report intervals. */
  devices: DeviceRuntime;
  /** Binds and checks the box on register; refuses unclaimable serials. */
  creds: EnrolmentService;
  /** The configuration block a cabinet receives. */
  settings: CabinetSettingsService;
  config: Pick<Config, 'mode'>;
  /** Fleet events: an agent newly reporting its upgrade blocked reaches the operator's webhooks and alert rules. */
  events: EventSink;
}

/**
 * The cabinet gateway (spec 2 §4.1): what the presence, configuration and software legs do once
 * `cabinetAuth` has resolved the caller. Family-A routes (`/apk`) reuse the same operations. Walk-up
 * orders are the orders domain's (SalesService), dispense reports `DispenseReportsService`'s, the
 * long poll of `pending` `PendingPollService`'s.
 */
export class GatewayService implements CabinetPresence {
  constructor(private readonly deps: GatewayDeps) {}

  private get now(): number {
    return this.deps.clock.now();
  }

  // --- resolution and presence ---------------------------------------------------------------

  /**
   * The machine a fleet-secret call names. Unknown serials are 404, except on first-contact legs:
   * a claimable serial is provisioned into the unclaimed pool, an unclaimable one is 400 naming
   * every fault (and remembered for the admins' list).
   */
  async resolveSerial(serial: string, policy: Pick<LegPolicy, 'provision' | 'leg'>): Promise<ResolvedSerial> {
    const known = await this.deps.store.repos.machines.machineByNo(serial);
    if (known) return { ...known, provisioned: false };
    if (!policy.provision) throw new AppError('not_found', 'Unknown device');
    if (!isClaimableSerial(serial)) return this.deps.creds.refuseUnclaimable(serial, policy.leg);
    const platform = policy.provision;
    const attempt = () =>
      this.deps.store.transaction(async (tx): Promise<ResolvedSerial> => {
        const again = await tx.machines.machineByNo(serial);
        if (again) return { ...again, provisioned: false };
        const id = await provisionPoolMachine(tx, { machineNo: serial, platform, mode: this.deps.config.mode, now: this.now });
        await this.deps.audit.record(tx, null, 'device.provision', `machine:${serial} pool platform:${platform}`);
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
    const t = this.deps.devices.presence;
    const key = `seen:${caller.machineId}`;
    if (!t.due(key)) return;
    await this.deps.store.repos.machines.markSeen(caller.machineId, this.now);
    t.mark(key);
  }

  configFor(machineId: string, machineNo: string): Promise<ConfigBlock> {
    return this.deps.settings.configFor(machineId, machineNo);
  }

  // --- legs ----------------------------------------------------------------------------------

  /**
   * Register: binds (or checks) the box, records the software it runs and answers the configuration
   * block. With a device key, a deviceId other than the credential's box is 403; a credential enrolled
   * without a deviceId (an unpinned arm) is bound to the first box that registers with it.
   */
  async register(caller: CabinetCaller, body: RegisterRequest): Promise<ConfigBlock> {
    const deviceId = body.deviceId ?? null;
    const creds = this.deps.creds;
    if (caller.via === 'device-key') {
      if (deviceId !== null && caller.credentialDeviceId !== null && deviceId !== caller.credentialDeviceId) {
        await creds.refuseWrongBox({ machineId: caller.machineId, deviceId: caller.credentialDeviceId }, deviceId, 'cabinet.register');
      }
      if (deviceId !== null && caller.credentialDeviceId === null && caller.keyId !== null) {
        await creds.bindKeyOnRegister({ machineId: caller.machineId, machineNo: caller.machineNo, keyId: caller.keyId }, deviceId, 'cabinet.register');
      }
    } else {
      await creds.bindOnRegister(
        { id: caller.machineId, machine_no: caller.machineNo, operator_id: caller.operatorId, retired_at: null },
        deviceId,
        'cabinet.register',
      );
    }
    const now = this.now;
    await this.deps.store.transaction(async (tx) => {
      // Spec 2 §2.5: apkVersion is family A's; a cabinet on the agent platform has none.
      await tx.machines.markSeen(caller.machineId, now, {
        platform: 'agent',
        apk_version: null,
        ...(body.agentVersion !== undefined ? { agent_version: body.agentVersion } : {}),
        ...(body.arch !== undefined ? { agent_arch: body.arch } : {}),
        ...(body.vmcVersion !== undefined ? { vmc_version: body.vmcVersion } : {}),
      });
      // The versions just written did not come through the heartbeat: its next report is written whatever it says.
      await tx.gateway.upsertStatus(caller.machineId, {
        report_fp: null,
        ...(body.capabilities !== undefined ? { capabilities_json: JSON.stringify(body.capabilities) } : {}),
        updated_at: now,
      });
    });
    this.deps.devices.presence.mark(`seen:${caller.machineId}`);
    return this.configFor(caller.machineId, caller.machineNo);
  }

  /**
   * Heartbeat: online, software versions, capabilities, the service-code lock and attempts (kept once each),
   * and the agent's deferral / blocked reports
   * (a missing or null block means the condition ended). `firstReportedAt` is the cloud's: it is kept
   * while the same block (version, and floor for blocked) is reported, and when that block cleared and
   * comes back within one upgrade check interval — an agent restart clears it until the agent's next
   * check. Written when the report differs from the one stored (by any replica) or the stored one is
   * older than the software interval.
   */
  async heartbeat(caller: CabinetCaller, body: HeartbeatRequest): Promise<HeartbeatData> {
    const now = this.now;
    const { softwareIntervalMs, reportRecallMs } = this.deps.devices.options;
    // Presence (online, last_seen) was written by the leg's `touch`; this writes the report, when it changed.
    const fingerprint = reportFingerprint(body);
    const fresh = (m: { report_fp: string | null; report_at: number | null } | undefined) =>
      m?.report_fp === fingerprint && m.report_at !== null && now - Number(m.report_at) < softwareIntervalMs;
    if (fresh(await this.deps.store.repos.gateway.reportMark(caller.machineId))) return { status: 'online', serverTime: formatTimestamp(now)! };
    await this.deps.store.transaction(async (tx) => {
      const status = await tx.gateway.lockStatus(caller.machineId);
      // Another replica wrote this very report meanwhile.
      if (fresh(status)) return;
      await tx.machines.markSeen(caller.machineId, now, {
        ...(caller.via === 'device-key' || body.agentVersion !== undefined ? { platform: 'agent', apk_version: null } : {}),
        ...(body.agentVersion !== undefined ? { agent_version: body.agentVersion } : {}),
        ...(body.arch !== undefined ? { agent_arch: body.arch } : {}),
        ...(body.vmcVersion !== undefined ? { vmc_version: body.vmcVersion } : {}),
      });
      if (body.serviceCode)
        await tx.gateway.recordServiceAttempts(
          body.serviceCode.attempts.flatMap((a) => {
            const at = Date.parse(a.at);
            return Number.isFinite(at)
              ? [{ machine_id: caller.machineId, attempt_id: a.id, at, action: a.action, result: a.result, source: a.source, received_at: now }]
              : [];
          }),
        );
      const deferring = carryBlock(
        body.deferring ?? null,
        status?.deferring_json,
        status?.deferring_first_at,
        status?.deferring_kept_json,
        now,
        reportRecallMs,
      );
      const blocked = carryBlock(body.blocked ?? null, status?.blocked_json, status?.blocked_first_at, status?.blocked_kept_json, now, reportRecallMs);
      // a block that starts now (not the same one carried on, nor one back within the recall window) is news
      if (body.blocked && blocked.firstAt === now && blocked.firstAt !== status?.blocked_first_at) {
        await this.deps.events.emit(tx, {
          operatorId: caller.operatorId,
          type: 'agent.upgrade_blocked',
          machineNo: caller.machineNo,
          data: { version: body.blocked.version, minFrom: body.blocked.minFrom, agentVersion: body.agentVersion ?? null },
        });
      }
      // a revert not reported before is news once (the agent repeats its last one in every heartbeat)
      const reverted = body.reverted ? JSON.stringify(body.reverted) : null;
      if (reverted && body.reverted && reverted !== status?.reverted_json) {
        await this.deps.events.emit(tx, {
          operatorId: caller.operatorId,
          type: 'agent.upgrade_reverted',
          machineNo: caller.machineNo,
          data: { version: body.reverted.version, from: body.reverted.from, reason: body.reverted.reason, revertedAt: body.reverted.at },
        });
      }
      await tx.gateway.upsertStatus(caller.machineId, {
        deferring_json: deferring.json,
        deferring_first_at: deferring.firstAt,
        ...(deferring.kept !== undefined ? { deferring_kept_json: deferring.kept } : {}),
        blocked_json: blocked.json,
        blocked_first_at: blocked.firstAt,
        ...(blocked.kept !== undefined ? { blocked_kept_json: blocked.kept } : {}),
        ...(body.capabilities !== undefined ? { capabilities_json: JSON.stringify(body.capabilities) } : {}),
        ...(body.serviceCode
          ? { service_lock_json: JSON.stringify({ failures: body.serviceCode.failures, lockedUntil: body.serviceCode.lockedUntil, reportedAt: now }) }
          : {}),
        ...(reverted ? { reverted_json: reverted } : {}),
        report_fp: fingerprint,
        report_at: now,
        updated_at: now,
      });
    });
    this.deps.devices.presence.mark(`seen:${caller.machineId}`);
    return { status: 'online', serverTime: formatTimestamp(now)! };
  }

  /** What the agent fleet view reads: the stored deferral and blocked blocks of a machine (null when clear). */
  async agentReports(machineId: string) {
    return agentReportsOf(await this.deps.store.repos.gateway.status(machineId));
  }

  /** Family-A software reports: `apkUp` (app version; ignored for an agent-platform cabinet) and `validVmcVersion` (controller firmware). */
  async recordSoftware(caller: CabinetCaller, report: SoftwareReport) {
    const now = this.now;
    const machines = this.deps.store.repos.machines;
    const m = await machines.softwareOf(caller.machineId);
    // Spec 2 §2.5: apkVersion is written only by family A's apkUp, and never for a cabinet on the agent
    // platform (an apkUp from one is answered, with apkVersion null, and not recorded).
    await machines.markSeen(caller.machineId, now, {
      ...(report.apkVersion !== undefined && m?.platform !== 'agent' ? { apk_version: report.apkVersion } : {}),
      ...(report.vmcVersion !== undefined ? { vmc_version: report.vmcVersion } : {}),
      // A cabinet that reported through /cabinet stays on the agent platform; otherwise it is family A.
      ...(m?.platform !== 'agent' ? { platform: 'apk' } : {}),
    });
    const after = await machines.softwareOf(caller.machineId);
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
    const repos = this.deps.store.repos;
    const [aisles, currency] = await Promise.all([repos.inventory.aislesOf([caller.machineId]), repos.gateway.currencyOf(caller.operatorId)]);
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
        imageUrl: a.image_url,
      })),
    };
  }
}
