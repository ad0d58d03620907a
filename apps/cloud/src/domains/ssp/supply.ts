/**
 * Programmatic supply (spec 2 §4.2, step 3 of the attract loop): slots the operator has not sold are
 * offered to a supply-side platform (SSP), which leases an ad for each slot it fills. A lease carries
 * a one-shot proof-of-play (PoP) URL: the SSP pays for the play once that URL is fetched, once.
 *
 * The loop assembly asks an adapter for fills and the play ledger fires each PoP through it. Which
 * adapter runs is decided once at start (`supplyFor` in supply-factory.ts): an outside SSP over HTTP
 * (`HttpSupply`), the built-in mock in sandbox mode (`InProcessSupply`), or `NoSupply`.
 */

/** Where and what the slots to fill are. */
export interface SupplyScreen {
  /** Panel resolution in pixels (portrait: width < height). */
  width: number;
  height: number;
  lat: number | null;
  lng: number | null;
  /** OpenOOH venue category id, when the operator set one. */
  venueCategoryId: string | null;
}

export interface SupplyRequest {
  /** The machine's serial: the SSP's `device_id` (and `venue_id`: one screen per venue here). */
  machineNo: string;
  /** At most this many fills are answered; the loop passes min(3, unsold slots). 0 or less asks nothing. */
  maxFills: number;
  /** Length of one loop slot; an ad is asked to run exactly this long. */
  slotSeconds: number;
  /** The machine's screen block; null when the operator set none (a 1080×1920 portrait panel is assumed). */
  screen: SupplyScreen | null;
  /** Epoch ms (the injected clock): the SSP's `display_time`, and what "expired" is judged against. */
  now: number;
}

/** One leased slot. */
export interface SupplyFill {
  /** The SSP's lease id (unique per provider); the key of the play ledger's fill. */
  leaseId: string;
  /** The creative: absolute http(s) URL, or a path on this service for the in-process mock (like the house poster). */
  assetUrl: string;
  /** MIME type of the creative: image/png, image/jpeg, image/webp or video/mp4 (nothing else is accepted). */
  mediaType: string;
  /** The one-shot proof-of-play URL (absolute for an outside SSP; a path for the in-process mock). */
  popUrl: string;
  /** Net CPM the SSP pays, in thousandths of the currency unit (12.0 → 12000); 0 when it does not say. */
  netCpmMillis: number;
  /** Epoch ms after which the lease may not be played (its PoP would be refused). */
  expiresAt: number;
  /** Caption for the loop entry's `head`: "Sponsored · <advertiser>", or "Sponsored". */
  head: string;
}

/** What a PoP call needs; `displayedAt` (epoch ms) is passed to the SSP as `display_time` when given. */
export interface PopTarget {
  leaseId: string;
  popUrl: string;
  displayedAt?: number;
}

/** Running counts of one adapter since start, for a status view. */
export interface SupplyStats {
  /** `fill` calls that asked the SSP (maxFills > 0). */
  requests: number;
  /** Fills answered in total. */
  fills: number;
  /** `fill` calls that answered [] because the SSP failed, timed out, refused or answered junk. */
  failures: number;
  /** Ads the SSP answered that were dropped (unusable media type or URL, already expired, duplicate lease). */
  dropped: number;
  /** The last failure's reason and when (epoch ms, the `now` of the request that failed). */
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface SupplyAdapter {
  /** Provider name recorded with each fill (`ad_fills.provider`): `mock`, `vistar`, `none`. */
  readonly name: string;
  /**
   * Leases at most `req.maxFills` ads. Never throws and never hangs the caller: on any upstream
   * failure or timeout it answers [] (the failure is logged and counted in `stats()`).
   */
  fill(req: SupplyRequest): Promise<SupplyFill[]>;
  /**
   * Fires a fill's one-shot PoP. Resolves when the SSP took it or says it already has it (409:
   * idempotent from our side). Throws `SupplyPopError` otherwise; `permanent` says retrying cannot help.
   */
  firePop(fill: PopTarget): Promise<void>;
  stats(): SupplyStats;
}

/** A PoP the SSP did not take. `permanent`: the SSP refused it for good (unknown or expired lease, 4xx) — stop retrying. */
export class SupplyPopError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'SupplyPopError';
  }
}

/** Where adapters report a failed fill or PoP (the service's pino logger fits). */
export interface SupplyLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

/** Counts of one adapter; `fail` records a failure and when it happened. */
export class SupplyCounters {
  #s: SupplyStats = { requests: 0, fills: 0, failures: 0, dropped: 0, lastError: null, lastErrorAt: null };

  asked(): void {
    this.#s.requests += 1;
  }

  answered(fills: number, dropped: number): void {
    this.#s.fills += fills;
    this.#s.dropped += dropped;
  }

  fail(reason: string, at: number): void {
    this.#s.failures += 1;
    this.#s.lastError = reason;
    this.#s.lastErrorAt = at;
  }

  snapshot(): SupplyStats {
    return { ...this.#s };
  }
}

/** Production without an SSP: fills nothing; a PoP cannot be fired (there is no one to fire it at). */
export class NoSupply implements SupplyAdapter {
  readonly name = 'none';
  readonly #counters = new SupplyCounters();

  fill(): Promise<SupplyFill[]> {
    return Promise.resolve([]);
  }

  firePop(fill: PopTarget): Promise<void> {
    return Promise.reject(new SupplyPopError(`no supply adapter is configured to fire the PoP of lease ${fill.leaseId}`, true));
  }

  stats(): SupplyStats {
    return this.#counters.snapshot();
  }
}

/** The default screen when a machine has none set: the loop's portrait panel. */
export const DEFAULT_SUPPLY_SCREEN = { width: 1080, height: 1920 } as const;

/** Media a kiosk can play; anything else an SSP answers is dropped. */
export const PLAYABLE_MEDIA = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'] as const;

/** The fill cap of spec 2 §4.2: at most 3 programmatic slots per loop. */
export const MAX_FILLS_PER_LOOP = 3;
