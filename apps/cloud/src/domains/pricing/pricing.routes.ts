import { Router, type Response } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { AdPricing, SubscriptionPricing } from './pricing.schemas.ts';
import type { PricingService } from './pricing.service.ts';

/** Public price lists may be cached briefly (a new version takes effect at a day's start). */
const cacheable = (res: Response) => res.setHeader('Cache-Control', 'public, max-age=300');

/** The public price lists (spec 1 §2.10): no key, the envelope, integer cents. */
export function pricingRoutes(kit: RouteKit, pricing: PricingService): Router {
  const r = Router();
  const base = { tag: 'pricing', auth: 'none' as const };

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'get',
      path: '/api/v1/pricing',
      summary: 'The self-serve screen-ad price list in force: rates per machine per month per slot, volume tiers, slot tiers, months',
      response: AdPricing,
    },
    (_input, _req, res) => {
      cacheable(res);
      sendOk(res, pricing.adPricing());
    },
  );

  defineRoute(
    r,
    kit,
    {
      ...base,
      method: 'get',
      path: '/api/v1/subscriptions/pricing',
      summary: 'The operator subscription in force: per device per month, trial and period',
      response: SubscriptionPricing,
    },
    (_input, _req, res) => {
      cacheable(res);
      sendOk(res, pricing.subscriptionPricing());
    },
  );

  return r;
}
