import type { UpgradeOffer } from '@vend/protocol';
import type { AppStore } from '../../repos.ts';
import { machineNotFound } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import { decide, inCohort } from './offer.ts';
import { pinData, reportBlocks, toPolicy, toRelease } from './release-views.ts';
import type { MachineAgentData } from './releases.schemas.ts';

export interface UpgradeOffersDeps {
  store: AppStore;
}

/** What each cabinet is offered (spec 2 §4.4): the published releases, the rollout and its pin, decided by the pure `decide` in offer.ts. */
export class UpgradeOffersService {
  constructor(private readonly deps: UpgradeOffersDeps) {}

  /** The releases in publish order and the fleet's rollout: what every offer is decided from. */
  async policy() {
    const repo = this.deps.store.repos.releases;
    const [rows, rollout] = await Promise.all([repo.releases(), repo.rollout()]);
    return { releases: rows.map(toRelease), rolloutRow: rollout, rollout: toPolicy(rollout) };
  }

  /**
   * What `/cabinet/upgrade` answers for a resolved cabinet: its offer, or null. `agentVersion` and `arch`
   * are what the query says is running; without them the last ones the cabinet reported stand in.
   */
  async offerForCabinet(machineId: string, agentVersion?: string | null, arch?: string | null): Promise<UpgradeOffer | null> {
    const repos = this.deps.store.repos;
    const m = await repos.machines.machineById(machineId);
    if (!m) return null;
    const [{ releases, rollout }, pin] = await Promise.all([this.policy(), repos.releases.pin(machineId)]);
    return decide({
      running: agentVersion ?? m.agent_version,
      arch: arch ?? m.agent_arch,
      machineCode: m.machine_no,
      releases,
      rollout,
      pin: pin ? { version: pin.version } : null,
    }).offer;
  }

  /** GET /machines/{no}/agent: the cabinet's version, pin, current offer and its deferral/blocked blocks. */
  async machineAgent(machineNo: string): Promise<MachineAgentData> {
    const repos = this.deps.store.repos;
    const m = await repos.machines.machineByNo(machineNo);
    if (!m) throw machineNotFound();
    const [{ releases, rollout }, pin, reports] = await Promise.all([this.policy(), repos.releases.pin(m.id), repos.releases.reports(m.id)]);
    const decision = decide({
      running: m.agent_version,
      arch: m.agent_arch,
      machineCode: m.machine_no,
      releases,
      rollout,
      pin: pin ? { version: pin.version } : null,
    });
    return {
      machineNo: m.machine_no,
      agentVersion: m.agent_version,
      arch: m.agent_arch,
      lastSeen: formatTimestamp(m.last_seen === null ? null : Number(m.last_seen)),
      pin: pin ? pinData(pin) : null,
      target: decision.target,
      inCohort: rollout !== null && inCohort(m.machine_no, rollout),
      offer: decision.offer,
      offerReason: decision.reason,
      ...reportBlocks(reports, decision),
    };
  }
}
