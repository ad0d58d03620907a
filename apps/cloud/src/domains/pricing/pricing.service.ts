import type { Clock } from '@vend/protocol';
import { CATALOGS, catalogAt, type PricingCatalog } from './catalog.ts';
import type { AdPricing, SubscriptionPricing } from './pricing.schemas.ts';

export interface PricingDeps {
  clock: Clock;
  /** The published catalogs (default CATALOGS); tests hand in their own. */
  catalogs?: readonly PricingCatalog[];
}

/** Stated once, answered with the price list: how every quote is computed. */
export const QUOTE_RULE =
  'total = rate(sponsorType) × volume multiplier × slots × machines × months, in integer cents: the multiplier is in basis points, ' +
  'the exact product is divided by 10000 and rounded half up once, at the end. The total is split between operators pro rata ' +
  'by machine count (largest remainder), so the parts sum to the total.';

/** The public price lists (spec 1 §2.10): the catalog in force now, by the injected clock. */
export class PricingService {
  constructor(private readonly deps: PricingDeps) {}

  /** The catalog in force now. */
  current(): PricingCatalog {
    return catalogAt(this.deps.clock.now(), this.deps.catalogs ?? CATALOGS);
  }

  adPricing(): AdPricing {
    const c = this.current();
    const tiers = c.ad.volumeTiers;
    return {
      version: c.version,
      effectiveDate: c.effectiveDate,
      currency: c.currency,
      rates: { ...c.ad.rates },
      volumeTiers: tiers.map((t, i) => ({
        minMachines: t.minMachines,
        maxMachines: i + 1 < tiers.length ? tiers[i + 1]!.minMachines - 1 : null,
        multiplierBps: t.multiplierBps,
      })),
      slotTiers: { ...c.ad.slotTiers },
      months: { ...c.ad.months },
      monthDays: 30,
      generationsPerPurchase: c.ad.generationsPerPurchase,
      rule: QUOTE_RULE,
    };
  }

  subscriptionPricing(): SubscriptionPricing {
    const c = this.current();
    return { version: c.version, effectiveDate: c.effectiveDate, currency: c.currency, ...c.subscription };
  }
}
