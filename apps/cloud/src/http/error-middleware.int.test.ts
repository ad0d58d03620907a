import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandler } from './error-middleware.ts';
import { AppError, badRequest, conflict, unauthorized } from './errors.ts';

// Spec 1 §7 fixes the message of a 400 and a 401: whatever a domain throws, the client reads that text
// first and the reason after it, in the envelope.
const THROWN: Record<string, () => never> = {
  'bad-bare': () => {
    throw badRequest('Machine M1 has no aisle 11');
  },
  'bad-default': () => {
    throw badRequest();
  },
  'bad-prefixed': () => {
    throw badRequest('Bad request — invalid or missing parameters: already said');
  },
  'bad-issues': () => {
    throw badRequest(undefined, [{ path: 'body.aisleNo', message: 'must be at least 1' }]);
  },
  'unauth-bare': () => {
    throw unauthorized('invalid verification code');
  },
  'unauth-default': () => {
    throw unauthorized();
  },
  'conflict-bare': () => {
    throw conflict('Aisle 3 is faulted');
  },
  'rate-limited': () => {
    throw new AppError('rate_limited', undefined, { headers: { 'Retry-After': '3600' } });
  },
};

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.get('/:case', (req) => THROWN[req.params.case]!());
  app.use(errorHandler(pino({ level: 'silent' }), { writeFailures: 0 }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

async function get(c: string): Promise<{ status: number; body: unknown; retryAfter: string | null }> {
  const r = await fetch(`${base}/${c}`);
  return { status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after') };
}

describe('error rendering', () => {
  it.each([
    ['bad-bare', 400, 'Bad request — invalid or missing parameters: Machine M1 has no aisle 11'],
    ['bad-default', 400, 'Bad request — invalid or missing parameters'],
    ['bad-prefixed', 400, 'Bad request — invalid or missing parameters: already said'],
    ['bad-issues', 400, 'Bad request — invalid or missing parameters: body.aisleNo: must be at least 1'],
    ['unauth-bare', 401, 'Invalid API key: invalid verification code'],
    ['unauth-default', 401, 'Invalid API key'],
    ['conflict-bare', 409, 'Aisle 3 is faulted'],
    ['rate-limited', 429, 'Rate limit exceeded'],
  ])('%s → %i %j in the envelope', async (c, status, message) => {
    const r = await get(c);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ code: status, message, data: null });
    if (status === 429) expect(r.retryAfter).toBe('3600');
  });
});
