import type { ControlPlanogram, ControlStatus, FeatureFlags, KioskItem, KioskScreen } from '@vend/protocol';
import type { CheckoutTracker } from './checkout-tracker.ts';

export interface StorefrontDeps {
  machineCode: string;
  /** The cloud's goods, cached (cloud/planogram-cache.ts): stale while the cloud is away. */
  planogram: (signal: AbortSignal) => Promise<ControlPlanogram>;
  /** The daemon's status view: the cloud's reachability and the board's state. */
  status: () => Pick<ControlStatus, 'cloud' | 'board'>;
  features: () => FeatureFlags;
  /** The cloud answered 410 to this cabinet: retired. */
  retired: () => boolean;
  checkout: Pick<CheckoutTracker, 'busy'>;
  /** The cloud's base URL: product pictures the cloud names by path load from there. */
  cloudUrl: string;
}

/** An aisle as the shopper sees it: only a stocked, priced, working lane can be bought. */
export function itemOf(a: ControlPlanogram['aisles'][number], cloudUrl: string): KioskItem {
  const state: KioskItem['state'] = a.faulted ? 'faulted' : a.priceCents <= 0 ? 'unpriced' : a.stock <= 0 ? 'sold_out' : 'available';
  const image = a.imageUrl ?? null;
  return {
    aisleNo: a.aisleNo,
    name: a.name ?? a.sku ?? `Aisle ${a.aisleNo}`,
    priceCents: a.priceCents,
    stock: Math.max(0, a.stock),
    state,
    imageUrl: image === null ? null : URL.canParse(image, `${cloudUrl}/`) ? new URL(image, `${cloudUrl}/`).toString() : null,
  };
}

/**
 * The board can vend: it answers, and nothing but single lanes is wrong (a jammed lane is that lane's fault,
 * shown on its item by the cloud's faulted flag; a lift or drop-sensor fault stops every vend).
 */
export function boardCanVend(board: Pick<ControlStatus['board'], 'state' | 'problems'>): boolean {
  if (board.state === 'unavailable') return false;
  if (board.state !== 'fault') return true;
  return board.problems.length > 0 && board.problems.every((p) => p === 'a lane is jammed');
}

/**
 * What the kiosk's screen shows besides the loop (`GET /v1/kiosk/screen`): the goods, and the states a
 * shopper must be told plainly — the cloud away (the loop goes on; paying by phone is unavailable), the
 * board faulted, the machine retired, a purchase under way.
 */
export async function storefrontView(d: StorefrontDeps, signal: AbortSignal): Promise<KioskScreen> {
  const planogram = await d.planogram(signal);
  const { cloud, board } = d.status();
  const retired = d.retired();
  // lanes never set up (no product, no stock) are not shown at all
  const items = planogram.aisles.filter((a) => a.name !== null || a.sku !== null || a.stock > 0).map((a) => itemOf(a, d.cloudUrl));
  const reason = retired
    ? 'This machine is out of service'
    : !cloud.reachable
      ? 'Paying by phone is unavailable: the machine cannot reach the network right now'
      : !boardCanVend(board)
        ? 'This machine cannot vend right now'
        : null;
  return {
    machineCode: d.machineCode,
    features: { ...d.features() },
    cloud: { reachable: cloud.reachable, lastContactAt: cloud.lastAnswerAt },
    board: { state: board.state, fault: board.problems.length > 0 ? board.problems.join(', ') : board.state === 'unavailable' ? board.lastError : null },
    retired,
    currency: planogram.currency,
    items,
    goodsFetchedAt: planogram.fetchedAt,
    goodsStale: planogram.stale,
    payByPhone: reason === null,
    payByPhoneReason: reason,
    busy: d.checkout.busy,
  };
}
