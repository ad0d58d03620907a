import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus, type Body } from '../../testing/answers.ts';
import { image } from '../creatives/creatives.test-support.ts';
import { startFakeStudio, type FakeStudio } from '../creatives/fake-studio.ts';
import type { CreativeDraftView } from './ad-purchases.schemas.ts';
import { buy, brief, marketplaceCast, uploadedDraft } from './ad-purchases.test-support.ts';
import { MARKETPLACE_LIMITS } from './marketplace.service.ts';

describe.each(DIALECTS)('the marketplace’s bounds on anonymous buyers on %s', (dialect) => {
  let t: TestServer;
  let studio: FakeStudio;
  beforeAll(async () => {
    studio = await startFakeStudio(await image('png', 1080, 1920, '#335577'));
    t = await startTestServer(dialect, { env: { STUDIO_URL: studio.url } });
    await marketplaceCast(t);
  });
  afterAll(async () => {
    await t.close();
    await studio.close();
  });

  it('a studio failure is answered verbatim as 502 and gives the generation back', async () => {
    const first = await expectStatus<CreativeDraftView>(call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { brief: 'Deli' } }), 200);
    const draftToken = first.body.data.draftToken;
    studio.reply({ kind: 'status', status: 503, body: 'studio is overloaded' });
    const failed = await call<Body>(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { draftToken, brief: 'Deli again' } });
    expect(failed.status).toBe(502);
    expect(failed.body.message).toContain('studio is overloaded');
    // a failed first call makes no draft at all
    expect((await call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { brief: 'Deli' } })).status).toBe(502);
    studio.reply({ kind: 'image' });
    const after = await expectStatus<CreativeDraftView>(call(t.url, 'POST', '/api/v1/marketplace/drafts/lookup', { json: { draftToken } }), 200);
    expect(after.body.data).toMatchObject({ generationsUsed: 1, generationsLeft: 2 });
    expect(after.body.data.creatives).toHaveLength(1);
  });

  it(`one address buys at most ${MARKETPLACE_LIMITS.purchasesPerHour} times an hour: then 429 with Retry-After, nothing written`, async () => {
    for (let i = 0; i < MARKETPLACE_LIMITS.purchasesPerHour; i++) await buy(t);
    const before = await t.ctx.database.db
      .selectFrom('ad_purchases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const r = await call<Body>(t.url, 'POST', '/api/v1/marketplace/purchases', {
      json: { ...brief(), sponsorName: 'X', buyer: { name: 'X', email: 'x@x.example' }, creative: await uploadedDraft(t) },
    });
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3600');
    const after = await t.ctx.database.db
      .selectFrom('ad_purchases')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // quotes keep their own budget
    expect((await call(t.url, 'POST', '/api/v1/marketplace/quote', { json: brief() })).status).toBe(200);
  });
});
