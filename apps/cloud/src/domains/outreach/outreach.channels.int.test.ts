import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { DIALECTS, TEST_EPOCH, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { type Body } from '../../testing/answers.ts';
import { newOperator } from '../machines/machines.factories.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import { CALLBACK_SIGNATURE_HEADER, signCallback } from './channels/callback-signature.ts';
import { STATUS_CALLBACK_PATH } from './outreach.service.ts';
import { RETRY_CADENCE_MS } from './outreach.rules.ts';

type Preview = { channels: { channel: string; message: { subject: string | null; body: string; unsubscribeUrl: string | null } }[] };
type Step = { touch: { channel: string; status: string; messageId: string } | null };

const SECRET = 'outreach-test-secret-0123456789';
const VENUE = {
  name: 'Harbor Gym',
  address: null,
  lat: 51.5,
  lng: -0.12,
  vertical: 'gym',
  timeZone: 'Europe/London',
  email: 'front@harbor.test',
  phone: '+442071234567',
  dailyVisitors: 800,
};

/** One received SMTP message: envelope and raw bytes. */
interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** The headers (unfolded) and the decoded text body of a single-part message. */
function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of raw
    .slice(0, split)
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  expect(headers['content-transfer-encoding']).toBe('base64');
  return { headers, text: Buffer.from(raw.slice(split + 4), 'base64').toString('utf8') };
}

/**
 * The real channel adapters against real local servers: e-mail over SMTP (nodemailer → an smtp-server
 * started here), voice and text through the Twilio-style REST adapter (→ a fake provider on 127.0.0.1)
 * with its signed status callback.
 */
describe.each(DIALECTS)('outreach channel adapters on %s', (dialect) => {
  const received: Received[] = [];
  const provider: { path: string; auth: string | undefined; form: URLSearchParams }[] = [];
  let failProvider = false;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  const fake = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      provider.push({ path: req.url ?? '', auth: req.headers.authorization, form: new URLSearchParams(body) });
      if (failProvider) {
        res.writeHead(500).end('{"message":"down"}');
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ sid: `SM${String(provider.length).padStart(4, '0')}` }));
    });
  });
  const clock = new ManualClock(TEST_EPOCH);
  let t: TestServer;

  beforeAll(async () => {
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const smtpPort = (smtp.server.address() as AddressInfo).port;
    const fakePort = (fake.address() as AddressInfo).port;
    t = await startTestServer(dialect, {
      clock,
      seed: false,
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'placements@operator.test',
        TELEPHONY_URL: `http://127.0.0.1:${fakePort}/2010-04-01`,
        TELEPHONY_ACCOUNT: 'AC123',
        TELEPHONY_TOKEN: 'tok-secret',
        TELEPHONY_FROM: '+15005550006',
        OUTREACH_WEBHOOK_SECRET: SECRET,
        PUBLIC_BASE_URL: 'https://cloud.operator.test',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise<void>((r) => smtp.close(() => r()));
    await new Promise<void>((r) => fake.close(() => r()));
  });

  it('the e-mail the SMTP server receives is the one previewed; text and voice reach the provider and its signed status lands', async () => {
    const me = await newOperator(t.ctx.database.db, clock.now());
    const api = <T>(method: string, path: string, json?: unknown) =>
      call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: me.headers, ...(json !== undefined ? { json } : {}) });
    await api('POST', '/directory/import', { venues: [VENUE] });
    const deal = (await api<DealState>('POST', '/deals', { tier: 'pro', hardwareVariant: 'agent' })).body.data;
    const venueId = (await api<{ records: { id: string }[] }>('GET', `/deals/${deal.id}/shortlist`)).body.data.records[0]!.id;
    expect((await api('POST', `/deals/${deal.id}/shortlist/accept`, { venueId })).status).toBe(200);

    const preview = (await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`)).body.data;
    const email = preview.channels.find((c) => c.channel === 'email')!.message;
    expect(email.unsubscribeUrl).toMatch(/^https:\/\/cloud\.operator\.test\/api\/v1\/dfy\/outreach\/unsubscribe\/[A-Za-z0-9_-]{43}$/);
    const first = await api<Step>('POST', `/deals/${deal.id}/outreach/start`, {});
    expect(first.body.data.touch).toMatchObject({ channel: 'email', status: 'sent' });
    expect(received).toHaveLength(1);
    const m = parseMail(received[0]!.raw);
    expect(received[0]).toMatchObject({ from: 'placements@operator.test', to: ['front@harbor.test'] });
    expect(m.headers['subject']).toBe(email.subject);
    expect(m.text).toBe(email.body);
    expect(m.headers['list-unsubscribe']).toBe(`<${email.unsubscribeUrl}>`);

    // the text: the provider's REST shape, basic auth, the status callback URL; then its signed status
    clock.advance(RETRY_CADENCE_MS);
    const sms = (await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`)).body.data.channels.find((c) => c.channel === 'sms')!;
    const second = await api<Step>('POST', `/deals/${deal.id}/outreach/start`, {});
    expect(second.body.data.touch).toMatchObject({ channel: 'sms', status: 'sent' });
    const sent = provider.at(-1)!;
    expect(sent.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(sent.auth).toBe(`Basic ${Buffer.from('AC123:tok-secret').toString('base64')}`);
    expect(Object.fromEntries(sent.form)).toMatchObject({
      To: '+442071234567',
      From: '+15005550006',
      StatusCallback: `https://cloud.operator.test${STATUS_CALLBACK_PATH}`,
    });
    expect(sent.form.get('Body')).toBe(sms.message.body);
    expect(sms.message.body).toMatch(/^Hi Harbor Gym, Vend Placements again/);

    const params = { MessageSid: 'SM0001', MessageStatus: 'delivered' };
    const status = (sig: string) =>
      call<Body<{ effect: string }>>(t.url, 'POST', STATUS_CALLBACK_PATH, {
        headers: { 'content-type': 'application/x-www-form-urlencoded', [CALLBACK_SIGNATURE_HEADER]: sig },
        body: new URLSearchParams(params).toString(),
      });
    expect((await status(signCallback('not-the-secret-at-all!', STATUS_CALLBACK_PATH, params))).status).toBe(401);
    const good = await status(signCallback(SECRET, STATUS_CALLBACK_PATH, params));
    expect(good.status, good.text).toBe(200);
    expect(good.body.data.effect).toBe('recorded');
    const row = await t.ctx.database.db
      .selectFrom('outreach_messages')
      .select(['status', 'provider_ref'])
      .where('channel', '=', 'sms')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'delivered', provider_ref: 'SM0001' });

    // the call: the same script text, spoken (escaped into the call document)
    clock.advance(RETRY_CADENCE_MS);
    const voicePreview = (await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`)).body.data.channels.find((c) => c.channel === 'voice')!;
    expect((await api<Step>('POST', `/deals/${deal.id}/outreach/start`, {})).body.data.touch).toMatchObject({ channel: 'voice', status: 'sent' });
    expect(provider.at(-1)!.path).toBe('/2010-04-01/Accounts/AC123/Calls.json');
    expect(provider.at(-1)!.form.get('Twiml')).toBe(`<Response><Say>${voicePreview.message.body}</Say></Response>`);

    // a provider that refuses: the touch is marked failed and the contact goes to a person
    failProvider = true;
    clock.advance(RETRY_CADENCE_MS);
    await api('POST', `/deals/${deal.id}/outreach/start`, { channelOrder: ['sms'] });
    const failed = await t.ctx.database.db
      .selectFrom('outreach_messages')
      .select(['status'])
      .where('channel', '=', 'sms')
      .orderBy('sent_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(failed.status).toBe('failed');
    const open = (await api<{ records: { kind: string }[] }>('GET', `/checkpoints?dealId=${deal.id}&resolved=false`)).body.data.records
      .map((c) => c.kind)
      .sort();
    expect(open).toEqual(['call_outcome', 'contact_verify', 'negotiation_target']);
    failProvider = false;
  });
});
