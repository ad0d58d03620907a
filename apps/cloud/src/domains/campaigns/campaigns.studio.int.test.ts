import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, DIALECTS, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { image } from '../creatives/creatives.test-support.ts';
import { startFakeStudio, type FakeStudio } from '../creatives/fake-studio.ts';
import type { Campaign } from './campaigns.schemas.ts';
import { ALICE, aliceMachine, createCampaign } from './campaigns.test-support.ts';

describe.each(DIALECTS)('creative/contentx through an external studio on %s', (dialect) => {
  let t: TestServer;
  let studio: FakeStudio;
  let machineNo: string;
  beforeAll(async () => {
    studio = await startFakeStudio(await image('png', 1080, 1920));
    t = await startTestServer(dialect, { env: { STUDIO_URL: studio.url, STUDIO_TIMEOUT_MS: '2000' } });
    machineNo = await aliceMachine(t);
  });
  afterAll(async () => {
    await t.close();
    await studio.close();
  });

  it("attaches the studio's poster with its reference", async () => {
    studio.reply({ kind: 'image', ref: 'gen-42' });
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    const r = await expectStatus<Campaign>(
      call(t.url, 'POST', `/api/v1/campaigns/${c.id}/creative/contentx`, { headers: ALICE, json: { brief: 'Fresh coffee' } }),
      200,
    );
    expect(r.body.data).toMatchObject({ creativeSource: 'contentx', contentxRef: 'gen-42', generations: 1, creative: { width: 1080, height: 1920 } });
    expect(studio.requests.at(-1)?.body).toMatchObject({ brief: 'Fresh coffee' });
  });

  it('an upstream failure is answered verbatim as 502, and the generation is given back', async () => {
    studio.reply({ kind: 'status', status: 503, body: 'model overloaded, try again in 30 s' });
    const c = await createCampaign(t, { targetMachines: [machineNo] });
    const r = await call(t.url, 'POST', `/api/v1/campaigns/${c.id}/creative/contentx`, { headers: ALICE, json: { brief: 'Fresh coffee' } });
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 502, message: 'model overloaded, try again in 30 s', data: null });
    const after = await expectStatus<Campaign>(call(t.url, 'GET', `/api/v1/campaigns/${c.id}`, { headers: ALICE }), 200);
    expect(after.body.data).toMatchObject({ generations: 0, creative: null });
  });
});
