import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiDocs, operationIdOf, type RouteDoc } from './api-docs.ts';
import { derivedErrors } from './api-errors.ts';

const route = (over: Partial<RouteDoc>): RouteDoc => ({ method: 'get', path: '/api/v1/things', tag: 'machines', summary: 'Things', auth: 'none', ...over });

describe('the generated API document', () => {
  it('derives operationIds from method and path', () => {
    expect(operationIdOf({ method: 'get', path: '/api/v1/machines/:machineNo/commands/:commandId' })).toBe('getMachinesByMachineNoCommandsByCommandId');
    expect(operationIdOf({ method: 'post', path: '/cabinet/createOrder' })).toBe('postCabinetCreateOrder');
    expect(operationIdOf({ method: 'get', path: '/api/v1/machines/device-credentials/fleet' })).toBe('getMachinesDeviceCredentialsFleet');
  });

  it('derives the errors every route answers from its doc', () => {
    expect(derivedErrors(route({})).sort()).toEqual([400, 413, 415, 503]);
    expect(derivedErrors(route({ auth: 'operator', scopes: ['machines:read'], query: z.object({ page: z.number() }) })).sort()).toEqual([
      400, 401, 403, 413, 415, 422, 429, 503,
    ]);
    expect(derivedErrors(route({ auth: 'operator', groupSessions: true }))).not.toContain(403); // no scope asked, sessions let in
    expect(derivedErrors(route({ auth: 'operator' }))).toContain(403); // no scope asked, but closed to access-group sessions
    expect(derivedErrors(route({ auth: 'oauth-client', body: z.object({}) })).sort()).toEqual([400, 401, 413, 415, 429, 503]);
  });

  it('adds route-specific errors, documents scope alternatives, and refuses a duplicate operationId', () => {
    const docs = new ApiDocs();
    docs.add(route({ path: '/api/v1/fulfill', method: 'post', auth: 'operator', scopeAlternatives: [['machines:read'], ['commands:write']], errors: [404] }));
    const op = (docs.document()['paths'] as Record<string, Record<string, { security: unknown; responses: Record<string, unknown> }>>)['/api/v1/fulfill']![
      'post'
    ]!;
    // the console's page session: cookie and CSRF header together, in one requirement
    expect(op.security).toEqual([
      { apiKey: ['machines:read'] },
      { bearer: ['machines:read'] },
      { pageSession: ['machines:read'], pageCsrf: ['machines:read'] },
      { apiKey: ['commands:write'] },
      { bearer: ['commands:write'] },
      { pageSession: ['commands:write'], pageCsrf: ['commands:write'] },
    ]);
    const schemes = (docs.document()['components'] as { securitySchemes: Record<string, { in?: string; name?: string }> }).securitySchemes;
    expect([schemes['pageSession'], schemes['pageCsrf']].map((s) => [s?.in, s?.name])).toEqual([
      ['cookie', 'vend_session'],
      ['header', 'X-CSRF-Token'],
    ]);
    expect(Object.keys(op.responses)).toEqual(['200', '400', '401', '403', '404', '413', '415', '429', '503']);
    // the store's outage: every operation may answer it, and says when to retry
    const unavailable = (docs.document()['components'] as { responses: Record<string, { headers?: Record<string, unknown> }> }).responses['Unavailable'];
    expect(Object.keys(unavailable?.headers ?? {})).toEqual(['Retry-After']);
    docs.add(route({ path: '/api/v1/fulfill', method: 'post', operationId: 'again' }));
    docs.add(route({ path: '/x', operationId: 'again' }));
    expect(() => docs.document()).toThrow(/operationId again/);
  });
});
