import { Router, type Request } from 'express';
import { sendOk } from '../../http/envelope.ts';
import { principalOf } from '../../http/authenticate.ts';
import { defineRoute, type RouteKit } from '../../http/route.ts';
import { MachineNoParams, OperatorView, QrQuery } from './operator-view.schemas.ts';
import type { OperatorViewService } from './operator-view.service.ts';

/** The request's own origin. */
function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

export function operatorViewRoutes(kit: RouteKit, service: OperatorViewService): Router {
  const r = Router();

  defineRoute(
    r,
    kit,
    {
      method: 'get',
      path: '/api/v1/machines/:machineNo/operator-view',
      tag: 'machines',
      summary: 'Status, sales, aisle rollups and money of one machine',
      auth: 'operator',
      groupSessions: true,
      scopes: ['machines:read'],
      params: MachineNoParams,
      response: OperatorView,
      errors: [404],
    },
    async ({ params }, req, res) => sendOk(res, await service.view(principalOf(req), params.machineNo)),
  );

  for (const kind of ['operator-qr', 'advertise-qr'] as const) {
    defineRoute(
      r,
      kit,
      {
        method: 'get',
        path: `/api/v1/machines/:machineNo/${kind}`,
        tag: 'machines',
        summary: kind === 'operator-qr' ? 'PNG QR code of the hosted operator view' : 'PNG QR code of the buyer chat address with a stable qrId',
        auth: 'operator',
        groupSessions: true,
        scopes: ['machines:read'],
        params: MachineNoParams,
        query: QrQuery,
        contentType: 'image/png',
        errors: [404],
      },
      async ({ params, query }, req, res) => {
        const p = principalOf(req);
        const { machineNo } = params;
        const qr =
          kind === 'operator-qr'
            ? await service.operatorQr(p, machineNo, originOf(req), query.size)
            : await service.advertiseQr(p, machineNo, originOf(req), query.size);
        res.status(200).type('image/png').setHeader('cache-control', 'private, max-age=300');
        res.send(qr.png);
      },
    );
  }
  return r;
}
