import { z } from 'zod';
import { Router, type RequestHandler } from 'express';
import { principalOf } from '../../http/authenticate.ts';
import { sendOk } from '../../http/envelope.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { Deal } from '../dfy/deals/dfy.schemas.ts';
import { CALLBACK_SIGNATURE_HEADER } from './channels/callback-signature.ts';
import { INBOUND_CALLBACK_PATH, STATUS_CALLBACK_PATH, type OutreachService } from './outreach.service.ts';
import { UNSUBSCRIBE_PATH } from './touch-plan.ts';
import {
  CallbackResult,
  DealParams,
  DirectoryPage,
  Draft,
  DraftBody,
  ImportBody,
  ImportResult,
  InboundCallback,
  Preview,
  Shortlist,
  ShortlistAcceptBody,
  ShortlistQuery,
  StartBody,
  StatusCallback,
  StepResult,
  TokenParams,
} from './outreach.schemas.ts';

const P = '/api/v1/dfy';

/**
 * Done-for-you outreach (spec 3 §4; docs/decisions/outreach.md): the venue directory and shortlist, outreach
 * start/preview, the intro draft (reads need machines:read, writes machines:write; every deal and venue is the
 * caller's own, others 404); the provider's signed callbacks and the unsubscribe link (no credential).
 */
export function outreachRoutes(kit: RouteKit, outreach: OutreachService): Router {
  const r = Router();
  const tag = 'dfy outreach';
  const R = { auth: 'operator' as const, scopes: ['machines:read' as const], tag };
  const W = { auth: 'operator' as const, scopes: ['machines:write' as const], tag };
  const signed =
    (path: string): RequestHandler =>
    (req, _res, next) => {
      outreach.verifyCallback(path, req.body, req.headers[CALLBACK_SIGNATURE_HEADER]);
      next();
    };

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/directory/import`,
      ...W,
      summary: 'Import venues into the directory the shortlist is scored from (JSON; a venue of the same name is updated)',
      body: ImportBody,
      response: ImportResult,
    },
    async ({ body }, req, res) => sendOk(res, await outreach.importDirectory(principalOf(req), body.venues)),
  );
  defineRoute(r, kit, { method: 'get', path: `${P}/directory`, ...R, summary: "The caller's venue directory", response: DirectoryPage }, async (_i, req, res) =>
    sendOk(res, await outreach.directory(principalOf(req))),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/deals/:dealId/shortlist`,
      ...R,
      summary: 'The directory scored for the deal: foot traffic for its tier, distance to the spot asked for, vertical, reachability',
      params: DealParams,
      query: ShortlistQuery,
      response: Shortlist,
      errors: [404],
    },
    async ({ params, query }, req, res) => sendOk(res, await outreach.shortlist(principalOf(req), params.dealId, query)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/deals/:dealId/shortlist/accept`,
      ...W,
      summary: 'Accept a shortlisted venue: the scout result (resolves scout_outreach; shortlisting → outreach)',
      params: DealParams,
      body: ShortlistAcceptBody,
      response: Deal,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await outreach.acceptShortlisted(principalOf(req), params.dealId, body.venueId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/deals/:dealId/outreach/start`,
      ...W,
      summary: 'Start outreach (optional channelOrder) and send the first touch; on a started run, the next touch on demand',
      params: DealParams,
      body: StartBody,
      response: StepResult,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await outreach.start(principalOf(req), params.dealId, body)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: `${P}/deals/:dealId/outreach/preview`,
      ...R,
      summary: 'The exact per-channel renders of the next touch for the current stage, and whether each channel could carry it now',
      params: DealParams,
      response: Preview,
      errors: [404, 409],
    },
    async ({ params }, req, res) => sendOk(res, await outreach.preview(principalOf(req), params.dealId)),
  );
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: `${P}/deals/:dealId/assist/outreach-draft`,
      ...R,
      summary: 'Draft an intro e-mail for the deal’s venue from the script library (nothing is sent)',
      params: DealParams,
      body: DraftBody,
      response: Draft,
      errors: [404, 409],
    },
    async ({ params, body }, req, res) => sendOk(res, await outreach.draft(principalOf(req), params.dealId, body.senderName)),
  );

  const callbackDoc = {
    method: 'post' as const,
    tag,
    auth: 'signature' as const,
    signatureScheme: 'outreachSignature' as const,
    // providers post forms (Twilio's way); a JSON body of the same fields is accepted too
    bodyContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
    response: CallbackResult,
    errors: [401],
  };
  defineRoute(
    r,
    kit,
    {
      ...callbackDoc,
      path: STATUS_CALLBACK_PATH,
      summary:
        'Provider delivery status (signed: X-Outreach-Signature = base64 HMAC-SHA256 of the path then each form field, sorted, name then value); a failure raises contact_verify',
      body: StatusCallback,
    },
    [signed(STATUS_CALLBACK_PATH)],
    async ({ body }, _req, res) => sendOk(res, await outreach.statusCallback(body)),
  );
  defineRoute(
    r,
    kit,
    {
      ...callbackDoc,
      path: INBOUND_CALLBACK_PATH,
      summary: 'A venue’s reply by text or e-mail (signed like the status callback): STOP opts out at once, anything else raises reply_review',
      body: InboundCallback,
    },
    [signed(INBOUND_CALLBACK_PATH)],
    async ({ body }, _req, res) => sendOk(res, await outreach.inbound(body)),
  );
  for (const method of ['get', 'post'] as const) {
    defineRoute(
      r,
      kit,
      {
        method,
        path: `${UNSUBSCRIBE_PATH}/:token`,
        tag,
        auth: 'none',
        summary: method === 'get' ? 'The unsubscribe link of an outreach e-mail: the address is never e-mailed again' : 'RFC 8058 one-click unsubscribe',
        params: TokenParams,
        response: z.object({ unsubscribed: z.boolean() }),
        errors: [404],
      },
      async ({ params }, _req, res) => sendOk(res, await outreach.unsubscribe(params.token)),
    );
  }

  return r;
}
