import { z } from 'zod';
import { ERROR_TABLE } from './errors.ts';
import { statements } from './schema-statements.ts';
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
  /** Scopes the credential must hold, all of them (operator routes). */
  scopes?: Scope[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of the success envelope (or the whole body when `envelope` is false). */
  response?: z.ZodType;
  envelope?: boolean;
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

/** Body limits of the parsers every request passes through (app.ts); the 413 responses quote them. */
const BODY_LIMITS = 'JSON bodies up to 1 MB, form bodies up to 64 kB (the payment webhook: 64 kB)';

/** What each tag covers: the top-level `tags` of the document, in this order. */
const TAGS: Record<string, string> = {
  auth: 'OAuth client-credentials tokens, sign-in with MFA, and who-am-I (spec 1 §4.2, §5).',
  accounts: 'Operator accounts, created by reseller or admin credentials (`accounts:admin`).',
  machines: 'Register, claim, list and edit machines; placement and geocoding; the one-screen operator view and QR codes (spec 1 §4.3).',
  inventory: 'Aisle stock, prices, fault flags and restocks (spec 1 §4.4).',
  orders: 'Sales history and summaries (spec 1 §4.5).',
  payments: 'Cashless payments: reads, terminals and the signed provider webhook (spec 1 §4.5, §6).',
  'remote dispense': 'Remote drops: fulfil a sale, enqueue, poll and acknowledge dispense commands (spec 1 §4.6).',
  'device credentials': 'Per-cabinet credentials: enrolment arms, rotation, revocation, identity resets and fleet views (spec 2).',
  factory: 'Factory builds, QA and sign-off, for factory keys (`machines:build`).',
  'mock SSP':
    'The sandbox’s built-in supply-side platform (spec 2 §4.2), standing in for an outside SSP in its own Vistar-style JSON: get_ad leases, the one-shot proof of play, receipts, creatives. Sandbox mode only.',
  'screen advertising':
    'Screen-ad campaigns, creatives, screensavers, proof of play, reports and the DOOH inventory export with the OpenOOH venue taxonomy (spec 1 §4.7).',
  finance: 'Host venues and when host commission accrues for each machine (spec 1 §2.9, §4.3 rule 6, §4.8).',
  crews: 'Crews of people who run machines together: members, roles (owner, admin, member) and e-mail invitations with one-time expiring tokens (spec 1 §4.9).',
  access:
    "Access groups (spec 1 §4.2): sets of an operator's machines and scopes given to people of its crews, who open fenced sessions on the fleet that see only those machines.",
  restock:
    "Restock runs (spec 1 §4.9): one driver visit to one machine of a crew's fleet, planned from par levels (planned → in_progress → done, or cancelled); completing puts the stock into the aisles once.",
  'done-for-you':
    'The done-for-you placement pipeline (spec 3): catalog, pre-orders, deals and their forward-only stages, the checkpoint inbox, the four confirm gates, checkout, install work orders, portfolio views and replay.',
  negotiation:
    "The negotiation of a done-for-you deal (spec 3 §2, §4, key rules 1–3): the versioned mandate, the confirmed start, the deterministic engine's turns against the venue (a seeded persona in the sandbox), advice, operator turns and the negotiation graphs.",
  'dfy outreach':
    'Done-for-you outreach (spec 3 §1, §4, key rule 8): the venue directory and scored shortlist, outreach start and preview over e-mail, text and voice (round-robin, calling window, caps, 24 h cadence, one versioned script library), the intro draft, signed provider callbacks and opt-outs.',
  webhooks:
    'Outbound webhooks (issue 20): endpoints subscribed to fleet events, signed like the inbound webhooks, delivered from a durable outbox with retries for 24 h; the deliveries log.',
  alerts:
    'Alert rules (issue 20): which fleet events raise an alert on which machines, quiet hours, webhook and e-mail delivery; one live alert per rule and condition until it clears.',
  meta: 'The live state machines, generated from the tables the API enforces.',
  pricing: 'The public price lists, versioned data in integer cents: self-serve screen ads and the operator subscription (spec 1 §2.10).',
  'ad marketplace':
    'The self-serve screen-ad marketplace (spec 1 §2.8, §4.7, §6): buyers (no key) quote, build a creative, buy and follow a purchase by its token; the signed payment webhook; operators approve or reject their part.',
  'agent releases': 'Signed agent releases, staged rollouts and per-machine pins (spec 2).',
  'cabinet gateway': 'What cabinets call (`/cabinet/*`): registration, enrolment, heartbeat, config, orders, reports, the command long poll (spec 2).',
  'family-A cabinet': 'The family-A cabinet protocol (`/apk/*`), kept for cabinets already in the field (spec 2).',
  sandbox: 'Health, readiness, the sandbox reset and audit log, and the background loops’ status (spec 1 §4.1).',
};

/** One error response: the status, what it means (spec 1 §7 where the spec has it), its example message. */
interface ErrorKind {
  description: string;
  example: string;
  /** The message starts with the catalogue text (spec 1 §7 fixes the 400 and 401 texts); a reason may follow after ': '. */
  prefix?: string;
  headers?: Record<string, unknown>;
}

const BAD_REQUEST = ERROR_TABLE.bad_request.message;
const UNAUTHORIZED = ERROR_TABLE.unauthorized.message;

/** Named error responses; the document's `components.responses` holds the ones its operations use. */
const ERROR_KINDS = {
  BadRequest: {
    description:
      'Bad body or parameters: missing or out-of-rule values, or a body that is not valid JSON — read before routing, whatever the operation (spec 1 §7). The message is the catalogue text, then the reasons.',
    example: BAD_REQUEST,
    prefix: BAD_REQUEST,
  },
  Unauthorized: { description: 'Missing or invalid credentials (spec 1 §7).', example: UNAUTHORIZED, prefix: UNAUTHORIZED },
  DeviceUnauthorized: {
    description: 'Missing or invalid cabinet credentials: device key, or the fleet secret where the leg accepts it.',
    example: `${UNAUTHORIZED}: Invalid device key`,
    prefix: UNAUTHORIZED,
  },
  SignatureUnauthorized: { description: 'Unsigned call, or a signature that does not verify (spec 1 §6).', example: UNAUTHORIZED, prefix: UNAUTHORIZED },
  Forbidden: { description: 'The credential lacks a scope the operation needs (spec 1 §5, §7).', example: ERROR_TABLE.forbidden.message },
  AdminRequired: { description: 'The operation needs an admin credential.', example: 'Admin credential required' },
  DeviceForbidden: { description: 'The cabinet credential may not do this (wrong machine, revoked or blocked).', example: ERROR_TABLE.forbidden.message },
  NotFound: { description: 'The resource is missing or owned by another operator (spec 1 §7).', example: ERROR_TABLE.not_found.message },
  MachineNotFound: { description: 'The machine is missing or owned by another operator (spec 1 §7).', example: ERROR_TABLE.machine_not_found.message },
  Conflict: { description: 'The request conflicts with the current state (spec 1 §7).', example: ERROR_TABLE.conflict.message },
  Gone: { description: 'The resource existed and is gone for good (a retired credential, a superseded offer).', example: ERROR_TABLE.gone.message },
  PayloadTooLarge: {
    description: `The body is larger than the parser accepts: ${BODY_LIMITS}. Any request that carries a body is read before routing.`,
    example: 'Request body too large',
  },
  UnsupportedEncoding: {
    description:
      'The body has a charset other than UTF-8 or a Content-Encoding other than identity, gzip, deflate or br. Any request that carries a body is read before routing.',
    example: `${BAD_REQUEST}: unsupported body encoding`,
    prefix: BAD_REQUEST,
  },
  Validation: {
    description: 'Malformed path, query or body types (spec 1 §7). The message is the catalogue text, then the reasons.',
    example: ERROR_TABLE.validation.message,
  },
  PreconditionRequired: { description: 'A precondition the operation needs is missing.', example: ERROR_TABLE.precondition_required.message },
  RateLimited: {
    description: 'Hourly limit exceeded: 1,000 requests per hour per credential (spec 1 §8).',
    example: ERROR_TABLE.rate_limited.message,
    headers: { 'Retry-After': { description: 'Seconds until the budget renews (3600)', schema: { type: 'integer', minimum: 0 }, example: 3600 } },
  },
  Upstream: { description: 'An upstream service failed; its error is returned verbatim (spec 1 §7).', example: ERROR_TABLE.upstream.message },
  Unavailable: {
    description:
      'The service cannot answer now: its store is unreachable, busy or full, or this replica is draining. Nothing of the request was written; retry after the given seconds (docs/decisions/outages.md).',
    example: ERROR_TABLE.unavailable.message,
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 }, example: 2 } },
  },
} satisfies Record<string, ErrorKind>;

type ErrorKindName = keyof typeof ERROR_KINDS;

/** RFC 6749 §5.2 errors of the token endpoint (never the envelope). */
const OAUTH_ERRORS: Record<number, { description: string; error: string; error_description: string }> = {
  400: {
    description: 'RFC 6749 §5.2 `invalid_request`, `invalid_grant`, `unsupported_grant_type` or `invalid_scope`.',
    error: 'invalid_request',
    error_description: 'Malformed request body',
  },
  401: {
    description: 'RFC 6749 §5.2 `invalid_client`: unknown client or wrong secret.',
    error: 'invalid_client',
    error_description: 'Client authentication failed',
  },
  413: { description: `The body is larger than the parser accepts: ${BODY_LIMITS}.`, error: 'invalid_request', error_description: 'Request body too large' },
  415: {
    description: 'The body has a charset other than UTF-8 or an unsupported Content-Encoding.',
    error: 'invalid_request',
    error_description: 'Malformed request body',
  },
  429: { description: 'Too many attempts for this client.', error: 'invalid_request', error_description: 'Too many requests' },
};

/** Which named response a status gets on a route. */
function errorKindOf(r: RouteDoc, status: number): ErrorKindName | null {
  switch (status) {
    case 400:
      return 'BadRequest';
    case 401:
      return r.auth === 'device' ? 'DeviceUnauthorized' : r.auth === 'signature' ? 'SignatureUnauthorized' : 'Unauthorized';
    case 403:
      return r.auth === 'admin' ? 'AdminRequired' : r.auth === 'device' ? 'DeviceForbidden' : 'Forbidden';
    case 404:
      return /:machineNo\b/.test(r.path) ? 'MachineNotFound' : 'NotFound';
    case 409:
      return 'Conflict';
    case 410:
      return 'Gone';
    case 413:
      return 'PayloadTooLarge';
    case 415:
      return 'UnsupportedEncoding';
    case 422:
      return 'Validation';
    case 428:
      return 'PreconditionRequired';
    case 429:
      return 'RateLimited';
    case 502:
      return 'Upstream';
    case 503:
      return 'Unavailable';
    default:
      return null;
  }
}

/**
 * The error statuses a route answers by what its doc says, before anything route-specific:
 * - the body parsers read any body a request carries (app.ts), before routing, whatever the method:
 *   400 (not valid JSON), 413 (too large) and 415 (charset or encoding) everywhere; 503 (the store unavailable) everywhere;
 * - params, query or body parsed with a schema: 400 (missing or out of rule) and 422 (wrong types);
 * - the auth kind: operator and admin 401 → 429 → 403 (403 where a scope or admin is needed, or where an
 *   access-group session is refused: every operator route not opened to one),
 *   device 401/403, signature 401, the OAuth token endpoint 400/401.
 */
export function derivedErrors(r: RouteDoc): number[] {
  // 503: any route may meet its store's outage (docs/decisions/outages.md)
  const e = new Set<number>([400, 413, 415, 503]);
  if (r.params || r.query || r.body) e.add(422);
  switch (r.auth) {
    case 'operator':
      e.add(401).add(429);
      // 403: a scope the credential lacks, or an access-group session on a route not opened to one
      if (requiredScopeSets(r).some((s) => s.length > 0) || !r.groupSessions) e.add(403);
      break;
    case 'admin':
      e.add(401).add(429).add(403);
      break;
    case 'device':
      e.add(401).add(403);
      break;
    case 'signature':
      e.add(401);
      break;
    case 'oauth-client':
      e.add(400).add(401).add(429);
      e.delete(422); // the token endpoint answers RFC 6749 errors: a malformed form is `invalid_request` (400)
      break;
    case 'none':
      break;
  }
  return [...e];
}

/** The scope sets a credential may satisfy (any one, every scope of it): `scopeAlternatives`, else `[scopes]`. */
function requiredScopeSets(r: RouteDoc): Scope[][] {
  return r.scopeAlternatives?.length ? r.scopeAlternatives : [r.scopes ?? []];
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
      return requiredScopeSets(r).flatMap((scopes): Record<string, string[]>[] => [{ apiKey: scopes }, { bearer: scopes }]);
    case 'admin':
      return [{ apiKey: ['admin'] }, { bearer: ['admin'] }];
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
        '200': {
          description: r.envelope === false ? 'Success' : 'Success, in the `{code: 200, message: "success", data}` envelope',
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
      jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
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
