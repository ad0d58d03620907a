import { Router } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import type { CampaignReportsService } from './campaign-reports.service.ts';
import type { CampaignsService } from './campaigns.service.ts';
import {
  Campaign,
  CampaignListQuery,
  CampaignPage,
  CampaignParams,
  CampaignReport,
  ContentxBody,
  CreateCampaignBody,
  Deleted,
  ReportsSummary,
  SummaryQuery,
  UpdateCampaignBody,
  UploadBody,
} from './campaigns.schemas.ts';

/** Screen-advertising campaigns (spec 1 §4.7). Reads need ads:read, writes ads:write; another operator's campaign is a 404. */
export function campaignsRoutes(kit: RouteKit, campaigns: CampaignsService, reports: CampaignReportsService): Router {
  const r = Router();
  const tag = 'screen advertising';
  const read = { tag, auth: 'operator' as const, scopes: ['ads:read' as const] };
  const write = { tag, auth: 'operator' as const, scopes: ['ads:write' as const] };

  defineRoute(
    r,
    kit,
    { ...write, method: 'post', path: '/api/v1/campaigns', summary: 'Create a campaign (always a draft)', body: CreateCampaignBody, response: Campaign },
    async ({ body }, req, res) => sendOk(res, await campaigns.create(principalOf(req), body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...read,
      method: 'get',
      path: '/api/v1/campaigns',
      summary: 'Campaigns, newest first; filter by status',
      query: CampaignListQuery,
      response: CampaignPage,
    },
    async ({ query }, req, res) => sendOk(res, await campaigns.list(principalOf(req), query)),
  );

  // Before /:id, so "reports" is not read as a campaign id.
  defineRoute(
    r,
    kit,
    {
      ...read,
      method: 'get',
      path: '/api/v1/campaigns/reports/summary',
      summary: 'Every campaign report, plus the loop-wide direct-sold / programmatic / house split of plays',
      query: SummaryQuery,
      response: ReportsSummary,
    },
    async ({ query }, req, res) => sendOk(res, await reports.summary(principalOf(req), query.operatorEmail)),
  );

  defineRoute(
    r,
    kit,
    { ...read, method: 'get', path: '/api/v1/campaigns/:id', summary: 'One campaign', params: CampaignParams, response: Campaign, errors: [404] },
    async ({ params }, req, res) => sendOk(res, await campaigns.get(principalOf(req), params.id)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'put',
      path: '/api/v1/campaigns/:id',
      summary: 'Change a campaign: the fields sent replace theirs (not once completed)',
      params: CampaignParams,
      body: UpdateCampaignBody,
      response: Campaign,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await campaigns.update(principalOf(req), params.id, body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'delete',
      path: '/api/v1/campaigns/:id',
      summary: 'Delete a draft (other states: 409)',
      params: CampaignParams,
      response: Deleted,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await campaigns.remove(principalOf(req), params.id)),
  );

  const lifecycle = {
    activate: 'draft or paused → active; needs a creative and a flight that has not ended',
    pause: 'active → paused',
    complete: 'active or paused → completed (final)',
  } as const;
  for (const action of ['activate', 'pause', 'complete'] as const) {
    defineRoute(
      r,
      kit,
      {
        ...write,
        method: 'post',
        path: `/api/v1/campaigns/:id/${action}`,
        summary: lifecycle[action],
        params: CampaignParams,
        response: Campaign,
        errors: [404, 409],
      },
      async ({ params }, req, res) => sendOk(res, await campaigns.transition(principalOf(req), params.id, action)),
    );
  }

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'post',
      path: '/api/v1/campaigns/:id/creative/contentx',
      summary: 'Generate a 9:16 poster from a brief with the studio and attach it (at most 3 per campaign; a studio failure is answered verbatim as 502)',
      params: CampaignParams,
      body: ContentxBody,
      response: Campaign,
      errors: [404, 409, 502],
    },
    async ({ params, body }, req, res) => sendOk(res, await campaigns.generate(principalOf(req), params.id, body.brief)),
  );

  defineRoute(
    r,
    kit,
    {
      ...write,
      method: 'post',
      path: '/api/v1/campaigns/:id/creative/upload',
      summary:
        'Attach an uploaded creative: PNG/JPEG/WebP portrait ≥ 540×960 ≤ 10 MB, or MP4 ≤ 60 MB of at most 16 s; measured from the bytes, refused with the reason',
      params: CampaignParams,
      body: UploadBody,
      response: Campaign,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await campaigns.upload(principalOf(req), params.id, body)),
  );

  defineRoute(
    r,
    kit,
    {
      ...read,
      method: 'get',
      path: '/api/v1/campaigns/:id/report',
      summary: 'Plays, estimated impressions and revenue (spec 1 §2.6)',
      params: CampaignParams,
      response: CampaignReport,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await reports.report(principalOf(req), params.id)),
  );

  return r;
}
