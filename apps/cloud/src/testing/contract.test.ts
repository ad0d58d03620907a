import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkedFetch, ContractChecker, ContractViolation, serveContract } from './contract.ts';

const envelope = (data: unknown) => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { const: 200 }, message: { const: 'success' }, data },
});

const doc = {
  openapi: '3.1.0',
  jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
  paths: {
    '/api/v1/machines/{machineNo}': {
      get: {
        responses: {
          '200': {
            content: {
              'application/json': {
                schema: envelope({
                  type: 'object',
                  additionalProperties: false,
                  required: ['machineNo', 'seenAt'],
                  properties: { machineNo: { type: 'string' }, seenAt: { type: 'string', format: 'date-time' } },
                }),
              },
            },
          },
          '404': { $ref: '#/components/responses/NotFound' },
        },
      },
    },
    '/api/v1/machines/fleet': { get: { responses: { '200': { content: { 'application/json': { schema: envelope({ type: 'array' }) } } } } } },
    '/media/{file}': { get: { responses: { '200': { content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } } } } },
  },
  components: {
    responses: {
      NotFound: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['code', 'message', 'data'],
              properties: { code: { const: 404 }, message: { type: 'string' }, data: { type: 'null' } },
            },
          },
        },
      },
    },
  },
};

const json = (status: number, body: unknown) => ({ status, contentType: 'application/json; charset=utf-8', body: JSON.stringify(body) });
const machine = { machineNo: 'SBX-1', seenAt: '2026-12-04T10:00:00Z' };

describe('ContractChecker', () => {
  const c = new ContractChecker(doc);

  it('passes an answer that keeps the contract, through a $ref response too', () => {
    expect(c.check('GET', '/api/v1/machines/SBX-1', json(200, { code: 200, message: 'success', data: machine }))).toEqual([]);
    expect(c.check('GET', '/api/v1/machines/SBX-1', json(404, { code: 404, message: 'Machine not found', data: null }))).toEqual([]);
    expect(c.check('GET', '/media/abc.png', { status: 200, contentType: 'image/png', body: '\x89PNG' })).toEqual([]);
  });

  it('matches as Express does: any case, a trailing slash, a literal segment before a parameter', () => {
    expect(c.operation('get', '/API/V1/Machines/SBX-1/')?.template).toBe('/api/v1/machines/{machineNo}');
    expect(c.operation('get', '/api/v1/machines/fleet')?.template).toBe('/api/v1/machines/fleet');
  });

  it('names an undeclared property, a wrong type and a bad format', () => {
    const extra = c.check('GET', '/api/v1/machines/SBX-1', json(200, { code: 200, message: 'success', data: { ...machine, secret: 'x' } }));
    expect(extra.join('\n')).toMatch(/must NOT have additional properties \(secret\)/);
    expect(c.check('GET', '/api/v1/machines/SBX-1', json(200, { code: 200, message: 'ready', data: machine })).join('\n')).toMatch(/body\/message/);
    expect(
      c.check('GET', '/api/v1/machines/SBX-1', json(200, { code: 200, message: 'success', data: { ...machine, seenAt: 'yesterday' } })).join('\n'),
    ).toMatch(/seenAt must match format "date-time"/);
  });

  it('refuses an undeclared status and an undeclared content type', () => {
    expect(c.check('GET', '/api/v1/machines/SBX-1', json(409, { code: 409, message: 'x', data: null }))[0]).toMatch(/status not declared/);
    expect(c.check('GET', '/media/abc.png', { status: 200, contentType: 'video/mp4', body: '' })[0]).toMatch(/Content-Type video\/mp4 not declared/);
  });

  it('lets a path no operation matches answer only what any path answers', () => {
    expect(c.check('POST', '/no/such', json(404, { code: 404, message: 'No route', data: null }))).toEqual([]);
    expect(c.check('POST', '/no/such', json(400, { code: 400, message: 'bad JSON', data: null }))).toEqual([]);
    expect(c.check('GET', '/no/such', json(200, {}))[0]).toMatch(/no operation in the document/);
    expect(c.check('GET', '/docs/init.js', { status: 200, contentType: 'text/javascript', body: '' })).toEqual([]);
  });
});

describe('checkedFetch', () => {
  afterEach(() => vi.unstubAllGlobals());
  const answering = (status: number, body: unknown) =>
    vi.stubGlobal('fetch', async (input: string | URL) =>
      Object.defineProperty(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }), 'url', { value: String(input) }),
    );

  it('holds the answers of a server registered with its document, and leaves the body for the caller', async () => {
    const withdraw = serveContract('http://127.0.0.1:4101', () => doc);
    answering(200, { code: 200, message: 'success', data: machine });
    const res = await checkedFetch('http://127.0.0.1:4101/api/v1/machines/SBX-1');
    expect(((await res.json()) as { data: unknown }).data).toEqual(machine);
    answering(409, { code: 409, message: 'x', data: null });
    await expect(checkedFetch('http://127.0.0.1:4101/api/v1/machines/SBX-1')).rejects.toThrow(ContractViolation);
    withdraw();
    // withdrawn, or never registered: any answer passes
    expect((await checkedFetch('http://127.0.0.1:4101/api/v1/machines/SBX-1')).status).toBe(409);
    expect((await checkedFetch('http://127.0.0.1:4102/anything')).status).toBe(409);
  });

  it('checks the method the request was sent with', async () => {
    const withdraw = serveContract('http://127.0.0.1:4103', () => doc);
    answering(404, { code: 404, message: 'No route', data: null });
    // no POST on the path: what any path may answer (the enveloped 404)
    expect((await checkedFetch('http://127.0.0.1:4103/api/v1/machines/SBX-1', { method: 'POST' })).status).toBe(404);
    answering(200, { code: 200, message: 'success', data: machine });
    await expect(checkedFetch('http://127.0.0.1:4103/api/v1/machines/SBX-1', { method: 'POST' })).rejects.toThrow(/no operation in the document/);
    withdraw();
  });
});
