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

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  /** Path parameters: an operation with fewer wins when two match (`/machines/device-credentials` over `/machines/{machineNo}`). */
  params: number;
  responses: Record<string, Json>;
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

export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly operations: Operation[] = [];
  private readonly compiled = new WeakMap<object, ValidateFunction>();

  constructor(private readonly document: Json) {
    // strict off: the document's schemas carry OpenAPI's own keywords (`example`) beside JSON Schema's
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true });
    addFormats.default(this.ajv);
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
