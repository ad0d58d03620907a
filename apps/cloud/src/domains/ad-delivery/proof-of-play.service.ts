import { isClaimableSerial } from '@vend/protocol';
import { ownerFilter } from '../../http/authenticate.ts';
import { offsetOf } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import { requireMachineAccess } from '../machines/ownership.ts';
import type { PlayPage, ProofOfPlayQuery } from './proof-of-play.schemas.ts';

export interface ProofOfPlayDeps {
  store: AppStore;
}

/** The play ledger as operators read it (spec 1 §2.7): newest first, filtered by machine, campaign, source and time. */
export class ProofOfPlayService {
  constructor(private readonly deps: ProofOfPlayDeps) {}

  async list(p: Principal, q: ProofOfPlayQuery): Promise<PlayPage> {
    const repos = this.deps.store.repos;
    let machineId: string | undefined;
    if (q.machineNo !== undefined) {
      machineId = requireMachineAccess(p, isClaimableSerial(q.machineNo) ? await repos.machines.machineByNo(q.machineNo) : undefined).id;
    }
    const filter = {
      operatorId: ownerFilter(p),
      machineId,
      campaignId: q.campaignId,
      source: q.source,
      since: q.since === undefined ? undefined : Date.parse(q.since),
    };
    const { total, rows } = await repos.adDelivery.playsPage(filter, q.size, offsetOf(q));
    return {
      page: q.page,
      size: q.size,
      total,
      records: rows.map((r) => ({
        id: r.id,
        machineNo: r.machine_no,
        entryId: r.entry_id,
        campaignId: r.campaign_id,
        source: r.source as PlayPage['records'][number]['source'],
        leaseId: r.lease_id,
        playedAt: formatTimestamp(r.played_at)!,
        durationMs: r.duration_ms,
        receivedAt: formatTimestamp(r.received_at)!,
      })),
    };
  }
}
