import { z } from 'zod';
import { ERROR_KINDS, OAUTH_ERRORS, derivedErrors, errorKindOf, requiredScopeSets, type ErrorKind, type RouteAuth } from './api-errors.ts';
import { TAGS } from './api-tags.ts';
import { statements } from './schema-statements.ts';
import type { Scope } from './scopes.ts';

/** What a router declares about one route; the same zod schemas it validates with. */
export interface RouteDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/api/v1/machines/:machineNo`); converted to OpenAPI form. */
  path: string;
  tag: string;
  summary: string;
  auth: RouteAuth;
  /** Scopes the credential must hold, all of them (operator routes). */
  scopes?: Scope[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of the success envelope (or the whole body when `envelope` is false). */
  response?: z.ZodType;
  envelope?: boolean;
  /** The success answer's HTTP status (default 200); 201 for a leg that creates (its envelope still says code 200, spec 1 §1). */
  status?: 200 | 201;
  /** The success answer's media type(s) (default application/json); a file route lists every type it may send. */
  contentType?: string | readonly string[];
  /** The media types the request body is accepted in (default application/json; form for the OAuth token endpoint). */
  bodyContentTypes?: readonly string[];
  /** `signature` routes: which signed header they check (default the outbound-webhook family's X-Vend-Signature). */
  signatureScheme?: 'webhookSignature' | 'outreachSignature';
  /**
   * Error statuses this route answers beyond the ones derived from the rest of the doc (see
   * `derivedErrors`: auth → 401/403/429, params/query/body → 422, every route → 400/413/415), e.g. 404 or 409.
   */
  errors?: number[];
  /** Optional: the operation's id in the document; derived from method and path when absent. */
  operationId?: string;
  /** Optional: prose shown under the summary (after the generated scope line). */
  description?: string;
  /**
   * Optional: the credential needs every scope of ONE of these sets (a scope that depends on the body,
   * say); replaces `scopes` in the document. The route must answer 403 to a credential holding none.
   */
  scopeAlternatives?: Scope[][];
  /** Optional: a route-specific example message for an error status (`{404: 'Order not found'}`). */
  errorExamples?: Partial<Record<number, string>>;
  /** Optional: an error status whose envelope carries data, not null (degraded /health says which store is down). */
  errorData?: Partial<Record<number, z.ZodType>>;
  /**
   * Operator routes an access-group session may call (docs/decisions/access.md): machine-scoped routes,
   * whose machine the ownership rule checks against the group, and the caller's own identity. Every other
   * operator route answers such a session 403: closed unless opened here.
   */
  groupSessions?: true;
}

/** A schema in the document's dialect (3.1 is JSON Schema 2020-12): no `$schema` on each one. */
function toSchema(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const options = { target: 'draft-2020-12', io, unrepresentable: 'any', override: statements(io) } as const;
  const { $schema: _, ...json } = z.toJSONSchema(s, options) as Record<string, unknown>;
  return json;
}

/** `get /api/v1/machines/:machineNo/commands` → `getMachinesByMachineNoCommands`: unique per method and path. */
export function operationIdOf(r: Pick<RouteDoc, 'method' | 'path'>): string {
  const words = r.path
    .replace(/^\/api\/v1(?=\/)/, '')
    .split(/[/-]/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `By${cap(w.slice(1))}` : cap(w)));
  return r.method + words.join('');
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function securityOf(r: RouteDoc): Record<string, string[]>[] {
  switch (r.auth) {
    case 'operator':
      // OpenAPI 3.1 lets non-OAuth schemes list the scopes (roles) an operation needs
      // the console's page session: the cookie AND its CSRF header, both in one requirement (docs/decisions/console.md)
      return requiredScopeSets(r).flatMap((scopes): Record<string, string[]>[] => [
        { apiKey: scopes },
        { bearer: scopes },
        { pageSession: scopes, pageCsrf: scopes },
      ]);
    case 'admin':
      return [{ apiKey: ['admin'] }, { bearer: ['admin'] }, { pageSession: ['admin'], pageCsrf: ['admin'] }];
    case 'device':
      return [{ deviceKey: [] }, { fleetSecret: [] }];
    case 'signature':
      return [{ [r.signatureScheme ?? 'webhookSignature']: [] }];
    case 'oauth-client':
      // client credentials travel in the form body (no HTTP-level scheme) or as HTTP Basic
      return [{}, { clientBasic: [] }];
    case 'none':
      return [];
  }
}

function scopeLine(r: RouteDoc): string | null {
  if (r.auth === 'admin') return 'Requires an admin credential.';
  if (r.auth !== 'operator') return null;
  const sets = requiredScopeSets(r).filter((s) => s.length > 0);
  if (sets.length === 0) return null;
  if (sets.length === 1) return `Requires scope: ${sets[0]!.join(', ')}.`;
  return `Requires scope: ${sets.map((s) => s.join(' + ')).join(', or ')} (which one depends on the request).`;
}

function groupSessionLine(r: RouteDoc): string | null {
  if (r.auth !== 'operator') return null;
  return r.groupSessions
    ? "Open to access-group sessions: only the group's machines (others answer 404 'Machine not found')."
    : 'Not available to access-group sessions (403).';
}

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
    const usedResponses = new Map<string, unknown>();
    const operationIds = new Map<string, string>();
    const usedTags = new Set<string>();
    const usedSchemes = new Set<string>();

    const envelopeError = (status: number, kind: ErrorKind, example: string, data: unknown = { type: 'null' }) => ({
      description: kind.description,
      ...(kind.headers ? { headers: kind.headers } : {}),
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['code', 'message', 'data'],
            properties: {
              code: { const: status },
              message: {
                type: 'string',
                ...(kind.prefix ? { pattern: `^${kind.prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, description: `Starts with '${kind.prefix}'` } : {}),
              },
              data,
            },
          },
          ...((data as { type?: unknown }).type === 'null' ? { example: { code: status, message: example, data: null } } : {}),
        },
      },
    });
    const oauthError = (status: number) => {
      const e = OAUTH_ERRORS[status] ?? { description: 'RFC 6749 §5.2 error', error: 'invalid_request', error_description: 'Malformed request body' };
      return {
        description: e.description,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['error'],
              properties: { error: { type: 'string' }, error_description: { type: 'string' } },
            },
            example: { error: e.error, error_description: e.error_description },
          },
        },
      };
    };
    const errorResponse = (r: RouteDoc, status: number): unknown => {
      if (r.auth === 'oauth-client') return oauthError(status);
      const name = errorKindOf(r, status);
      const kind: ErrorKind = name ? ERROR_KINDS[name] : { description: `HTTP ${status}`, example: `HTTP ${status}` };
      const errorData = r.errorData?.[status];
      if (errorData)
        return envelopeError(
          status,
          name ? ERROR_KINDS[name] : { description: `HTTP ${status}`, example: `HTTP ${status}` },
          '',
          toSchema(errorData, 'output'),
        );
      const special = r.errorExamples?.[status];
      if (special !== undefined || !name) return envelopeError(status, kind, special ?? kind.example);
      if (!usedResponses.has(name)) usedResponses.set(name, envelopeError(status, kind, kind.example));
      return { $ref: `#/components/responses/${name}` };
    };

    for (const r of this.routes) {
      const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const parameters: unknown[] = [];
      for (const [where, schema] of [
        ['path', r.params],
        ['query', r.query],
      ] as const) {
        if (!schema) continue;
        const json = toSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
        for (const [name, prop] of Object.entries(json.properties ?? {})) {
          const { description, ...rest } = prop;
          parameters.push({
            name,
            in: where,
            required: where === 'path' || (json.required ?? []).includes(name),
            ...(typeof description === 'string' ? { description } : {}),
            schema: rest,
          });
        }
      }
      const ok = r.response ? toSchema(r.response, 'output') : {};
      const success =
        r.envelope === false
          ? ok
          : { type: 'object', required: ['code', 'message', 'data'], properties: { code: { const: 200 }, message: { const: 'success' }, data: ok } };
      // JSON carries the schema; text is a string (the route's own schema when it gives one); anything else is bytes
      const schemaFor = (type: string) =>
        type === 'application/json' || type.endsWith('+json')
          ? success
          : type.startsWith('text/')
            ? r.response && r.envelope === false
              ? ok
              : { type: 'string' }
            : { type: 'string', format: 'binary' };
      const responses: Record<string, unknown> = {
        [String(r.status ?? 200)]: {
          description: (r.status === 201 ? 'Created' : 'Success') + (r.envelope === false ? '' : ', in the `{code: 200, message: "success", data}` envelope'),
          content: Object.fromEntries([r.contentType ?? 'application/json'].flat().map((type) => [type, { schema: schemaFor(type) }])),
        },
      };
      const statuses = [...new Set([...derivedErrors(r), ...(r.errors ?? [])])].sort((a, b) => a - b);
      for (const status of statuses) responses[String(status)] = errorResponse(r, status);

      const security = securityOf(r);
      for (const req of security) for (const scheme of Object.keys(req)) usedSchemes.add(scheme);
      const operationId = r.operationId ?? operationIdOf(r);
      const clash = operationIds.get(operationId);
      if (clash) throw new Error(`operationId ${operationId} is used by both ${clash} and ${r.method} ${r.path}`);
      operationIds.set(operationId, `${r.method} ${r.path}`);
      usedTags.add(r.tag);
      const description = [scopeLine(r), groupSessionLine(r), r.description].filter(Boolean).join('\n\n');

      paths[path] ??= {};
      paths[path][r.method] = {
        operationId,
        tags: [r.tag],
        summary: r.summary,
        ...(description ? { description } : {}),
        ...(parameters.length ? { parameters } : {}),
        ...(r.body
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(
                  (r.bodyContentTypes ?? [r.auth === 'oauth-client' ? 'application/x-www-form-urlencoded' : 'application/json']).map((type) => [
                    type,
                    { schema: toSchema(r.body!, 'input') },
                  ]),
                ),
              },
            }
          : {}),
        responses,
        security,
      };
    }

    const securitySchemes: Record<string, unknown> = {
      apiKey: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'Operator API key (`vk_<id>.<secret>`). Scopes listed per operation; `admin` means an admin credential.',
      },
      bearer: { type: 'http', scheme: 'bearer', description: 'OAuth client-credentials token, sign-in token, or identity-provider JWT' },
      pageSession: {
        type: 'apiKey',
        in: 'cookie',
        name: 'vend_session',
        description:
          'The console’s browser session (the sign-in token `/signin` puts in an HttpOnly, SameSite=Strict cookie). Counts only together with pageCsrf; the same principal as that token as a Bearer (scopes, crew role, access-group fence).',
      },
      pageCsrf: {
        type: 'apiKey',
        in: 'header',
        name: 'X-CSRF-Token',
        description:
          'The page session’s CSRF token: the `<meta name="csrf-token">` of the console page the cloud served for that session. Required with pageSession; the cookie alone is 401.',
      },
      deviceKey: { type: 'apiKey', in: 'header', name: 'x-device-key', description: 'Cabinet device key: `<keyId>:<secret>`' },
      fleetSecret: {
        type: 'apiKey',
        in: 'header',
        name: 'secret',
        description: 'Fleet bootstrap secret, accepted by the legs a cabinet calls before it is enrolled',
      },
      webhookSignature: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Vend-Signature',
        description: '`v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` with the shared webhook secret; the timestamp travels in X-Vend-Timestamp',
      },
      outreachSignature: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Outreach-Signature',
        description:
          'The voice and text provider’s callback signature: base64 HMAC-SHA256 with OUTREACH_WEBHOOK_SECRET over the request path, then each form field sorted by name as `\\n` + name + `=` + value, URI-encoded (docs/decisions/outreach.md)',
      },
      clientBasic: { type: 'http', scheme: 'basic', description: 'OAuth client id and secret as HTTP Basic credentials (or in the form body)' },
    };
    const tagNames = [...Object.keys(TAGS).filter((t) => usedTags.has(t)), ...[...usedTags].filter((t) => !(t in TAGS)).sort()];
    return {
      openapi: '3.1.0',
      // every schema here is zod's JSON Schema 2020-12 output, OpenAPI 3.1's default dialect, said outright
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      info: {
        title: 'Vending Kiosk Partner API',
        version: 'v1',
        description:
          'Operator API, cabinet gateway and sandbox utilities. Every JSON response except /oauth/token and liveness endpoints uses the {code, message, data} envelope; errors carry the spec’s catalogue text first.',
      },
      servers: [{ url: serverUrl ?? '/', description: serverUrl ? 'This service' : 'The service that serves this document' }],
      // a tag nobody described gets no description: the linter's tag-description rule then fails CI
      tags: tagNames.map((name) => ({ name, ...(TAGS[name] ? { description: TAGS[name] } : {}) })),
      paths,
      components: {
        securitySchemes: Object.fromEntries(Object.entries(securitySchemes).filter(([name]) => usedSchemes.has(name))),
        responses: Object.fromEntries([...usedResponses.entries()].sort(([a], [b]) => a.localeCompare(b))),
      },
    };
  }
}
