import { describe, expect, it } from 'vitest';
import { DIALECTS, call, suiteServer } from '../../testing/harness.ts';
import { okData, type Body } from '../../testing/answers.ts';
import { newOperator } from '../machines/machines.factories.ts';
import type { DealState } from '../dfy/deals/deal-model.ts';
import type { RecordingMailSender } from '../../mail/mail-sender.ts';
import type { RecordingTelephony } from './channels/telephony.ts';
import { CALLBACK_SIGNATURE_HEADER, signCallback } from './channels/callback-signature.ts';
import { SANDBOX_SECRETS } from '../../config.ts';
import { INBOUND_CALLBACK_PATH, STATUS_CALLBACK_PATH } from './outreach.service.ts';
import { RETRY_CADENCE_MS } from './outreach.rules.ts';
import { sandboxMandate } from '../negotiation/sandbox-seed.ts';

type H = Record<string, string>;
type Person = { id: string; email: string; headers: H };
type Step = {
  touch: { messageId: string; channel: string; to: string; scriptId: string; scriptVersion: string; status: string } | null;
  waiting: { reason: string; until: string | null } | null;
  skipped: { channel: string; reason: string }[];
};
type Preview = {
  scriptKind: string;
  channels: {
    channel: string;
    to: string | null;
    eligibleNow: boolean;
    reason: string | null;
    message: { subject: string | null; body: string; unsubscribeUrl: string | null; scriptVersion: string };
  }[];
};
type Checkpoint = { id: string; kind: string; resolved: boolean };

const HOUR = 3_600_000;
/** London: TEST_EPOCH (12:00Z) is inside the window there; New York (7:00) is not. */
const VENUES = [
  {
    name: 'Harbor Gym',
    address: '12 Pier St',
    lat: 51.5,
    lng: -0.12,
    vertical: 'gym',
    timeZone: 'Europe/London',
    email: 'Front@HarborGym.test',
    phone: '+442071234567',
    dailyVisitors: 800,
  },
  {
    name: 'Dawn Laundromat',
    address: null,
    lat: 40.7,
    lng: -74,
    vertical: 'laundromat',
    timeZone: 'America/New_York',
    email: 'hello@dawn.test',
    phone: '+12125550100',
    dailyVisitors: 200,
  },
  { name: 'Quiet Library', address: null, lat: 51.6, lng: -0.2, vertical: 'library', timeZone: 'Europe/London', email: null, phone: null, dailyVisitors: 90 },
];
/** Each test's venues have their own addresses: a reply finds its conversation by the address it comes from. */
let run = 0;
const venuesOf = (n: number) =>
  VENUES.map((v) => ({ ...v, email: v.email?.replace('@', `+${n}@`) ?? null, phone: v.phone ? `${v.phone.slice(0, -2)}${String(n).padStart(2, '0')}` : null }));

describe.each(DIALECTS)('done-for-you outreach on %s', (dialect) => {
  const t = suiteServer(dialect);
  const db = () => t.ctx.database.db;
  const api = <T = unknown>(method: string, path: string, who: { headers: H }, json?: unknown, query?: Record<string, string>) =>
    call<Body<T>>(t.url, method, `/api/v1/dfy${path}`, { headers: who.headers, ...(json !== undefined ? { json } : {}), ...(query ? { query } : {}) });
  const inbox = async (who: Person, dealId: string) =>
    okData(await api<{ records: Checkpoint[] }>('GET', '/checkpoints', who, undefined, { dealId, resolved: 'false' }))
      .records.map((c) => c.kind)
      .sort();
  const callback = (path: string, params: Record<string, string>, signature = signCallback(SANDBOX_SECRETS.OUTREACH_WEBHOOK_SECRET, path, params)) =>
    call<Body<{ accepted: boolean; effect: string; dealId: string | null }>>(t.url, 'POST', path, {
      headers: { 'content-type': 'application/x-www-form-urlencoded', [CALLBACK_SIGNATURE_HEADER]: signature },
      body: new URLSearchParams(params).toString(),
    });
  const mailbox = () => t.services.mail as RecordingMailSender;
  const phone = (c: 'sms' | 'voice') => t.services.outreachChannels[c] as RecordingTelephony;

  /** A deal of `who` at outreach on the directory venue `name`. */
  const atOutreach = async (who: Person, name: string) => {
    okData(await api('POST', '/directory/import', who, { venues: venuesOf(run) }));
    const d = okData(await api<DealState>('POST', '/deals', who, { tier: 'pro', hardwareVariant: 'agent' }));
    const list = okData(await api<{ records: { id: string; name: string }[] }>('GET', `/deals/${d.id}/shortlist`, who));
    const venue = list.records.find((v) => v.name === name)!;
    return { deal: okData(await api<DealState>('POST', `/deals/${d.id}/shortlist/accept`, who, { venueId: venue.id })), venueId: venue.id };
  };

  it('the directory is imported (validated, same name updates) and scored into a shortlist; accepting resolves scout_outreach', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    expect(okData(await api('POST', '/directory/import', me, { venues: VENUES }))).toEqual({ created: 3, updated: 0, total: 3 });
    expect(okData(await api('POST', '/directory/import', me, { venues: [{ ...VENUES[2], dailyVisitors: 95 }] }))).toEqual({ created: 0, updated: 1, total: 3 });
    expect((await api('POST', '/directory/import', me, { venues: [{ ...VENUES[0], timeZone: 'Mars/Olympus' }] })).status).toBe(400);
    expect((await api('POST', '/directory/import', me, { venues: [{ ...VENUES[0], lat: 'north' }] })).status).toBe(422);
    expect((await api('POST', '/directory/import', me, { venues: [VENUES[0], VENUES[0]] })).status).toBe(400);

    const d = okData(await api<DealState>('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent' }));
    expect(await inbox(me, d.id)).toEqual(['scout_outreach']);
    const list = okData(
      await api<{ records: { id: string; name: string; score: number; distanceKm: number | null }[] }>('GET', `/deals/${d.id}/shortlist`, me, undefined, {
        lat: '51.5',
        lng: '-0.12',
        vertical: 'gym',
      }),
    );
    expect(list.records.map((v) => v.name)).toEqual(['Harbor Gym', 'Dawn Laundromat', 'Quiet Library']);
    expect(list.records[0]).toMatchObject({ score: 100, distanceKm: 0 });
    // outreach cannot start before a venue is accepted
    expect((await api('POST', `/deals/${d.id}/outreach/start`, me, {})).status).toBe(409);
    const accepted = okData(await api<DealState>('POST', `/deals/${d.id}/shortlist/accept`, me, { venueId: list.records[0]!.id }));
    expect(accepted).toMatchObject({ stage: 'outreach', venue: { name: 'Harbor Gym', lat: 51.5 } });
    expect(await inbox(me, d.id)).toEqual(['negotiation_target']);
    expect((await api('POST', `/deals/${d.id}/shortlist/accept`, me, { venueId: list.records[0]!.id })).status).toBe(409);
  });

  it('start sends exactly the previewed e-mail first, then rotates to text and voice 24 h apart; voice raises call_outcome', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    const preview = okData(await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`, me));
    expect(preview.scriptKind).toBe('intro');
    expect(preview.channels.map((c) => [c.channel, c.to, c.eligibleNow])).toEqual([
      ['email', `front+${run}@harborgym.test`, true],
      ['sms', `+4420712345${String(run).padStart(2, '0')}`, true],
      ['voice', `+4420712345${String(run).padStart(2, '0')}`, true],
    ]);
    const mails = mailbox().sent.length;
    const first = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    expect(first.touch).toMatchObject({
      channel: 'email',
      to: `front+${run}@harborgym.test`,
      scriptId: 'intro.email',
      scriptVersion: 'outreach-scripts@1',
      status: 'sent',
    });
    const sent = mailbox().sent.slice(mails);
    expect(sent).toHaveLength(1);
    const email = preview.channels[0]!.message;
    expect({ subject: sent[0]!.subject, text: sent[0]!.text }).toEqual({ subject: email.subject, text: email.body });
    expect(sent[0]!.headers?.['List-Unsubscribe']).toBe(`<${email.unsubscribeUrl}>`);

    // the touch is on the timeline with its channel and script version
    const after = okData(await api<DealState>('GET', `/deals/${deal.id}`, me));
    expect(after.timeline.filter((x) => x.event === 'outreach_touch').map((x) => [x.channel, x.stage, x.scriptVersion])).toEqual([
      ['email', 'outreach', 'outreach-scripts@1'],
    ]);

    // the cadence: nothing before 24 h, on demand or not
    t.clock.advance(RETRY_CADENCE_MS - 1);
    const early = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    expect(early).toMatchObject({ touch: null, waiting: { reason: 'cadence', until: '2026-11-21T12:00:00.000+0000' } });
    t.clock.advance(1);
    const texts = phone('sms').sent.length;
    const second = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    expect(second.touch).toMatchObject({ channel: 'sms', scriptId: 'follow_up.sms' });
    expect(
      phone('sms')
        .sent.slice(texts)
        .map((s) => s.to),
    ).toEqual([`+4420712345${String(run).padStart(2, '0')}`]);
    t.clock.advance(RETRY_CADENCE_MS);
    const third = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    expect(third.touch).toMatchObject({ channel: 'voice', scriptId: 'follow_up.voice' });
    expect(await inbox(me, deal.id)).toEqual(['call_outcome', 'negotiation_target']);
    // round-robin comes back to e-mail
    t.clock.advance(RETRY_CADENCE_MS);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch).toMatchObject({ channel: 'email', scriptId: 'follow_up.email' });
    const replay = okData(await api<{ matchesStored: boolean }>('GET', `/deals/${deal.id}/replay`, me));
    expect(replay.matchesStored).toBe(true);
  });

  it('voice and text wait for the calling window in the venue time zone; the channel order is per deal', async () => {
    // 12:00Z is 7:00 in New York
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Dawn Laundromat');
    const early = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['sms', 'voice'] }));
    expect(early).toMatchObject({
      touch: null,
      waiting: { reason: 'no_channel_now' },
      skipped: [
        { channel: 'sms', reason: 'outside_window' },
        { channel: 'voice', reason: 'outside_window' },
      ],
    });
    t.clock.set(Date.parse('2026-11-20T14:00:00Z')); // 9:00 in New York
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch).toMatchObject({
      channel: 'sms',
      to: `+121255501${String(run).padStart(2, '0')}`,
    });
    expect((await api('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['sms', 'sms'] })).status).toBe(400);
    expect((await api('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['fax'] })).status).toBe(400);
    // a new order on a started run restarts the rotation, not the conversation: the next touch follows up
    t.clock.advance(RETRY_CADENCE_MS);
    const again = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['email', 'sms'] }));
    expect(again.touch).toMatchObject({ channel: 'email', scriptId: 'follow_up.email' });
    expect(okData(await api<DealState>('GET', `/deals/${deal.id}`, me)).outreach).toMatchObject({ touches: 2, channelOrder: ['email', 'sms'] });
    expect(okData(await api<{ matchesStored: boolean }>('GET', `/deals/${deal.id}/replay`, me)).matchesStored).toBe(true);
  });

  it('the frequency cap stops a third text to a venue within a week', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['sms'] }));
    t.clock.advance(RETRY_CADENCE_MS);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch?.channel).toBe('sms');
    t.clock.advance(RETRY_CADENCE_MS);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}))).toMatchObject({
      touch: null,
      skipped: [{ channel: 'sms', reason: 'frequency_cap' }],
    });
    // a week after the first text, it no longer counts
    t.clock.advance(5 * RETRY_CADENCE_MS - 1);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch).toBeNull();
    t.clock.advance(1);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch?.channel).toBe('sms');
  });

  it('a reply raises reply_review and holds automated touches; STOP and the unsubscribe link opt out at once', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    const preview = okData(await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`, me));
    okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    // unsigned or wrongly signed callbacks are refused before anything is read
    expect((await callback(INBOUND_CALLBACK_PATH, { Channel: 'email', From: `front+${run}@harborgym.test`, Body: 'hi' }, 'bm9wZQ==')).status).toBe(401);
    expect((await callback(INBOUND_CALLBACK_PATH, { From: 'x', Body: 'hi' }, '')).status).toBe(401);

    const reply = await callback(INBOUND_CALLBACK_PATH, { Channel: 'email', From: `FRONT+${run}@harborgym.test`, Body: 'Sounds interesting, call me' });
    expect(okData(reply)).toMatchObject({ accepted: true, dealId: deal.id, effect: 'reply_review' });
    expect(await inbox(me, deal.id)).toEqual(['negotiation_target', 'reply_review']);
    t.clock.advance(RETRY_CADENCE_MS);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}))).toMatchObject({ touch: null, waiting: { reason: 'reply_review' } });
    const review = okData(await api<{ records: Checkpoint[] }>('GET', '/checkpoints', me, undefined, { dealId: deal.id, kind: 'reply_review' })).records[0]!;
    okData(await api('POST', `/checkpoints/${review.id}/acknowledge`, me));
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch?.channel).toBe('sms');

    // STOP by text: the number is never texted again, the rest of the rotation goes on
    expect(okData(await callback(INBOUND_CALLBACK_PATH, { Channel: 'sms', From: `+4420712345${String(run).padStart(2, '0')}`, Body: 'STOP' }))).toMatchObject({
      effect: 'opted_out',
    });
    expect(await inbox(me, deal.id)).toEqual(['negotiation_target']);
    t.clock.advance(RETRY_CADENCE_MS);
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch?.channel).toBe('voice');
    t.clock.advance(RETRY_CADENCE_MS);
    const p2 = okData(await api<Preview>('GET', `/deals/${deal.id}/outreach/preview`, me));
    expect(p2.channels.find((c) => c.channel === 'sms')).toMatchObject({ eligibleNow: false, reason: 'opted_out' });

    // the unsubscribe link of the first e-mail (no credential): e-mail is opted out too
    const link = new URL(preview.channels[0]!.message.unsubscribeUrl!);
    expect((await call(t.url, 'GET', `${link.pathname.slice(0, -4)}AAAA`)).status).toBe(404);
    expect((await call<Body<{ unsubscribed: boolean }>>(t.url, 'GET', link.pathname)).body.data).toEqual({ unsubscribed: true });
    expect((await call(t.url, 'POST', link.pathname)).status).toBe(200);
    const step = okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    expect(step.touch?.channel).toBe('voice');
    expect(step.skipped).toEqual([
      { channel: 'email', reason: 'opted_out' },
      { channel: 'sms', reason: 'opted_out' },
    ]);
    const d = okData(await api<DealState>('GET', `/deals/${deal.id}`, me));
    expect(d.outreach?.optedOut).toEqual(['sms', 'email']);
    const rows = await db()
      .selectFrom('outreach_opt_outs')
      .select(['channel', 'address', 'source'])
      .where('operator_id', '=', me.id)
      .orderBy('channel')
      .execute();
    expect(rows).toEqual([
      { channel: 'email', address: `front+${run}@harborgym.test`, source: 'unsubscribe_link' },
      { channel: 'sms', address: `+4420712345${String(run).padStart(2, '0')}`, source: 'stop_reply' },
    ]);
  });

  it('a failed delivery raises contact_verify; a venue with no contact raises it at start', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    okData(await api('POST', `/deals/${deal.id}/outreach/start`, me, { channelOrder: ['sms'] }));
    const ref = phone('sms').sent.at(-1)!.providerRef;
    expect((await callback(STATUS_CALLBACK_PATH, { MessageSid: ref, MessageStatus: 'delivered' })).body.data).toMatchObject({ effect: 'recorded' });
    expect(await inbox(me, deal.id)).toEqual(['negotiation_target']);
    expect((await callback(STATUS_CALLBACK_PATH, { MessageSid: ref, MessageStatus: 'undelivered' })).body.data).toMatchObject({ effect: 'contact_verify' });
    expect(await inbox(me, deal.id)).toEqual(['contact_verify', 'negotiation_target']);
    const row = await db().selectFrom('outreach_messages').select(['status']).where('provider_ref', '=', ref).executeTakeFirstOrThrow();
    expect(row.status).toBe('undelivered');

    const { deal: silent } = await atOutreach(me, 'Quiet Library');
    expect(okData(await api<Step>('POST', `/deals/${silent.id}/outreach/start`, me, {}))).toMatchObject({ touch: null, waiting: { reason: 'no_channel' } });
    expect(await inbox(me, silent.id)).toEqual(['contact_verify', 'negotiation_target']);
  });

  it('the autopilot pass steps deals whose autopilot is on and raises mode_resume where it is off', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal: on } = await atOutreach(me, 'Harbor Gym');
    const { deal: off } = await atOutreach(me, 'Dawn Laundromat');
    okData(await api('POST', `/deals/${on.id}/autopilot`, me, { enabled: true }));
    okData(await api('POST', `/deals/${on.id}/outreach/start`, me, {}));
    okData(await api('POST', `/deals/${off.id}/outreach/start`, me, {}));
    t.clock.advance(RETRY_CADENCE_MS + HOUR);
    await t.services.dfyAutopilot.tick(null);
    const d = okData(await api<DealState>('GET', `/deals/${on.id}`, me));
    expect(d.timeline.filter((x) => x.event === 'outreach_touch').map((x) => [x.actor, x.channel])).toEqual([
      ['operator', 'email'],
      ['autopilot', 'sms'],
    ]);
    expect(await inbox(me, off.id)).toEqual(['mode_resume', 'negotiation_target']);
  });

  it('once the negotiation has started the autopilot touches the venue no more; an operator’s request still does', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    okData(await api('POST', `/deals/${deal.id}/autopilot`, me, { enabled: true }));
    okData(await api('POST', `/deals/${deal.id}/outreach/start`, me, {}));
    const envelope = { ...sandboxMandate({ earliest: '2026-12-01', latest: '2026-12-31' }), vertical: 'gym' };
    okData(await api('POST', `/deals/${deal.id}/negotiation/start`, me, { confirm: true, envelope }));
    const touches = async () =>
      okData(await api<DealState>('GET', `/deals/${deal.id}`, me))
        .timeline.filter((x) => x.event === 'outreach_touch')
        .map((x) => [x.actor, x.channel]);
    expect(await touches()).toEqual([['operator', 'email']]);
    // past the 24 h cadence the autopilot would send the next touch: the venue is being negotiated with
    t.clock.advance(RETRY_CADENCE_MS + HOUR);
    await t.services.dfyAutopilot.tick(null);
    expect(okData(await api<DealState>('GET', `/deals/${deal.id}`, me))).toMatchObject({ stage: 'outreach', negotiation: { status: 'started' } });
    expect(await touches()).toEqual([['operator', 'email']]);
    expect(await inbox(me, deal.id)).not.toContain('mode_resume');
    // the operator asks for the next touch: it goes
    expect(okData(await api<Step>('POST', `/deals/${deal.id}/outreach/start`, me, {})).touch).toMatchObject({ channel: 'sms' });
    expect(await touches()).toEqual([
      ['operator', 'email'],
      ['operator', 'sms'],
    ]);
  });

  it('a pre-ordered deal with its venue named reaches outreach without a shortlist: start links a directory venue', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const other = await newOperator(db(), t.clock.now());
    okData(await api('POST', '/directory/import', me, { venues: venuesOf(run) }));
    okData(await api('POST', '/directory/import', other, { venues: venuesOf(run) }));
    const mine = okData(await api<{ records: { id: string; name: string }[] }>('GET', '/directory', me)).records.find((v) => v.name === 'Harbor Gym')!;
    const theirs = okData(await api<{ records: { id: string; name: string }[] }>('GET', '/directory', other)).records.find((v) => v.name === 'Harbor Gym')!;
    const venue = { name: 'Harbor Gym', address: null, lat: 51.5, lng: -0.12 };
    const d = okData(await api<DealState>('POST', '/preorder', me, { tier: 'entry', hardwareVariant: 'agent', venue, confirm: true }));
    okData(await api('POST', `/deals/${d.id}/advance`, me, { to: 'outreach' }));
    expect((await api('POST', `/deals/${d.id}/outreach/start`, me, {})).status).toBe(409);
    expect((await api('POST', `/deals/${d.id}/outreach/start`, me, { venueId: theirs.id })).status).toBe(404);
    expect(okData(await api<Step>('POST', `/deals/${d.id}/outreach/start`, me, { venueId: mine.id })).touch?.channel).toBe('email');
    expect((await api('POST', `/deals/${d.id}/outreach/start`, me, { venueId: theirs.id })).status).toBe(409);
  });

  it('the intro draft comes from the script library and names no mandate number', async () => {
    t.clock.set(Date.parse('2026-11-20T12:00:00Z'));
    run++;
    const me = await newOperator(db(), t.clock.now());
    const { deal } = await atOutreach(me, 'Harbor Gym');
    const draft = okData(
      await api<{ subject: string; body: string; scriptVersion: string; to: string }>('POST', `/deals/${deal.id}/assist/outreach-draft`, me, {
        senderName: 'Ana',
      }),
    );
    expect(draft).toMatchObject({ subject: 'A free vending machine for Harbor Gym?', scriptVersion: 'outreach-scripts@1', to: `front+${run}@harborgym.test` });
    expect(draft.body).toContain("I'm Ana.");
    const bare = okData(await api<DealState>('POST', '/deals', me, { tier: 'pro', hardwareVariant: 'agent' }));
    expect((await api('POST', `/deals/${bare.id}/assist/outreach-draft`, me, {})).status).toBe(409);
  });
});
