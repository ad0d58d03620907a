import { serialFaults, type Clock } from '@vend/protocol';
import type { AppStore } from '../../repos.ts';
import { offsetOf, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { requireAdmin } from './credential-access.ts';
import { armView, credentialState } from './credential-views.ts';
import { ARM_TTL, ENROL_BUDGET, type FleetData, type FleetQuery } from './device-credentials.schemas.ts';
import type { EnrolmentModesService } from './enrolment-modes.service.ts';
import { readBinding } from './enrolment.rules.ts';

export interface CredentialFleetDeps {
  store: AppStore;
  clock: Clock;
  /** The fleet view shows the fleet-wide enrolment mode. */
  modes: EnrolmentModesService;
}

/** The administrators' views of the credential fleet (spec 2 §2.8): states, conflicts, copy suspicions, unclaimable serials. */
export class CredentialFleetService {
  constructor(private readonly deps: CredentialFleetDeps) {}

  /** The credential fleet view (admin). Counts are fleet-wide; `machines` is paged. */
  async fleet(p: Principal, q: FleetQuery): Promise<FleetData> {
    requireAdmin(p);
    const { credentialFleet: repo, identityIncidents } = this.deps.store.repos;
    const now = this.deps.clock.now();
    const filter = { operatorId: null, state: q.state };
    const [counts, page, mode] = await Promise.all([repo.fleetCounts(filter, now), repo.fleetPage(filter, q.size, offsetOf(q)), this.deps.modes.fleetMode()]);
    const ids = page.rows.map((r) => r.id);
    const [active, arms, suspicions] = await Promise.all([repo.activeCredentials(ids), repo.openArms(ids, now), identityIncidents.suspicionCounts(ids)]);
    const activeOf = new Map(active.map((c) => [c.machine_id, c]));
    const armOf = new Map(arms.map((a) => [a.machine_id, a]));
    return {
      onFleetSecret: counts.onFleet,
      armed: counts.armed,
      reachableOnFleetSecret: counts.reachable,
      enrolmentWindow: {
        mode,
        budgetAttempts: ENROL_BUDGET.attempts,
        budgetWindowSeconds: ENROL_BUDGET.windowMs / 1000,
        armDefaultMinutes: ARM_TTL.defaultMinutes,
        armMaxMinutes: ARM_TTL.maxMinutes,
      },
      page: q.page,
      size: q.size,
      total: page.total,
      machines: page.rows.map((r) => {
        const state = credentialState(r.cred_state);
        const cred = state === 'enrolled' ? activeOf.get(r.id) : undefined;
        const arm = armOf.get(r.id);
        return {
          machineNo: r.machine_no,
          state,
          keyId: cred?.key_id ?? null,
          generation: cred?.generation ?? null,
          enrolmentBinding: readBinding(r.binding),
          deviceId: r.device_id ?? null,
          rotationDue: r.rotation_due_at !== null && r.rotation_due_at !== undefined,
          enrolmentArmed: arm ? armView(arm) : null,
          revoked:
            state === 'revoked' && r.revoked_at !== null && r.revoked_at !== undefined
              ? { at: formatTimestamp(r.revoked_at)!, by: r.revoked_by ?? null, reason: r.revoke_reason ?? null }
              : null,
          copySuspicions: suspicions.get(r.id) ?? 0,
        };
      }),
    };
  }

  async conflicts(p: Principal, q: Paging) {
    requireAdmin(p);
    const { total, rows } = await this.deps.store.repos.identityIncidents.conflicts(null, q.size, offsetOf(q));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) => ({
        machineNo: r.machine_no,
        binding: r.binding,
        boundDeviceId: r.bound_device_id,
        presentedDeviceId: r.presented_device_id,
        leg: r.leg,
        at: formatTimestamp(r.at)!,
        resolvedAt: formatTimestamp(r.resolved_at),
      })),
    };
  }

  async suspicions(p: Principal, q: Paging) {
    requireAdmin(p);
    const { total, rows } = await this.deps.store.repos.identityIncidents.suspicions(null, q.size, offsetOf(q));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) => ({
        machineNo: r.machine_no,
        keyId: r.key_id,
        leg: r.leg,
        count: r.count,
        firstAt: formatTimestamp(r.first_at)!,
        lastAt: formatTimestamp(r.last_at)!,
      })),
    };
  }

  /** Serials that break the claim rule: machine records carrying one, and serials refused at first contact. */
  async unclaimable(p: Principal, q: Paging) {
    requireAdmin(p);
    const repo = this.deps.store.repos.identityIncidents;
    const [machines, seen] = await Promise.all([repo.unclaimableMachines(null), repo.unclaimableSeen()]);
    const all = [
      ...machines.map((m) => ({
        serial: m.machine_no,
        faults: serialFaults(m.machine_no),
        source: 'machine' as const,
        leg: null,
        attempts: null,
        firstSeenAt: formatTimestamp(m.created_at),
        lastSeenAt: null,
      })),
      ...seen.map((s) => ({
        serial: s.serial,
        faults: s.faults.split('; ').filter(Boolean),
        source: 'first-contact' as const,
        leg: s.leg,
        attempts: s.attempts,
        firstSeenAt: formatTimestamp(s.first_seen_at),
        lastSeenAt: formatTimestamp(s.last_seen_at),
      })),
    ];
    return { page: q.page, size: q.size, total: all.length, records: all.slice(offsetOf(q), offsetOf(q) + q.size) };
  }
}
