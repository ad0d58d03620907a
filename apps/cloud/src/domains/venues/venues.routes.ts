import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { VenuesService } from './venues.service.ts';
import { CreateVenueBody, PatchVenueBody, Venue, VenueListQuery, VenuePage, VenueParams } from './venues.schemas.ts';

/** Host venues (spec 1 §4.8): writes need machines:write (they move machines), reads machines:read. */
export function venuesRoutes(kit: RouteKit, venues: VenuesService): Router {
  const r = Router();
  const tag = 'finance';

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/crm/venues',
      tag,
      summary:
        'Create a host venue; naming machines moves them there (commission from now, or from deploymentDate / the first sale for a machine that already sold and is at no other venue)',
      auth: 'operator',
      scopes: ['machines:write'],
      body: CreateVenueBody,
      response: Venue,
    },
    async ({ body }, req, res) => sendOk(res, await venues.create(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crm/venues',
      tag,
      summary: 'Venues, oldest first, each with its machines, when their commission accrues from and every past stay',
      auth: 'operator',
      scopes: ['machines:read'],
      query: VenueListQuery,
      response: VenuePage,
    },
    async ({ query }, req, res) => sendOk(res, await venues.list(principalOf(req), query)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/crm/venues/:id',
      tag,
      summary: 'One venue with its machines, their commission start and rule, and every past stay',
      auth: 'operator',
      scopes: ['machines:read'],
      params: VenueParams,
      response: Venue,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await venues.get(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'patch',
      path: '/api/v1/crm/venues/:id',
      tag,
      summary: 'Change a venue; machineNos is the whole new list (left-out machines are detached, new ones moved in by the same accrual rule)',
      auth: 'operator',
      scopes: ['machines:write'],
      params: VenueParams,
      body: PatchVenueBody,
      response: Venue,
      errors: [404],
    },
    async ({ params, body }, req, res) => sendOk(res, await venues.update(principalOf(req), params.id, body)),
  );
  return r;
}
