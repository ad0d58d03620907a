import { Router, type Request } from 'express';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { CreativeParams, GetAdAnswer, GetAdBody, PopParams, PopQuery, Receipt, ReceiptsPage, ReceiptsQuery } from './mock-ssp.schemas.ts';
import { MOCK_SSP, type MockSspService } from './mock-ssp.service.ts';

/** The tag of the mock SSP's routes in the API document. */
export const MOCK_SSP_TAG = 'mock SSP';

const NOTE =
  'The sandbox’s built-in supply-side platform, standing in for an outside SSP (Vistar-style wire format). ' +
  'Success bodies are the SSP’s own JSON, not the `{code, message, data}` envelope; errors use the envelope. No operator key: these are the SSP’s own endpoints.';

/** The request's own origin. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/**
 * The mock SSP (spec 2 §4.2): get_ad, the one-shot PoP, receipts and its creatives. Mounted in
 * sandbox mode only (app.ts).
 */
export function mockSspRoutes(kit: RouteKit, mock: MockSspService): Router {
  const r = Router();

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/ssp/mock/get_ad/json',
      operationId: 'postSspMockGetAdJson', // the derived id would keep get_ad's underscore
      tag: MOCK_SSP_TAG,
      summary: 'Lease ads for a screen: one per display area that takes image/png, at most 3',
      description:
        `${NOTE}\n\nThe body names the network and key (sandbox: \`network_id\` \`${MOCK_SSP.networkId}\`, \`api_key\` \`${MOCK_SSP.apiKey}\`; others are 401), ` +
        'the screen (`device_id`, `venue_id`, `latitude`, `longitude`) and its `display_area`s. Each answered ad is a lease good for one hour at net CPM 12.0, ' +
        'with a one-shot `proof_of_play_url` and `lease_expiry` in unix seconds. Unknown fields are ignored. An empty `advertisement` list means no fill.',
      auth: 'none',
      body: GetAdBody,
      response: GetAdAnswer,
      envelope: false,
      errors: [401],
      errorExamples: { 401: 'Invalid API key: unknown network_id or api_key' },
    },
    async ({ body }, req, res) => {
      res.status(200).json(await mock.getAd(body, originOf(req)));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/ssp/mock/pop/:leaseId',
      tag: MOCK_SSP_TAG,
      summary: 'Proof of play for a lease: taken once',
      description:
        `${NOTE}\n\nThe first call for a live lease takes it and answers its receipt; any later call is 409 (already popped), ` +
        'an unknown lease 404, a lease past its `lease_expiry` 410. `display_time` (unix seconds) is accepted as Vistar sends it; the mock records when the PoP arrived.',
      auth: 'none',
      params: PopParams,
      query: PopQuery,
      response: Receipt,
      envelope: false,
      errors: [404, 409, 410],
      errorExamples: {
        404: 'Lease not found',
        409: 'Lease already popped at 2026-11-20T12:00:00.000+0000',
        410: 'Lease expired at 2026-11-20T13:00:00.000+0000',
      },
    },
    async ({ params }, _req, res) => {
      res.status(200).json(await mock.pop(params.leaseId));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/ssp/mock/receipts',
      tag: MOCK_SSP_TAG,
      summary: 'Leases whose proof of play arrived, newest first',
      description: `${NOTE}\n\nOne receipt per popped lease (a lease pops once), optionally of one \`device_id\` (a machine's serial); paged with \`page\` and \`size\`.`,
      auth: 'none',
      query: ReceiptsQuery,
      response: ReceiptsPage,
      envelope: false,
    },
    async ({ query }, _req, res) => {
      res.status(200).json(await mock.receipts(query));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/ssp/mock/creative/:file',
      tag: MOCK_SSP_TAG,
      summary: 'A mock creative: 1080×1920 PNG (`1.png` … `3.png`)',
      auth: 'none',
      params: CreativeParams,
      contentType: 'image/png',
      errors: [404],
      errorExamples: { 404: 'Creative not found' },
    },
    async ({ params }, _req, res) => {
      const png = await mock.creativePng(params.file);
      res.status(200).type('image/png').setHeader('cache-control', 'public, max-age=86400, immutable');
      res.send(png);
    },
  );

  return r;
}
