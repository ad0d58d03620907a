import type { AdLoopData, AdPlayRecord, ApkEquipmentData, Clock } from '@vend/protocol';
import type { AppStore } from '../../repos.ts';
import type { AdDeliveryService } from '../ad-delivery/ad-delivery.service.ts';
import type { CabinetCaller } from '../gateway/device-auth.ts';
import type { GatewayService, SoftwareReport } from '../gateway/gateway.service.ts';

export interface ApkDeps {
  store: AppStore;
  clock: Clock;
  /** The cabinet gateway's operations family A shares. */
  gateway: GatewayService;
  /** The attract loop and its proof of play. */
  ads: AdDeliveryService;
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
      // family A's contract predates the aisles' pictures (issue 32): the Android app gets the planogram as it always has
      goods: { ...goods, aisles: goods.aisles.map(({ imageUrl: _picture, ...aisle }) => aisle) },
    };
  }

  /** The attract loop, assembled for this machine on each call. */
  adLoop(caller: CabinetCaller): Promise<AdLoopData> {
    return this.deps.ads.loop(caller);
  }

  /** Proof of play, written once per showing to the play ledger. */
  savePlays(caller: CabinetCaller, records: AdPlayRecord[]): Promise<{ accepted: number; duplicates: number; unattributed: number }> {
    return this.deps.ads.savePlays(caller, records);
  }
}
