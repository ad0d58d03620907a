import { Router } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { DoohInventoryService } from './dooh-inventory.service.ts';
import { DoohInventoryPage, InventoryQuery, VenueTypesView } from './dooh.schemas.ts';

/** The tag of the screen-advertising routes (spec 1 §4.7). */
export const SCREEN_ADS_TAG = 'screen advertising';

/** DOOH supply: the screen inventory export and the venue taxonomy it uses (spec 1 §4.7). */
export function doohInventoryRoutes(kit: RouteKit, dooh: DoohInventoryService): Router {
  const r = Router();

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/dooh/inventory',
      tag: SCREEN_ADS_TAG,
      summary: 'Screen inventory export for supply-side platform onboarding (machines with a screen block only)',
      description:
        'One record per screen: machines that have a screen block (`PUT /api/v1/machines/{machineNo}/screen`) and are not retired; ' +
        'operators see their own, admin credentials every operator’s (filterable by `operatorEmail`). OpenOOH 1.1 venue ids, geo, ' +
        'operating hours, loop shape, impressions per play, spot lengths and media types. Ordered by machineNo.',
      auth: 'operator',
      scopes: ['ads:read'],
      query: InventoryQuery,
      response: DoohInventoryPage,
    },
    async ({ query }, req, res) => sendOk(res, await dooh.inventory(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/dooh/venue-types',
      tag: SCREEN_ADS_TAG,
      summary: 'The OpenOOH 1.1 venue taxonomy: the ids a screen block’s venueCategoryId is chosen from',
      description: 'Public reference data (no credential). A screen takes a child or grandchild type; `assignable` says which.',
      auth: 'none',
      response: VenueTypesView,
    },
    (_input, _req, res) => {
      res.setHeader('Cache-Control', 'public, max-age=86400');
      sendOk(res, dooh.venueTypes());
    },
  );

  return r;
}
