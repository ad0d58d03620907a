import { z } from 'zod';
import type { Scope } from './scopes.ts';

export type RouteAuth = 'none' | 'operator' | 'admin' | 'device' | 'signature' | 'oauth-client';

/** What a router declares about one route; the same zod schemas it validates with. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/v1/machines/:machineNo`); converted to OpenAPI form. */
  path: string;
  tag: string;
  summary: string;
  auth: RouteAuth;
  scopes?: Scope[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of the success envelope (or the whole body when `envelope` is false). */
  response?: z.ZodType;
  envelope?: boolean;
  contentType?: string;
  errors?: number[];
}

const toSchema = (s: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(s, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Record<string, unknown>;

/**
 * Collects route declarations and renders the OpenAPI 3.1 document. Nothing here is written by
 * hand per route: it is generated from the schemas the routes parse with.
 */
export class ApiDocs {
  private readonly routes: RouteDoc[] = [];

  add(doc: RouteDoc): void {
    this.routes.push(doc);
  }

  list(): readonly RouteDoc[] {
    return this.routes;
  }

  document(serverUrl?: string): Record<string, unknown> {
    const paths: Record<string, Record<string, unknown>> = {};
    for (const r of this.routes) {
      const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const parameters: unknown[] = [];
      for (const [where, schema] of [
        ['path', r.params],
        ['query', r.query],
      ] as const) {
        if (!schema) continue;
        const json = toSchema(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
        for (const [name, prop] of Object.entries(json.properties ?? {})) {
          parameters.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop });
        }
      }
      const ok = r.response ? toSchema(r.response, 'output') : {};
      const success =
        r.envelope === false
          ? ok
          : { type: 'object', required: ['code', 'message', 'data'], properties: { code: { const: 200 }, message: { const: 'success' }, data: ok } };
      const responses: Record<string, unknown> = {
        '200': {
          description: 'Success',
          content: { [r.contentType ?? 'application/json']: { schema: r.contentType?.startsWith('image/') ? { type: 'string', format: 'binary' } : success } },
        },
      };
      for (const status of r.errors ?? defaultErrors(r)) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
      const security =
        r.auth === 'operator' || r.auth === 'admin'
          ? [{ apiKey: r.scopes ?? [] }, { bearer: r.scopes ?? [] }]
          : r.auth === 'device'
            ? [{ deviceKey: [] }, { fleetSecret: [] }]
            : [];
      paths[path] ??= {};
      paths[path][r.method] = {
        tags: [r.tag],
        summary: r.summary,
        ...(r.scopes?.length
          ? { description: `Requires scope: ${r.scopes.join(', ')}${r.auth === 'admin' ? ' (admin credential)' : ''}` }
          : r.auth === 'admin'
            ? { description: 'Admin credential required' }
            : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(r.body
          ? {
              requestBody: {
                required: true,
                content: { [r.path === '/oauth/token' ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: toSchema(r.body, 'input') } },
              },
            }
          : {}),
        responses,
        security,
      };
    }
    const errorResponse = (status: number, description: string) => ({
      description,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['code', 'message', 'data'],
            properties: { code: { const: status }, message: { type: 'string' }, data: { type: 'null' } },
          },
        },
      },
    });
    return {
      openapi: '3.1.0',
      info: {
        title: 'Vending Kiosk Partner API',
        version: 'v1',
        description:
          'Operator API, cabinet gateway and sandbox utilities. Every JSON response except /oauth/token and liveness endpoints uses the {code, message, data} envelope.',
      },
      ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
      paths,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'OAuth client-credentials token, sign-in token, or identity-provider JWT' },
          deviceKey: { type: 'apiKey', in: 'header', name: 'x-device-key', description: '<keyId>:<secret>' },
          fleetSecret: { type: 'apiKey', in: 'header', name: 'secret' },
        },
        responses: {
          E400: errorResponse(400, 'Bad request — invalid or missing parameters'),
          E401: errorResponse(401, 'Invalid API key'),
          E403: errorResponse(403, 'Insufficient scope'),
          E404: errorResponse(404, 'Not found'),
          E409: errorResponse(409, 'Conflict'),
          E410: errorResponse(410, 'Gone'),
          E422: errorResponse(422, 'Validation error'),
          E428: errorResponse(428, 'Precondition required'),
          E429: { ...errorResponse(429, 'Rate limit exceeded'), headers: { 'Retry-After': { schema: { type: 'integer', const: 3600 } } } },
          E502: errorResponse(502, 'Upstream error'),
          E503: errorResponse(503, 'Service unavailable'),
        },
      },
    };
  }
}

function defaultErrors(r: RouteDoc): number[] {
  const e: number[] = [];
  if (r.body || r.query || r.params) e.push(400, 422);
  if (r.auth === 'operator' || r.auth === 'admin') e.push(401, 403, 429);
  if (r.auth === 'device') e.push(401, 403);
  return e;
}
