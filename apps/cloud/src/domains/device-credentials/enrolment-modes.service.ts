import type { Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import type { Principal } from '../../http/principal.ts';
import { machineFor, requireAdmin } from './credential-access.ts';
import { FLEET_MODE_SETTING } from './device-credentials.repo.ts';
import { effectiveMode, readMode, type EnrolmentMode } from './enrolment.rules.ts';

export interface EnrolmentModesDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

/** The enrolment modes (open, armed, closed): the fleet-wide one (admin) and a machine's own (owner or admin); the stricter applies. */
export class EnrolmentModesService {
  constructor(private readonly deps: EnrolmentModesDeps) {}

  async fleetMode(): Promise<EnrolmentMode> {
    return readMode(await this.deps.store.repos.deviceCredentials.gatewaySetting(FLEET_MODE_SETTING));
  }

  async setFleetMode(p: Principal, mode: EnrolmentMode): Promise<{ mode: EnrolmentMode }> {
    requireAdmin(p);
    await this.deps.store.transaction(async (tx) => {
      await tx.deviceCredentials.setGatewaySetting(FLEET_MODE_SETTING, mode, p.credentialId, this.deps.clock.now());
      await this.deps.audit.record(tx, p, 'device.enrolment_mode', `fleet mode:${mode}`);
    });
    return { mode };
  }

  async setMachineMode(p: Principal, machineNo: string, mode: EnrolmentMode | null) {
    const { machine } = await machineFor(this.deps.store.repos, p, machineNo, false);
    const fleet = await this.deps.store.repos.deviceCredentials.gatewaySetting(FLEET_MODE_SETTING);
    await this.deps.store.transaction(async (tx) => {
      await tx.cabinetSettings.setMachineEnrolmentMode(machine.id, mode, this.deps.clock.now());
      await this.deps.audit.record(tx, p, 'device.enrolment_mode', `machine:${machine.machine_no} mode:${mode ?? 'fleet'}`);
    });
    return { machineNo: machine.machine_no, mode, effectiveMode: effectiveMode(fleet, mode) };
  }
}
