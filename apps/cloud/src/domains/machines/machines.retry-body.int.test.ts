import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { checkedFetch } from '../../testing/contract.ts';
import type { Body } from '../../testing/answers.ts';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import type { MachineView } from './machines.schemas.ts';
import { freshSerial } from './machines.factories.ts';
import { startFakeNominatim, type FakeNominatim } from './fake-nominatim.ts';

/**
 * POST …/geocode/retry takes an optional body. One the JSON parser did not read (another content
 * type) is refused, not taken for "no body": otherwise a corrected address sent as text/plain would
 * be dropped silently and the stored address geocoded again.
 */

const alice = { 'x-api-key': SANDBOX_CREDENTIALS.alice.apiKey };
const BAD_REQUEST = /^Bad request — invalid or missing parameters: body: send the retry body as JSON/;

/** A raw POST with a chunked body (no Content-Length), which `fetch` does not send without a stream. */
function chunkedPost(base: string, path: string, headers: Record<string, string>, chunk: string): Promise<{ status: number; body: Body<unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(base + path), { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Body<unknown> }));
    });
    req.on('error', reject);
    req.write(chunk);
    req.end();
  });
}

describe.each(DIALECTS)('geocode retry body on %s', (dialect) => {
  let fake: FakeNominatim;
  let t: TestServer;
  const retryPath = (no: string) => `/api/v1/machines/${no}/geocode/retry`;
  const state = async (no: string) => {
    const db = t.ctx.database.db;
    const machine = await db.selectFrom('machines').selectAll().where('machine_no', '=', no).executeTakeFirstOrThrow();
    const audit = await db.selectFrom('audit_log').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return JSON.stringify([machine, Number(audit.n)]);
  };
  /** A machine whose stored address failed to geocode with a retryable provider error. */
  async function failedMachine(address: string): Promise<string> {
    const no = freshSerial('RTB');
    const reg = await call<Body<MachineView>>(t.url, 'POST', '/api/v1/machines/register', { headers: alice, json: { machineNo: no } });
    expect(reg.status, reg.text).toBe(200);
    fake.reply(address, { kind: 'status', status: 503 });
    const r = await call<Body<MachineView>>(t.url, 'PATCH', `/api/v1/machines/${no}`, { headers: alice, json: { address } });
    expect(r.body.data.geo).toMatchObject({ geocodeStatus: 'provider_error', geocodeRetryable: true });
    return no;
  }

  beforeAll(async () => {
    fake = await startFakeNominatim();
    t = await startTestServer(dialect, { env: { GEOCODER_URL: fake.url, GEOCODER_TIMEOUT_MS: '300', RATE_LIMIT_PER_HOUR: '1000000' } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['XML', 'application/xml'],
    ['an unknown content type', 'application/x-unknown'],
  ])('refuses a corrected address sent as %s with 400, geocodes nothing and changes nothing', async (_what, contentType) => {
    const no = await failedMachine('11 Flaky Ave');
    fake.reply('11 Flaky Ave', { kind: 'found' });
    const before = await state(no);
    const calls = fake.requests.length;
    const res = await checkedFetch(`${t.url}${retryPath(no)}`, {
      method: 'POST',
      headers: { ...alice, 'content-type': contentType },
      body: JSON.stringify({ address: '12 Fixed Lane' }),
    });
    const body = (await res.json()) as Body<unknown>;
    expect(res.status).toBe(400);
    expect(body).toEqual({ code: 400, message: expect.stringMatching(BAD_REQUEST), data: null });
    expect(fake.requests.length).toBe(calls);
    expect(await state(no)).toBe(before);
  });

  it('refuses a chunked body in another content type the same way', async () => {
    const no = await failedMachine('13 Flaky Ave');
    const before = await state(no);
    const calls = fake.requests.length;
    const r = await chunkedPost(t.url, retryPath(no), { ...alice, 'content-type': 'text/plain' }, '{"address":"14 Fixed Lane"}');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 400, message: expect.stringMatching(BAD_REQUEST), data: null });
    expect(fake.requests.length).toBe(calls);
    expect(await state(no)).toBe(before);
  });

  it('still re-geocodes the stored address with no body, and takes a corrected address sent as JSON', async () => {
    const no = await failedMachine('15 Flaky Ave');
    fake.reply('15 Flaky Ave', { kind: 'found' });
    const none = await call<Body<MachineView>>(t.url, 'POST', retryPath(no), { headers: alice });
    expect(none.status, none.text).toBe(200);
    expect(none.body.data).toMatchObject({ address: '15 Flaky Ave', geo: { geocodeStatus: 'resolved' } });

    const other = await failedMachine('16 Flaky Ave');
    const fixed = await call<Body<MachineView>>(t.url, 'POST', retryPath(other), { headers: alice, json: { address: '16 Fixed Lane' } });
    expect(fixed.status, fixed.text).toBe(200);
    expect(fixed.body.data).toMatchObject({ address: '16 Fixed Lane', geo: { geocodeStatus: 'resolved' } });
  });
});
