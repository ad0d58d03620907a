import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, sendOk } from './envelope.ts';

/** One raw exchange: status, the header lines as sent (name case kept, Date left out) and the body. */
function exchange(port: number, method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: string[]; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        const lines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i] !== 'Date') lines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        resolve({ status: res.statusCode ?? 0, headers: lines, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sendOk', () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    const data = { status: 'online', serverTime: '2026-11-26 12:00:00', note: 'π ≠ 3' };
    // what sendOk wrote before its direct path: Express's own send
    app.all(
      '/express',
      (_req, res) =>
        void res
          .status(200)
          .type('application/json')
          .send(JSON.stringify(ok(data))),
    );
    app.all('/sendOk', (_req, res) => sendOk(res, data));
    app.all('/sendOk/201', (_req, res) => sendOk(res, data, 201));
    app.all(
      '/express/201',
      (_req, res) =>
        void res
          .status(201)
          .type('application/json')
          .send(JSON.stringify(ok(data))),
    );
    server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((r) => server.close(() => r())));

  const cases: [string, string, Record<string, string>][] = [
    ['GET', '', {}],
    ['POST', '', {}],
    ['GET', '/201', {}],
    ['HEAD', '', {}],
    ['GET', '', { 'if-none-match': '*' }],
    ['GET', '', { 'if-modified-since': 'Thu, 26 Nov 2026 12:00:00 GMT' }],
  ];
  it.each(cases)('answers %s%s %j with the same status, header lines and body as Express’s send', async (method, suffix, headers) => {
    const expected = await exchange(port, method, `/express${suffix}`, headers);
    const actual = await exchange(port, method, `/sendOk${suffix}`, headers);
    expect(actual).toEqual(expected);
    if (method === 'GET' && Object.keys(headers).length === 0) expect(JSON.parse(actual.body)).toMatchObject({ code: 200, message: 'success' });
  });
});
