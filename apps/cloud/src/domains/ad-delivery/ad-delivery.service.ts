import type { AdEntry, AdLoopData, AdPlayRecord, Clock } from '@vend/protocol';
import type { Logger } from 'pino';
import { newId } from '../../crypto/ids.ts';
import type { CreativeRow } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore } from '../../repos.ts';
import { inFlight, resolveTargets, type FleetScreen } from '../campaigns/campaign.rules.ts';
import type { TargetGeo } from '../campaigns/campaigns.schemas.ts';
import type { CabinetCaller } from '../gateway/device-auth.ts';
import { loopShapeOf, screenOf, type ScreenBlock } from '../machines/screen.ts';
import { SupplyPopError, type PopTarget, type SupplyAdapter } from '../ssp/supply.ts';
import { headFor } from '../ssp/vistar-wire.ts';
import { completeLoop, fillWanted, planSold, type DirectCampaign, type Fill, type HousePadding, type LoopSlot, type Screensaver } from './loop-assembly.ts';
import { parsePlayedAt } from './played-at.ts';

const DAY = 86_400_000;
/** How much longer than its slot a video may run (spec 1 §8: a 15 s slot takes videos up to 16 s). */
const SLOT_TOLERANCE_S = 1;
/** A leased fill is reused while it stays good for at least one more loop. */
const FILL_REUSE_MARGIN_MS = 5 * 60_000;
export const HOUSE_HEAD = 'Advertise on this screen — scan the code to book a slot';

export interface AdDeliveryDeps {
  store: AppStore;
  clock: Clock;
  logger: Logger;
  supply: SupplyAdapter;
  /** Where a stored creative is served. */
  creativeUrl(row: CreativeRow): string;
}

/** Where a proof-of-play id came from: the loop's own id prefixes say it (loop-assembly.ts). */
function sourceOf(r: AdPlayRecord): { source: 'direct-sold' | 'programmatic' | 'house'; leaseId: string | null; campaignId: string | null } {
  if (r.id.startsWith('ssp:')) return { source: 'programmatic', leaseId: r.id.slice(4), campaignId: null };
  if (r.id.startsWith('cmp:')) return { source: 'direct-sold', leaseId: null, campaignId: r.campaignId ?? r.id.split(':')[1] ?? null };
  if (r.id.startsWith('scr:') || r.id.startsWith('house:')) return { source: 'house', leaseId: null, campaignId: null };
  const source = r.source ?? (r.campaignId !== undefined ? 'direct-sold' : 'house');
  return { source, leaseId: null, campaignId: r.campaignId ?? null };
}

/**
 * The attract loop of each machine and its proof of play (spec 2 §4.2, spec 1 §2.7): assembled per
 * poll from the campaigns in flight, the operator's screensavers, programmatic fill and house
 * content (the advertise poster only on a screen for sale); plays written once to the ledger; a
 * programmatic play's proof-of-play URL fired once.
 */
export class AdDeliveryService {
  constructor(private readonly deps: AdDeliveryDeps) {}

  async loop(caller: CabinetCaller): Promise<AdLoopData> {
    const now = this.deps.clock.now();
    const repos = this.deps.store.repos;
    const machine = await repos.adDelivery.machineScreen(caller.machineId);
    const screen = machine ? screenOf(machine) : null;
    const { slots, slotSeconds } = loopShapeOf(screen);
    const dayStart = Math.floor(now / DAY) * DAY;
    const rotation = Math.floor(now / (slots * slotSeconds * 1000));
    const operatorId = caller.operatorId;

    let direct: DirectCampaign[] = [];
    let savers: Screensaver[] = [];
    if (operatorId !== null) {
      const [campaigns, approved] = await Promise.all([repos.campaigns.activeWithCreative(operatorId), repos.screensavers.approvedFor(operatorId)]);
      const here = fleetScreenOf(caller, screen);
      const live = campaigns.filter(
        (c) =>
          inFlight({ status: 'active', flightStart: c.flight_start, flightEnd: c.flight_end, activatedAt: c.activated_at, endedAt: c.ended_at }, now) &&
          resolveTargets({ machines: parseJson<string[]>(c.target_machines_json), geo: parseJson<TargetGeo>(c.target_geo_json) }, [here]).length === 1,
      );
      const mine = approved.filter((s) => s.machines_json === null || parseJson<string[]>(s.machines_json)!.includes(caller.machineNo));
      const creatives = new Map((await repos.creatives.byIds([...live.map((c) => c.creative_id!), ...mine.map((s) => s.creative_id)])).map((c) => [c.id, c]));
      // A video longer than this screen's slot (with the upload rule's 1 s of tolerance) would be cut off: not shown here.
      const fits = (cr: CreativeRow) => cr.duration_ms === null || cr.duration_ms <= (slotSeconds + SLOT_TOLERANCE_S) * 1000;
      direct = live.flatMap((c) => {
        const cr = creatives.get(c.creative_id!);
        if (!cr || !fits(cr)) return [];
        const start = c.flight_start ?? c.activated_at ?? now;
        return [
          {
            id: c.id,
            weight: c.weight,
            url: this.deps.creativeUrl(cr),
            // what the buyer's form promised, and what a programmatic ad says: "Sponsored · <sponsor>"
            head: headFor(c.sponsor_name),
            type: kindOf(cr),
            mediaType: cr.media_type,
            startTime: start,
            endTime: c.flight_end ?? dayStart + DAY - 1,
          },
        ];
      });
      savers = mine.flatMap((s) => {
        const cr = creatives.get(s.creative_id);
        return cr && fits(cr) ? [{ id: s.id, url: this.deps.creativeUrl(cr), head: s.name, type: kindOf(cr), mediaType: cr.media_type }] : [];
      });
    }

    const { sold, unsold } = planSold({ slots, direct, screensavers: savers, rotation, dayStart, dayEnd: dayStart + DAY - 1 });
    const fills = operatorId !== null ? await this.fillsFor(caller, screen, fillWanted(unsold), slotSeconds, now) : [];
    // The advertise poster only where its QR leads to a sale; elsewhere the operator's own content again.
    const house: HousePadding = machine?.forSale
      ? {
          kind: 'advertise',
          poster: {
            url: `/advertise/poster/${encodeURIComponent(caller.machineNo)}.png`,
            head: HOUSE_HEAD,
            type: 'image',
            mediaType: 'image/png',
            startTime: dayStart,
            endTime: dayStart + DAY - 1,
          },
        }
      : { kind: 'own', screensavers: savers, rotation, dayStart, dayEnd: dayStart + DAY - 1 };
    const loop = completeLoop(sold, fills, { slots, now, house });
    return { machineCode: caller.machineNo, slotSeconds, entries: loop.map(toEntry) };
  }

  /** Unplayed fills this machine already leased come first; the supply is asked only for the rest. */
  private async fillsFor(caller: CabinetCaller, screen: ScreenBlock | null, wanted: number, slotSeconds: number, now: number): Promise<Fill[]> {
    if (wanted === 0) return [];
    const repo = this.deps.store.repos.adDelivery;
    const open = (await repo.openFills(caller.machineId, now + FILL_REUSE_MARGIN_MS)).slice(0, wanted);
    const fills: Fill[] = open.map((f) => ({ leaseId: f.lease_id, url: f.asset_url, head: 'Sponsored', mediaType: f.media_type, expiresAt: f.expires_at }));
    if (fills.length === wanted) return fills;
    const fresh = await this.deps.supply.fill({
      machineNo: caller.machineNo,
      maxFills: wanted - fills.length,
      slotSeconds,
      screen: screen
        ? {
            width: screen.resolution.width,
            height: screen.resolution.height,
            lat: screen.geo?.lat ?? null,
            lng: screen.geo?.lng ?? null,
            venueCategoryId: String(screen.venueCategoryId),
          }
        : null,
      now,
    });
    // In lease order, as `openFills` answers them next time: a loop keeps its order from poll to poll.
    const taken = fresh.slice(0, wanted - fills.length).sort((a, b) => (a.leaseId < b.leaseId ? -1 : a.leaseId > b.leaseId ? 1 : 0));
    for (const f of taken) {
      await repo.insertFill({
        lease_id: f.leaseId,
        machine_id: caller.machineId,
        provider: this.deps.supply.name,
        asset_url: f.assetUrl,
        media_type: f.mediaType,
        pop_url: f.popUrl,
        net_cpm_millis: f.netCpmMillis,
        expires_at: f.expiresAt,
        created_at: now,
      });
      fills.push({ leaseId: f.leaseId, url: f.assetUrl, head: f.head, mediaType: f.mediaType, expiresAt: f.expiresAt });
    }
    return fills;
  }

  /**
   * Proof of play: one ledger row per showing, written once — a retried batch (same machine, entry,
   * playedAt) counts as duplicates. All rows of a call land together or not at all. A campaign id
   * that is not one of the machine operator's campaigns is not credited (`unattributed`). The first
   * report of a programmatic showing claims its fill and fires the proof-of-play URL, once.
   */
  async savePlays(caller: CabinetCaller, records: readonly AdPlayRecord[]): Promise<{ accepted: number; duplicates: number; unattributed: number }> {
    const now = this.deps.clock.now();
    const parsed = records.map((r, i) => {
      const playedAt = parsePlayedAt(r.playedAt, now);
      if (playedAt === null) throw badRequest(`records.${i}.playedAt is not an ISO 8601 time or epoch milliseconds`);
      return { r, playedAt, ...sourceOf(r) };
    });
    const toFire: PopTarget[] = [];
    const result = await this.deps.store.transaction(async (tx) => {
      const named = [...new Set(parsed.map((p) => p.campaignId).filter((c): c is string => c !== null))];
      const own = new Set(caller.operatorId === null ? [] : await tx.campaigns.idsOf(caller.operatorId, named));
      let accepted = 0;
      let unattributed = 0;
      for (const p of parsed) {
        const campaignId = p.campaignId !== null && own.has(p.campaignId) ? p.campaignId : null;
        if (p.campaignId !== null && campaignId === null) unattributed++;
        const fill = p.leaseId !== null ? await tx.adDelivery.fillOf(caller.machineId, p.leaseId) : undefined;
        const inserted = await tx.adDelivery.insertPlay({
          id: newId('ply', now),
          machine_id: caller.machineId,
          entry_id: p.r.id,
          campaign_id: campaignId,
          source: p.source,
          played_at: p.playedAt,
          duration_ms: p.r.durationMs ?? null,
          received_at: now,
          lease_id: fill ? fill.lease_id : null,
        });
        if (!inserted) continue;
        accepted++;
        if (fill && (await tx.adDelivery.claimPop(fill.lease_id, p.playedAt, now)))
          toFire.push({ leaseId: fill.lease_id, popUrl: fill.pop_url, displayedAt: p.playedAt });
      }
      return { accepted, duplicates: parsed.length - accepted, unattributed };
    });
    for (const f of toFire) await this.firePop(f);
    return result;
  }

  /** Fires one claimed proof of play; a failure is recorded and retried by `retryPops` (unless the SSP refused it for good). */
  private async firePop(f: PopTarget): Promise<boolean> {
    const repo = this.deps.store.repos.adDelivery;
    try {
      await this.deps.supply.firePop(f);
      await repo.popFired(f.leaseId, this.deps.clock.now());
      return true;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const giveUp = e instanceof SupplyPopError && e.permanent;
      this.deps.logger.warn(
        { leaseId: f.leaseId, err: message, giveUp },
        giveUp ? 'proof of play refused by the SSP' : 'proof of play not delivered; will retry',
      );
      await repo.popFailed(f.leaseId, message, giveUp);
      return false;
    }
  }

  /** Fires claimed proofs of play whose first try failed (at most `maxAttempts` tries each). Resolves how many went out. */
  async retryPops(maxAttempts = 5, limit = 100): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.store.repos.adDelivery.unfiredPops(maxAttempts, now - 30_000, limit);
    let fired = 0;
    for (const f of due)
      if (await this.firePop({ leaseId: f.lease_id, popUrl: f.pop_url, ...(f.played_at !== null ? { displayedAt: f.played_at } : {}) })) fired++;
    return fired;
  }
}

const parseJson = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));
const kindOf = (cr: CreativeRow): 'image' | 'video' => (cr.kind === 'video' ? 'video' : 'image');

function fleetScreenOf(caller: CabinetCaller, screen: ScreenBlock | null): FleetScreen {
  return { id: caller.machineId, machineNo: caller.machineNo, postalCode: screen?.address.postalCode ?? null, city: screen?.address.city ?? null };
}

function toEntry(s: LoopSlot): AdEntry {
  return {
    id: s.id,
    url: s.url,
    head: s.head,
    type: s.type,
    startTime: formatTimestamp(s.startTime)!,
    endTime: formatTimestamp(s.endTime)!,
    ...(s.campaignId !== undefined ? { campaignId: s.campaignId } : {}),
    source: s.source,
    mediaType: s.mediaType,
  };
}
