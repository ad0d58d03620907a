import type { AdLoopData, AdPlayRecord, ApkEquipmentData, Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import { badRequest } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import type { CabinetCaller } from '../gateway/device-auth.ts';
import type { GatewayService, SoftwareReport } from '../gateway/gateway.service.ts';
import { HOUSE_PREFIX, SLOT_SECONDS, houseLoop, parsePlayedAt } from './ad-loop.ts';

export interface ApkDeps {
  store: AppStore;
  clock: Clock;
  /** The cabinet gateway's operations family A shares. */
  gateway: GatewayService;
}

/** Family-A routes (spec 2 §4.2): the Android vending app's view of the same cabinet gateway. */
export class ApkService {
  constructor(private readonly deps: ApkDeps) {}

  /**
   * First contact: the board (provisioned into the pool if unseen), its configuration and goods. The
   * controller firmware it names is recorded; its app version is not (spec 2 §2.5: `apkVersion` is
   * written only by `apkUp`).
   */
  async equipment(caller: CabinetCaller, software: SoftwareReport): Promise<ApkEquipmentData> {
    const gateway = this.deps.gateway;
    await gateway.recordSoftware(caller, software.vmcVersion !== undefined ? { vmcVersion: software.vmcVersion } : {});
    const machine = await this.deps.store.repos.machines.machineById(caller.machineId);
    const [config, goods] = await Promise.all([gateway.configFor(caller.machineId, caller.machineNo), gateway.goods(caller)]);
    return {
      machineCode: caller.machineNo,
      name: machine?.name ?? caller.machineNo,
      claimed: caller.operatorId !== null,
      provisioned: caller.provisioned,
      config,
      goods,
    };
  }

  /** The attract loop: house content only for now (the ads issue adds campaigns, screensavers and programmatic fill). */
  adLoop(caller: CabinetCaller): AdLoopData {
    return {
      machineCode: caller.machineNo,
      slotSeconds: SLOT_SECONDS,
      entries: houseLoop(caller.machineNo, this.deps.clock.now(), (ms) => formatTimestamp(ms)!),
    };
  }

  /**
   * Proof of play: one row per showing, written once. A retried upload of the same showing
   * (machine, entry, playedAt) counts as a duplicate. All records of one call land together or not at all.
   */
  async savePlays(caller: CabinetCaller, records: AdPlayRecord[]): Promise<{ accepted: number; duplicates: number }> {
    const now = this.deps.clock.now();
    const rows = records.map((r, i) => {
      const playedAt = parsePlayedAt(r.playedAt, now);
      if (playedAt === null) throw badRequest(`records.${i}.playedAt is not an ISO 8601 time or epoch milliseconds`);
      const source = r.source ?? (r.id.startsWith(HOUSE_PREFIX) ? 'house' : r.campaignId !== undefined ? 'direct-sold' : 'house');
      return {
        id: newId('ply', now),
        machine_id: caller.machineId,
        entry_id: r.id,
        campaign_id: r.campaignId ?? null,
        source,
        played_at: playedAt,
        duration_ms: r.durationMs ?? null,
        received_at: now,
      };
    });
    return this.deps.store.transaction(async (tx) => {
      let accepted = 0;
      for (const row of rows) if (await tx.gateway.insertPlay(row)) accepted++;
      return { accepted, duplicates: rows.length - accepted };
    });
  }
}
