import type { Clock, ConfigBlock } from '@vend/protocol';
import type { Config } from '../../config.ts';
import { hashPassword, type Sealer } from '../../crypto/secrets.ts';
import type { AuditLog } from '../../http/audit.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { AppStore } from '../../repos.ts';
import { derivedAdminPin } from './admin-pin.ts';
import { buildConfigBlock, parseCapabilities, parseFeatureSettings } from './config-block.ts';
import type { MachineRef } from './machines.repo.ts';
import { visibleMachine } from './ownership.ts';
import type { ServiceCodeData, SettingsData, SettingsInput } from './cabinet-settings.schemas.ts';
import { formatTimestamp } from '../../http/time-format.ts';

export interface CabinetSettingsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  /** Seals the operator's admin PIN at rest. */
  sealer: Sealer;
  /** The key a machine's default admin PIN is derived from. */
  config: Pick<Config, 'dataKey'>;
}

/**
 * Per-cabinet settings (spec 2 §2.4): what the operator stores for a machine, and the configuration
 * block the cabinet receives from them (with the capabilities it reported and its admin PIN).
 */
export class CabinetSettingsService {
  constructor(private readonly deps: CabinetSettingsDeps) {}

  private async adminPin(machineNo: string, sealed: string | null | undefined): Promise<{ pin: string; source: 'operator' | 'derived' }> {
    if (sealed) {
      try {
        return { pin: this.deps.sealer.open(sealed), source: 'operator' };
      } catch {
        // A PIN sealed under another data key cannot be read: the derived one applies.
      }
    }
    return { pin: derivedAdminPin(this.deps.config.dataKey, machineNo), source: 'derived' };
  }

  /** The configuration block a cabinet receives. */
  async configFor(machineId: string, machineNo: string): Promise<ConfigBlock> {
    const repos = this.deps.store.repos;
    const [settings, status] = await Promise.all([repos.cabinetSettings.settings(machineId), repos.gateway.status(machineId)]);
    return buildConfigBlock({
      machineNo,
      settings,
      capabilities: parseCapabilities(status?.capabilities_json),
      adminPin: await this.adminPin(machineNo, settings?.admin_pin_enc),
    });
  }

  private async settingsMachine(p: Principal, machineNo: string, write: boolean): Promise<MachineRef> {
    const m = await visibleMachine(this.deps.store.repos.machines, p, machineNo);
    if (!p.admin && !p.scopes.has(write ? 'machines:write' : 'machines:read')) throw new AppError('forbidden');
    return m;
  }

  async settingsView(machineId: string, machineNo: string): Promise<SettingsData> {
    const s = await this.deps.store.repos.cabinetSettings.settings(machineId);
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

  async get(p: Principal, machineNo: string): Promise<SettingsData> {
    const m = await this.settingsMachine(p, machineNo, false);
    return this.settingsView(m.id, m.machine_no);
  }

  /** Only sent settings change; null restores the default. */
  async put(p: Principal, machineNo: string, input: SettingsInput): Promise<SettingsData> {
    const m = await this.settingsMachine(p, machineNo, true);
    if (Object.values(input).every((v) => v === undefined)) throw badRequest('Send at least one setting to change');
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      const repo = tx.cabinetSettings;
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
        admin_pin_enc: input.adminPin === undefined ? (current?.admin_pin_enc ?? null) : input.adminPin === null ? null : this.deps.sealer.seal(input.adminPin),
        updated_at: now,
      });
      await this.deps.audit.record(tx, p, 'cabinet.settings', `machine:${m.machine_no}`);
    });
    return this.settingsView(m.id, m.machine_no);
  }

  // --- the service code (spec 2 §8; docs/decisions/agent.md "Service code") -----------------------

  async serviceCodeView(machineId: string, machineNo: string): Promise<ServiceCodeData> {
    const repos = this.deps.store.repos;
    const [s, status, attempts] = await Promise.all([
      repos.cabinetSettings.settings(machineId),
      repos.gateway.status(machineId),
      repos.gateway.serviceAttempts(machineId, 50),
    ]);
    let lock: ServiceCodeData['lock'] = null;
    try {
      const l = JSON.parse(status?.service_lock_json ?? 'null') as { failures: number; lockedUntil: string | null; reportedAt: number } | null;
      if (l) lock = { failures: l.failures, lockedUntil: l.lockedUntil, reportedAt: formatTimestamp(l.reportedAt)! };
    } catch {
      lock = null;
    }
    return {
      machineNo,
      set: Boolean(s?.service_code_hash),
      setAt: s?.service_code_set_at ? formatTimestamp(Number(s.service_code_set_at)) : null,
      lock,
      attempts: attempts.map((a) => ({
        at: formatTimestamp(Number(a.at))!,
        action: a.action as ServiceCodeData['attempts'][number]['action'],
        result: a.result as ServiceCodeData['attempts'][number]['result'],
        source: a.source as ServiceCodeData['attempts'][number]['source'],
      })),
    };
  }

  async getServiceCode(p: Principal, machineNo: string): Promise<ServiceCodeData> {
    const m = await this.settingsMachine(p, machineNo, false);
    return this.serviceCodeView(m.id, m.machine_no);
  }

  /**
   * Sets or rotates (a new code replaces the old) or clears (null) the cabinet's service code. Stored
   * as an scrypt hash only; the cabinet receives that hash at its next configuration refresh.
   */
  async setServiceCode(p: Principal, machineNo: string, code: string | null): Promise<ServiceCodeData> {
    const m = await this.settingsMachine(p, machineNo, true);
    const hash = code === null ? null : await hashPassword(code);
    const now = this.deps.clock.now();
    await this.deps.store.transaction(async (tx) => {
      await tx.cabinetSettings.setServiceCode(m.id, hash, now);
      await this.deps.audit.record(tx, p, code === null ? 'cabinet.service-code.clear' : 'cabinet.service-code.set', `machine:${m.machine_no}`);
    });
    return this.serviceCodeView(m.id, m.machine_no);
  }
}
