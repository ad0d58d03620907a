import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AppContext } from '../context.ts';
import { hashSecret, mintSecret } from '../crypto/secrets.ts';
import { OPERATOR_IDS, SANDBOX_CREDENTIALS } from '../db/seed.ts';
import { SCOPES, type Scope } from './scopes.ts';

/**
 * The API contract as a hostile client reads it: the operations of `/openapi.json`, who may call each
 * (from `security`), which statuses each may answer (from `responses`), and small probes that send
 * one request and report what came back. Used by api-contract.int.test.ts.
 */

type Json = Record<string, unknown>;

export interface ParamSchema {
  type?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  enum?: unknown[];
}

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: ParamSchema;
}

/** Who may call an operation, as its `security` declares. */
export type Access =
  | { kind: 'public' }
  /** Any one of these scope sets, all of its scopes (operator credentials: API key or bearer). */
  | { kind: 'scopes'; alternatives: Scope[][] }
  | { kind: 'admin' }
  /** A scheme this kit holds no credential for beyond the sandbox's (cabinet keys, the webhook signature). */
  | { kind: 'other'; schemes: string[] };

export interface Operation {
  method: string;
  /** The document's path, `{param}` form. */
  path: string;
  operationId: string;
  params: Param[];
  takesBody: boolean;
  bodyType: string | null;
  /** The request body's JSON schema, when it takes one. */
  bodySchema: Json | null;
  access: Access;
  /** Declared statuses, numeric (`default` aside). */
  declared: Set<number>;
  /** The declared responses, `$ref`s resolved, by status. */
  responses: Map<number, Json>;
  /** `get /api/v1/machines/{machineNo}`, for test names. */
  label: string;
}

/** Every operation of the document, with what a client needs to call it. */
export function operationsOf(doc: Json): Operation[] {
  const components = ((doc['components'] as Json | undefined)?.['responses'] ?? {}) as Record<string, Json>;
  const resolve = (r: Json): Json => {
    const ref = r['$ref'];
    return typeof ref === 'string' ? (components[ref.replace('#/components/responses/', '')] ?? {}) : r;
  };
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc['paths'] as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = new Map<number, Json>();
      for (const [status, r] of Object.entries(op['responses'] as Record<string, Json>)) {
        if (/^\d{3}$/.test(status)) responses.set(Number(status), resolve(r));
      }
      const body = op['requestBody'] as { content?: Record<string, { schema?: Json }> } | undefined;
      const bodyType = body?.content ? (Object.keys(body.content)[0] ?? null) : null;
      ops.push({
        method,
        path,
        operationId: String(op['operationId']),
        params: (op['parameters'] as Param[] | undefined) ?? [],
        takesBody: body !== undefined,
        bodyType,
        bodySchema: bodyType ? (body?.content?.[bodyType]?.schema ?? null) : null,
        access: accessOf(op['security'] as Record<string, string[]>[] | undefined),
        declared: new Set(responses.keys()),
        responses,
        label: `${method} ${path}`,
      });
    }
  }
  return ops;
}

function accessOf(declared: Record<string, string[]>[] | undefined): Access {
  if (!declared || declared.length === 0 || declared.some((req) => Object.keys(req).length === 0)) return { kind: 'public' };
  // the console's page session (cookie + CSRF header) is a third way to present an operator's credential, with the
  // same scopes: the probes present the other two
  const security = declared.filter((req) => !Object.keys(req).every((s) => s === 'pageSession' || s === 'pageCsrf'));
  const schemes = [...new Set(security.flatMap((req) => Object.keys(req)))];
  if (schemes.length === 0 || !schemes.every((s) => s === 'apiKey' || s === 'bearer')) return { kind: 'other', schemes };
  const sets = security.map((req) => Object.values(req)[0] ?? []);
  if (sets.some((s) => s.includes('admin'))) return { kind: 'admin' };
  const unique = new Map(sets.map((s) => [[...s].sort().join(' '), s as Scope[]]));
  return { kind: 'scopes', alternatives: [...unique.values()] };
}

/** A scope set that satisfies none of the alternatives: every scope but those the alternatives name. */
export function everyScopeBut(alternatives: Scope[][]): Scope[] {
  const named = new Set(alternatives.flat());
  return SCOPES.filter((s) => !named.has(s));
}

/** For a joint requirement (two or more scopes at once): each of its scopes left out in turn, where that satisfies no alternative. */
export function eachScopeLeftOut(alternatives: Scope[][]): { missing: Scope; scopes: Scope[] }[] {
  const out: { missing: Scope; scopes: Scope[] }[] = [];
  for (const set of alternatives) {
    if (set.length < 2) continue;
    for (const missing of set) {
      const scopes = set.filter((s) => s !== missing);
      if (!alternatives.some((alt) => alt.every((s) => scopes.includes(s)))) out.push({ missing, scopes });
    }
  }
  return out;
}

/** A value the parameter's schema accepts, naming nothing that exists (a machine no fleet has). */
export function wellFormed(schema: ParamSchema): string {
  if (schema.enum?.length) return String(schema.enum[0]);
  if (schema.type === 'integer' || schema.type === 'number') return String(Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 999_999, 999_999)));
  if (schema.type === 'boolean') return 'true';
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 64;
  const pattern = schema.pattern ? new RegExp(schema.pattern) : null;
  for (const base of ['NOSUCH-0000000000000001', 'NOSUCH0000000000000001', '0000000000000000000001', 'nosuch']) {
    const value = base.slice(0, max).padEnd(min, '0');
    if (value.length >= min && value.length <= max && (!pattern || pattern.test(value))) return value;
  }
  return 'NOSUCH'.slice(0, max).padEnd(min, '0');
}

/** Values the parameter's schema refuses (types, bounds, enums), each with why. */
export function malformed(schema: ParamSchema): { value: string; why: string }[] {
  const out: { value: string; why: string }[] = [];
  if (schema.type === 'integer' || schema.type === 'number') out.push({ value: 'abc', why: 'not a number' });
  if (schema.type === 'integer') out.push({ value: '1.5', why: 'not a whole number' });
  if (schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER) out.push({ value: String(schema.maximum + 1), why: 'above the maximum' });
  if (schema.minimum !== undefined) out.push({ value: String(schema.minimum - 1), why: 'below the minimum' });
  if (schema.enum?.length) out.push({ value: 'not-one-of-them', why: 'not in the enum' });
  if (schema.maxLength !== undefined) out.push({ value: 'x'.repeat(schema.maxLength + 1), why: 'too long' });
  if ((schema.minLength ?? 0) > 1) out.push({ value: 'x', why: 'too short' });
  if (schema.minLength === 1) out.push({ value: '', why: 'empty' });
  if (schema.pattern) out.push({ value: 'has spaces & symbols!', why: 'not matching the pattern' });
  return out;
}

/**
 * Bodies the operation's schema describes, one per top-level alternative (`oneOf`/`anyOf`: a scope may
 * depend on which): required properties only, `known` values for properties of those names (the
 * sandbox's machine), well-formed values for the rest. Rules a schema cannot say (refinements) may
 * still refuse them: a 400 is an answer like any other. None when the operation takes no JSON body.
 */
export function bodiesOf(op: Operation, known: Record<string, string>): unknown[] {
  if (!op.bodySchema || op.bodyType !== 'application/json') return [];
  const top = op.bodySchema;
  const variants = (top['oneOf'] ?? top['anyOf']) as Json[] | undefined;
  return (variants?.length ? variants : [top]).map((v) => instanceOf(v, known, null));
}

function instanceOf(schema: Json, known: Record<string, string>, name: string | null): unknown {
  if ('const' in schema) return schema['const'];
  const enumValues = schema['enum'] as unknown[] | undefined;
  if (enumValues?.length) return enumValues[0];
  const choice = (schema['oneOf'] ?? schema['anyOf'] ?? schema['allOf']) as Json[] | undefined;
  if (choice?.length) return instanceOf(choice[0]!, known, name);
  const types = schema['type'];
  const type = Array.isArray(types) ? (types.find((t) => t !== 'null') as string | undefined) : (types as string | undefined);
  const knownValue = name !== null ? known[name] : undefined;
  switch (type) {
    case 'object': {
      const props = (schema['properties'] ?? {}) as Record<string, Json>;
      const required = (schema['required'] ?? []) as string[];
      return Object.fromEntries(required.map((k) => [k, instanceOf(props[k] ?? {}, known, k)]));
    }
    case 'array': {
      const min = (schema['minItems'] as number | undefined) ?? 0;
      return Array.from({ length: min }, () => instanceOf((schema['items'] ?? {}) as Json, known, null));
    }
    case 'integer':
    case 'number':
      return Number(knownValue ?? wellFormed(schema as ParamSchema));
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      if (knownValue !== undefined) return knownValue;
      if (schema['format'] === 'email') return 'probe@example.test';
      if (schema['format'] === 'date-time') return new Date(0).toISOString();
      return wellFormed(schema as ParamSchema);
    }
    case undefined:
    default:
      return knownValue ?? {};
  }
}

/** The operation's path with every path parameter set (from `values`, else a well-formed unknown value), percent-encoded. */
export function pathOf(op: Operation, values: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (values[name] !== undefined) return values[name]!;
    const p = op.params.find((x) => x.in === 'path' && x.name === name);
    return encodeURIComponent(wellFormed(p?.schema ?? {}));
  });
}

/** Query values the operation requires, well-formed. */
export function requiredQuery(op: Operation): Record<string, string> {
  return Object.fromEntries(op.params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, wellFormed(p.schema)]));
}

export interface Probe {
  why: string;
  headers?: Record<string, string>;
  path?: string;
  query?: Record<string, string>;
  /** Appended to the query as it is (a parameter given twice, say). */
  rawQuery?: string;
  body?: string | Buffer;
}

export interface Answer {
  status: number;
  message: string;
  /** The body, parsed when it is JSON. */
  json: unknown;
}

/**
 * Sends one request to the operation and reports the status and the message. Through node:http, not
 * fetch: a hostile client sends a body with a GET too (the body parsers read it before routing).
 */
export async function send(base: string, op: Operation, probe: Probe): Promise<Answer> {
  const url = new URL(base + (probe.path ?? pathOf(op)));
  for (const [k, v] of Object.entries({ ...requiredQuery(op), ...probe.query })) url.searchParams.set(k, v);
  if (probe.rawQuery) url.search += (url.search ? '&' : '?') + probe.rawQuery;
  const body = probe.body === undefined ? undefined : Buffer.from(probe.body);
  const headers = { ...probe.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = http.request(url, { method: op.method.toUpperCase(), headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    // the server may answer (413) and close before it has read an oversized body: the answer counts, not the write
    req.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    req.end(body);
  });
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // an image, or HTML
  }
  const fields = (json ?? {}) as { message?: unknown; error_description?: unknown };
  const message = fields.message ?? fields.error_description;
  return { status, message: typeof message === 'string' ? message.slice(0, 300) : text.slice(0, 120), json };
}

/** Why an answer breaks the document: a status it does not declare, or a message off its declared pattern. Null when it keeps it. */
export function breach(op: Operation, a: Answer): string | null {
  if (a.status >= 200 && a.status < 400) return null;
  if (!op.declared.has(a.status)) return `answered ${a.status} ("${a.message}"), which it does not declare (declares ${[...op.declared].join(', ')})`;
  const content = op.responses.get(a.status)?.['content'] as Record<string, { schema?: Json }> | undefined;
  const messageSchema = (content?.['application/json']?.schema?.['properties'] as Record<string, ParamSchema> | undefined)?.['message'];
  if (messageSchema?.pattern && !new RegExp(messageSchema.pattern).test(a.message)) {
    return `answered ${a.status} with "${a.message}", which does not match the declared ${messageSchema.pattern}`;
  }
  return null;
}

/** Mints API keys for the probes: a fresh key each time (the per-credential budget never runs out; a reset cannot revoke it mid-probe). */
export class KeyMint {
  constructor(private readonly db: AppContext['database']['db']) {}

  /**
   * An API key holding exactly `scopes`: for the sandbox admin when `admin`; for the sandbox factory,
   * bound to its plant, when `factory` (`machines:build` is a factory key's scope, spec 1 §5); else for
   * an ordinary operator (alice).
   */
  async headers(scopes: readonly Scope[], opts: { admin?: boolean; factory?: boolean } = {}): Promise<Record<string, string>> {
    const id = randomBytes(8).toString('hex');
    const secret = mintSecret();
    await this.db
      .insertInto('api_keys')
      .values({
        id,
        operator_id: opts.admin ? OPERATOR_IDS.admin : opts.factory ? OPERATOR_IDS.factory : OPERATOR_IDS.alice,
        name: 'contract probe',
        secret_hash: hashSecret(secret),
        scopes: scopes.join(' '),
        rate_limit: null,
        plant: opts.factory ? SANDBOX_CREDENTIALS.factory.plant : null,
        created_at: Date.now(),
        revoked_at: null,
      })
      .execute();
    return { 'x-api-key': `vk_${id}.${secret}` };
  }
}

/** A JSON body just over the 1 MB limit of the JSON parser (and over every other body limit). */
export const OVERSIZED_JSON = JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 16) });
