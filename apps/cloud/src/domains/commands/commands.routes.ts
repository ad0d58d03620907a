import { Router } from 'express';
import type { AppContext } from '../../context.ts';
import { sendOk } from '../../http/envelope.ts';
import { guard } from '../../http/guard.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { offsetOf } from '../../http/paging.ts';
import { defineLegacyRoute } from '../../http/route.ts';
import { insufficientScope } from '../../http/errors.ts';
import { CommandsService } from './commands.service.ts';
import {
  AckBody,
  AckData,
  ApiDropBody,
  CommandData,
  CommandPage,
  CommandParams,
  DispenseBody,
  EnqueueData,
  FulfillBody,
  FulfillChannel,
  FulfillData,
  ListQuery,
  MachineParams,
  WalkupBody,
} from './commands.schemas.ts';
import { z } from 'zod';

/** Remote dispense (spec 1 §4.6): routes parse and authorise; the rules live in CommandsService. */
export function commandsRoutes(ctx: AppContext): Router {
  const service = new CommandsService({ db: ctx.database.db, clock: ctx.clock, audit: ctx.audit, pending: ctx.pendingNotifier });
  const r = Router();
  const docs = ctx.docs;
  const tag = 'remote dispense';

  // The scope depends on the channel (machines:read for walkup, commands:write for api_drop), so the
  // channel is parsed first and the scope checked after it.
  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/fulfill',
      tag,
      summary: 'Fulfil a sale: walkup (the firmware drops; no command) or api_drop (enqueues a pending command)',
      auth: 'operator',
      scopes: ['machines:read', 'commands:write'],
      body: FulfillBody,
      response: FulfillData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    ...guard(ctx),
    async (req, res) => {
      const p = principalOf(req);
      const { channel } = parseInput(FulfillChannel, req.body, 'body');
      if (channel === 'walkup') {
        if (!p.scopes.has('machines:read')) throw insufficientScope();
        const body = parseInput(WalkupBody, req.body, 'body');
        const machine = await service.machineFor(p, body.machineNo);
        sendOk(res, {
          channel: 'walkup',
          machineNo: machine.machine_no,
          dispense: false,
          detail: 'The machine firmware drops the product after local payment; no command was created.',
        });
        return;
      }
      if (!p.scopes.has('commands:write')) throw insufficientScope();
      const body = parseInput(ApiDropBody, req.body, 'body');
      const command = await service.enqueue(p, body.machineNo, { aisleNo: body.aisleNo, reason: body.reason, externalRef: body.externalRef });
      sendOk(res, { ...command, dispense: true });
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/commands/dispense',
      tag,
      summary: 'Enqueue a remote drop; a repeated externalRef answers the existing command (duplicate: true)',
      auth: 'operator',
      scopes: ['commands:write'],
      params: MachineParams,
      body: DispenseBody,
      response: EnqueueData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    ...guard(ctx, 'commands:write'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineParams, req.params, 'params');
      const body = parseInput(DispenseBody, req.body, 'body');
      sendOk(res, await service.enqueue(principalOf(req), machineNo, { aisleNo: body.aisleNo, reason: body.reason, externalRef: body.externalRef ?? null }));
    },
  );

  // Declared before /commands/:commandId so that "pending" is never read as a command id.
  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands/pending',
      tag,
      summary: "Pending commands, oldest first (the device agent's poll; at most 100 per call)",
      auth: 'operator',
      scopes: ['commands:read'],
      params: MachineParams,
      response: z.array(CommandData),
      errors: [401, 403, 404, 429],
    },
    ...guard(ctx, 'commands:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineParams, req.params, 'params');
      const machine = await service.machineFor(principalOf(req), machineNo);
      sendOk(res, await service.pendingFor(machine.id));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands',
      tag,
      summary: 'Commands of a machine, newest first; filter by status or find one by externalRef',
      auth: 'operator',
      scopes: ['commands:read'],
      params: MachineParams,
      query: ListQuery,
      response: CommandPage,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'commands:read'),
    async (req, res) => {
      const { machineNo } = parseInput(MachineParams, req.params, 'params');
      const q = parseInput(ListQuery, req.query, 'query');
      const { total, records } = await service.list(principalOf(req), machineNo, { status: q.status, externalRef: q.externalRef }, q.size, offsetOf(q));
      sendOk(res, { page: q.page, size: q.size, total, records });
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands/:commandId',
      tag,
      summary: 'One command',
      auth: 'operator',
      scopes: ['commands:read'],
      params: CommandParams,
      response: CommandData,
      errors: [401, 403, 404, 429],
    },
    ...guard(ctx, 'commands:read'),
    async (req, res) => {
      const { machineNo, commandId } = parseInput(CommandParams, req.params, 'params');
      sendOk(res, await service.get(principalOf(req), machineNo, commandId));
    },
  );

  defineLegacyRoute(
    r,
    docs,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/commands/:commandId/ack',
      tag,
      summary: 'Acknowledge a drop; success decrements stock and writes a shipped api_drop order; a repeat changes nothing',
      auth: 'operator',
      scopes: ['commands:write'],
      params: CommandParams,
      body: AckBody,
      response: AckData,
      errors: [400, 401, 403, 404, 422, 429],
    },
    ...guard(ctx, 'commands:write'),
    async (req, res) => {
      const { machineNo, commandId } = parseInput(CommandParams, req.params, 'params');
      const body = parseInput(AckBody, req.body, 'body');
      sendOk(res, await service.ack(principalOf(req), machineNo, commandId, body));
    },
  );

  return r;
}
