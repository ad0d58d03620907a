import { Router } from 'express';
import type { RequestHandler } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { parseInput } from '../../http/validate.ts';
import { offsetOf } from '../../http/paging.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { insufficientScope } from '../../http/errors.ts';
import type { CommandsService } from './commands.service.ts';
import {
  AckBody,
  AckData,
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
} from './commands.schemas.ts';
import { z } from 'zod';

/** Remote dispense (spec 1 §4.6): routes parse and authorise; the rules live in CommandsService. */
export function commandsRoutes(kit: RouteKit, service: CommandsService): Router {
  const r = Router();
  const tag = 'remote dispense';

  // The scope depends on the channel (machines:read for walkup, commands:write for api_drop), so the
  // channel is parsed first and the scope checked after it, before the body is parsed.
  const channelScope: RequestHandler = (req, _res, next) => {
    const { channel } = parseInput(FulfillChannel, req.body, 'body');
    if (!principalOf(req).scopes.has(channel === 'walkup' ? 'machines:read' : 'commands:write')) throw insufficientScope();
    next();
  };
  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/fulfill',
      tag,
      summary: 'Fulfil a sale: walkup (the firmware drops; no command) or api_drop (enqueues a pending command)',
      description: 'The scope depends on the body: channel `walkup` needs machines:read, channel `api_drop` needs commands:write.',
      auth: 'operator',
      scopeAlternatives: [['machines:read'], ['commands:write']],
      body: FulfillBody,
      response: FulfillData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    [channelScope],
    async ({ body }, req, res) => {
      const p = principalOf(req);
      if (body.channel === 'walkup') {
        const machine = await service.machineFor(p, body.machineNo);
        sendOk(res, {
          channel: 'walkup',
          machineNo: machine.machine_no,
          dispense: false,
          detail: 'The machine firmware drops the product after local payment; no command was created.',
        });
        return;
      }
      const command = await service.enqueue(p, body.machineNo, { aisleNo: body.aisleNo, reason: body.reason, externalRef: body.externalRef });
      sendOk(res, { ...command, dispense: true });
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/commands/dispense',
      tag,
      summary: 'Enqueue a remote drop; a repeated externalRef answers the existing command (duplicate: true)',
      auth: 'operator',
      groupSessions: true,
      scopes: ['commands:write'],
      params: MachineParams,
      body: DispenseBody,
      response: EnqueueData,
      errors: [400, 401, 403, 404, 409, 422, 429],
    },
    async ({ params, body }, req, res) =>
      sendOk(
        res,
        await service.enqueue(principalOf(req), params.machineNo, { aisleNo: body.aisleNo, reason: body.reason, externalRef: body.externalRef ?? null }),
      ),
  );

  // Declared before /commands/:commandId so that "pending" is never read as a command id.
  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands/pending',
      tag,
      summary: "Pending commands, oldest first (the device agent's poll; at most 100 per call)",
      auth: 'operator',
      groupSessions: true,
      scopes: ['commands:read'],
      params: MachineParams,
      response: z.array(CommandData),
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => {
      const machine = await service.machineFor(principalOf(req), params.machineNo);
      sendOk(res, await service.pendingFor(machine.id));
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands',
      tag,
      summary: 'Commands of a machine, newest first; filter by status or find one by externalRef',
      auth: 'operator',
      groupSessions: true,
      scopes: ['commands:read'],
      params: MachineParams,
      query: ListQuery,
      response: CommandPage,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ params, query: q }, req, res) => {
      const { total, records } = await service.list(principalOf(req), params.machineNo, { status: q.status, externalRef: q.externalRef }, q.size, offsetOf(q));
      sendOk(res, { page: q.page, size: q.size, total, records });
    },
  );

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/commands/:commandId',
      tag,
      summary: 'One command',
      auth: 'operator',
      groupSessions: true,
      scopes: ['commands:read'],
      params: CommandParams,
      response: CommandData,
      errors: [401, 403, 404, 429],
    },
    async ({ params }, req, res) => sendOk(res, await service.get(principalOf(req), params.machineNo, params.commandId)),
  );

  defineRoute(
    r,
    kit,
    {
      method: 'post',
      path: '/api/v1/machines/:machineNo/commands/:commandId/ack',
      tag,
      summary: 'Acknowledge a drop; success decrements stock and writes a shipped api_drop order; a repeat changes nothing',
      auth: 'operator',
      groupSessions: true,
      scopes: ['commands:write'],
      params: CommandParams,
      body: AckBody,
      response: AckData,
      errors: [400, 401, 403, 404, 422, 429],
    },
    async ({ params, body }, req, res) => sendOk(res, await service.ack(principalOf(req), params.machineNo, params.commandId, body)),
  );

  return r;
}
