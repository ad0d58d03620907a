import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The served OpenAPI document as a contract every answer a test receives is held to (issue 30): the status must be
 * one the operation declares, the content type one declared for that status, and a JSON body valid against its
 * schema (Ajv, JSON Schema 2020-12, the dialect the document states). An answer off the document is a defect of the
 * service or of the document, whichever is wrong; the test that received it fails with what differs.
 */

type Json = Record<string, unknown>;

/** Served, and not operations of the API: the document itself and its reference page with its assets. */
const UNDESCRIBED = /^\/(openapi\.json|docs(\/.*)?)$/;

/**
 * What any path answers before routing or for want of a route: the body parsers' 400/413/415 (they read every body,
 * whatever the path) and the enveloped 404 or 405. A path no operation matches may answer only these.
 */
const ANY_PATH = new Set([400, 404, 405, 413, 415]);

export interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters: an operation with fewer wins when two match (`/machines/device-credentials` over `/machines/{machineNo}`). */
  params: number;
  responses: Record<string, Json>;
  /** The request body's schema by media type (none: the operation takes no body). */
  requestBody: Record<string, Json>;
  /** Query parameters' schemas by name, and which are required. */
  query: { name: string; required: boolean; schema: Json }[];
}

export interface ContractAnswer {
  status: number;
  /** The Content-Type header, if any. */
  contentType: string | null;
  body: string;
}

/** The operation's declared media type that an answer's Content-Type falls under (`application/json; charset=utf-8` under `application/json`). */
function mediaTypeOf(contentType: string | null): string | null {
  return contentType ? contentType.split(';')[0]!.trim().toLowerCase() : null;
}

/**
 * The validator the document is read with: JSON Schema 2020-12, formats checked. strict off: the document's schemas
 * carry OpenAPI's own keywords (`example`) beside JSON Schema's. `multipleOf` within 1e-6: 34.58 is a multiple of
 * 0.01, though 34.58 / 0.01 is 3457.9999999999995 in binary floating point (and 1918513.88 / 0.01 is
 * 191851388.00000003).
 */
export function contractAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true, multipleOfPrecision: 6 });
  addFormats.default(ajv);
  return ajv;
}

export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[] = [];
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = contractAjv();
    const paths = (document['paths'] ?? {}) as Record<string, Record<string, Json>>;
    for (const [template, item] of Object.entries(paths)) {
      const names: string[] = [];
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'post', 'put', 'patch', 'delete', 'head', 'options'].includes(method)) continue;
        this.operations.push({
          method,
          template,
          // as Express routes: any letter case, an optional trailing slash
          pattern: new RegExp(`^${source}/?$`, 'i'),
          params: names.length,
          responses: (op['responses'] ?? {}) as Record<string, Json>,
          requestBody: Object.fromEntries(
            Object.entries(((op['requestBody'] as Json | undefined)?.['content'] ?? {}) as Record<string, Json>).map(([type, e]) => [
              type,
              (e['schema'] ?? {}) as Json,
            ]),
          ),
          query: ((op['parameters'] ?? []) as Json[])
            .filter((p) => p['in'] === 'query')
            .map((p) => ({ name: String(p['name']), required: p['required'] === true, schema: (p['schema'] ?? {}) as Json })),
        });
      }
    }
  }

  /** The operation a request reaches, by method and path (undefined: the document has none). */
  operation(method: string, pathname: string): Operation | undefined {
    const m = method.toLowerCase();
    return this.operations.filter((o) => o.method === m && o.pattern.test(pathname)).sort((a, b) => a.params - b.params)[0];
  }

  /** What differs between the answer and the document; empty when it keeps the contract. */
  check(method: string, pathname: string, answer: ContractAnswer): string[] {
    const op = this.operation(method, pathname);
    // an unknown route's 404 is the service's enveloped not-found, which the document cannot list under any operation;
    // the document does not describe itself or the page that renders it
    if (!op)
      return ANY_PATH.has(answer.status) || UNDESCRIBED.test(pathname)
        ? []
        : [`${method} ${pathname}: no operation in the document, answered ${answer.status}`];
    const where = `${method.toUpperCase()} ${op.template} → ${answer.status}`;
    const declared = op.responses[String(answer.status)] ?? op.responses['default'];
    if (!declared) return [`${where}: status not declared (declared: ${Object.keys(op.responses).join(', ')})`];
    const response = this.resolve(declared);
    const content = (response['content'] ?? {}) as Record<string, Json>;
    const media = mediaTypeOf(answer.contentType);
    if (Object.keys(content).length === 0) return [];
    if (!media) return answer.body === '' ? [] : [`${where}: no Content-Type; declared ${Object.keys(content).join(', ')}`];
    const entry = content[media] ?? content[`${media.split('/')[0]}/*`] ?? content['*/*'];
    if (!entry) return [`${where}: Content-Type ${media} not declared (declared: ${Object.keys(content).join(', ')})`];
    const schema = entry['schema'] as Json | undefined;
    if (!schema || !(media === 'application/json' || media.endsWith('+json'))) return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return [`${where}: ${media} body is not JSON: ${answer.body.slice(0, 200)}`];
    }
    const validate = this.validator(schema);
    if (validate(body)) return [];
    return (validate.errors ?? [])
      .slice(0, 8)
      .map(
        (e) =>
          `${where}: body${e.instancePath} ${e.message ?? 'is invalid'}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params['additionalProperty'])})` : ''}`,
      );
  }

  /**
   * What differs between a request and the document: its JSON body against the operation's request body schema,
   * its query values (typed as the client meant them, before they became text) against the parameters'. Empty when
   * the request keeps the contract. The request-side property tests' oracle (testing/requests.property.int.test.ts).
   */
  checkRequest(method: string, pathname: string, request: { body?: unknown; query?: Record<string, unknown> }): string[] {
    const op = this.operation(method, pathname);
    if (!op) return [`${method} ${pathname}: no operation in the document`];
    const where = `${method.toUpperCase()} ${op.template}`;
    const problems: string[] = [];
    if (request.body !== undefined) {
      const schema = op.requestBody['application/json'];
      if (!schema) problems.push(`${where}: takes no JSON body`);
      else problems.push(...this.problems(schema, request.body, `${where}: body`));
    }
    const query = request.query ?? {};
    for (const p of op.query) {
      if (p.name in query) problems.push(...this.problems(p.schema, query[p.name], `${where}: ?${p.name}`));
      else if (p.required) problems.push(`${where}: ?${p.name} is required`);
    }
    for (const name of Object.keys(query)) if (!op.query.some((p) => p.name === name)) problems.push(`${where}: ?${name} is not a parameter`);
    return problems;
  }

  private problems(schema: Json, value: unknown, where: string): string[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).slice(0, 8).map((e) => `${where}${e.instancePath} ${e.message ?? 'is invalid'}`);
  }

  private validator(schema: Json): ValidateFunction {
    let v = this.compiled.get(schema);
    if (!v) {
      v = this.ajv.compile(schema);
      this.compiled.set(schema, v);
    }
    return v;
  }

  /** A response object, following a `$ref` into the document's components. */
  private resolve(obj: Json): Json {
    const ref = obj['$ref'];
    if (typeof ref !== 'string') return obj;
    let node: unknown = this.document;
    for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return this.resolve(node as Json);
  }
}

// --- the servers a test talks to ---------------------------------------------------------------------------------

/** An answer that is not what the served document declares for its operation. */
export class ContractViolation extends Error {}

/**
 * Every server whose answers are held to its document, by origin: a test server of this process (the harness
 * registers its own document) or a cloud started as a process (`expectContract` reads its /openapi.json). One checker
 * per distinct document in this process: servers of one build serve the same one.
 */
const served = new Map<string, () => ContractChecker>();
const checkers = new Map<string, ContractChecker>();

function checkerFor(document: Json): ContractChecker {
  const key = JSON.stringify(document);
  let c = checkers.get(key);
  if (!c) checkers.set(key, (c = new ContractChecker(document)));
  return c;
}

/** Holds every answer from `origin` to `document` (read when the first answer is checked); the returned function stops it. */
export function serveContract(origin: string, document: () => Json): () => void {
  const key = new URL(origin).origin;
  let checker: ContractChecker | undefined;
  const get = () => (checker ??= checkerFor(document()));
  served.set(key, get);
  return () => {
    if (served.get(key) === get) served.delete(key);
  };
}

/**
 * Holds every answer from the cloud at `url` (a process: the end-to-end suites' cloud, a replica) to the document it
 * serves, read now, while it answers; the returned function stops it.
 */
export async function expectContract(url: string): Promise<() => void> {
  const res = await fetch(new URL('/openapi.json', url), { signal: AbortSignal.timeout(15_000) });
  if (res.status !== 200) throw new Error(`GET ${url}/openapi.json answered ${res.status}`);
  const document = (await res.json()) as Json;
  return serveContract(url, () => document);
}

/** What differs between an answer from a server held to its document and that document (none: a server not held). */
export function checkAnswer(method: string, url: URL, answer: ContractAnswer): void {
  const problems = served.get(url.origin)?.().check(method, url.pathname, answer) ?? [];
  if (problems.length) throw new ContractViolation(`the answer is not what /openapi.json declares:\n  ${problems.join('\n  ')}`);
}

/**
 * `fetch`, with the answer of a server held to its document checked against it (ContractViolation when it is off):
 * the one client for a test that does not go through the harness's `call`. The body stays unread for the caller.
 */
export async function checkedFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(input, init);
  const url = new URL(res.url || String(input));
  if (served.has(url.origin)) {
    const body = await res.clone().text();
    checkAnswer(init.method ?? 'GET', url, { status: res.status, contentType: res.headers.get('content-type'), body });
  }
  return res;
}
