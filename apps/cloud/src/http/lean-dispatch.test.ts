import http, { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendOk } from './envelope.ts';
import { leanDispatch } from './lean-dispatch.ts';
import { Lifecycle } from './lifecycle.ts';
import { Metrics } from './metrics.ts';

/**
 * What a lean call's handler and the error handler are given (gateway.hot-legs.int.test.ts holds the real legs
 * to the full stack): Node's own request and response on success, so every call has the same object shapes
 * (V8 gives an object whose prototype was switched a new shape for each property added after), and Express's
 * once something needs its API.
 */
describe('leanDispatch, taken from the server', () => {
  let server: http.Server;
  let url = '';
  const seen: { request: boolean; response: boolean; query: unknown }[] = [];

  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    const errors: ErrorRequestHandler = (err: Error, req, res, _next) => {
      // Express's own API on both: throws unless the call was given Express's setup
      res.status(500).json({ message: err.message, path: req.path, express: Object.getPrototypeOf(res) === app.response });
    };
    const lean = leanDispatch(
      [
        {
          method: 'GET',
          path: '/lean',
          handle: async (req, res) => {
            seen.push({
              request: Object.getPrototypeOf(req) === IncomingMessage.prototype,
              response: Object.getPrototypeOf(res) === ServerResponse.prototype,
              query: req.query,
            });
            if ('fail' in req.query) throw new Error('refused');
            sendOk(res, { ok: true });
          },
        },
      ],
      {
        lifecycle: new Lifecycle(),
        metrics: new Metrics({
          heldLongPolls: () => 0,
          loops: () => [],
          longestTicks: () => [],
          pool: () => null,
          pushListening: () => ({}),
          lifecycle: () => ({ inFlight: 0, draining: false }),
        }),
        logger: pino({ level: 'silent' }),
        errors,
      },
    );
    app.use(lean);
    app.get('/full', (req, res) => res.json({ query: req.query }));
    server = http.createServer(lean.listener(app));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('hands the handler Node’s request and response, with the query as Express’s getter parses it', async () => {
    const r = await fetch(`${url}/lean?a=1&a=2&b=%20x`);
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ code: 200, message: 'success', data: { ok: true } });
    const full = (await (await fetch(`${url}/full?a=1&a=2&b=%20x`)).json()) as { query: unknown };
    expect(seen.at(-1)).toEqual({ request: true, response: true, query: full.query });
    await fetch(`${url}/lean`);
    expect(seen.at(-1)!.query).toEqual({});
  });

  it('gives the call Express’s setup before the error handler uses its API', async () => {
    const r = await fetch(`${url}/lean?fail`);
    expect(r.status).toBe(500);
    expect(await r.json()).toEqual({ message: 'refused', path: '/lean', express: true });
  });

  it('a conditional request is answered by Express’s send, given its setup first', async () => {
    const r = await fetch(`${url}/lean`, { headers: { 'if-none-match': '"x"' } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ code: 200, message: 'success', data: { ok: true } });
  });
});
