import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.ts';
import { compressText } from './compress.ts';
import { SANDBOX_CREDENTIALS } from '../db/seed.ts';

/** The raw answer, as sent: no client-side decoding. */
function raw(
  url: string,
  encoding: string | null,
  headers: Record<string, string> = {},
): Promise<{ status: number; encoding: string | undefined; type: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { ...headers, ...(encoding ? { 'accept-encoding': encoding } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], type: res.headers['content-type'], body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('compressed text answers', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t?.close());

  it('/openapi.json travels as brotli or gzip at a fraction of its size, the same bytes once decoded', async () => {
    const plain = await raw(`${t.url}/openapi.json`, null);
    expect(plain.encoding).toBeUndefined();
    const br = await raw(`${t.url}/openapi.json`, 'br, gzip');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await raw(`${t.url}/openapi.json`, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    console.log(`/openapi.json: ${plain.body.length} bytes, gzip ${gz.body.length}, brotli ${br.body.length}`);
  });

  it('leaves images alone', async () => {
    const qr = await raw(`${t.url}/api/v1/machines/SBX-ALICE-0001/advertise-qr`, 'br, gzip', { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey });
    expect(qr.status).toBe(200);
    expect(qr.type).toMatch(/^image\/png/);
    expect(qr.encoding).toBeUndefined();
  });
});

describe('compressText on a held long poll', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    const app = express();
    app.use(compressText());
    const big = 'x'.repeat(8192);
    app.get('/cabinet/pending', (_req, res) => void setTimeout(() => res.type('application/json').send(JSON.stringify({ big })), 50));
    app.get('/other', (_req, res) => res.type('application/json').send(JSON.stringify({ big })));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise((r) => server.close(r)));

  it('sends the held answer as written; the same body elsewhere is compressed', async () => {
    expect((await raw(`${base}/cabinet/pending`, 'gzip')).encoding).toBeUndefined();
    expect((await raw(`${base}/CABINET/pending/`, 'gzip')).encoding).toBeUndefined();
    expect((await raw(`${base}/other`, 'gzip')).encoding).toBe('gzip');
  });
});
