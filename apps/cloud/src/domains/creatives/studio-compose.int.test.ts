import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import type { CreativeDraftView } from '../ad-purchases/ad-purchases.schemas.ts';
import type { Campaign } from '../campaigns/campaigns.schemas.ts';
import { ALICE, aliceMachine, createCampaign } from '../campaigns/campaigns.test-support.ts';
import { PosterRenderer } from './poster.ts';

/**
 * The built-in studio (no STUDIO_URL) over HTTP: the sponsor's name reaches the composed poster from the
 * marketplace's generation (the buyer's `sponsorName`) and from a campaign's (its sponsor). The files
 * served are compared byte for byte with the renderer's poster of that brief and sponsor. No rows
 * beyond the generations' own: SQLite only.
 */
describe('the built-in studio composes with the sponsor’s name', () => {
  let t: TestServer;
  const render = new PosterRenderer({ keepRecent: false });
  const served = async (url: string) => Buffer.from(await (await fetch(t.url + url)).arrayBuffer());

  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => t.close());

  it('marketplace: the buyer’s sponsorName is drawn; without it, the poster has none', async () => {
    const brief = 'Fresh tulips every Friday. Pale pink and navy.';
    const gen = (json: Record<string, unknown>) =>
      expectStatus<CreativeDraftView>(call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json }), 200).then((r) => r.body.data.creatives[0]!);
    const withSponsor = await gen({ brief, sponsorName: 'Moss Florist' });
    expect(await served(withSponsor.url)).toEqual(await render.briefPoster(brief, 'Moss Florist'));
    const without = await gen({ brief });
    expect(await served(without.url)).toEqual(await render.briefPoster(brief, null));
    expect(without.url).not.toBe(withSponsor.url);
    // the sponsor is bounded like the purchase's own
    const long = await call(t.url, 'POST', '/api/v1/marketplace/drafts/generate', { json: { brief, sponsorName: 'x'.repeat(81) } });
    expect(long.status).toBe(400);
  });

  it('campaigns: the campaign’s sponsor is drawn', async () => {
    const c = await createCampaign(t, { targetMachines: [await aliceMachine(t)] });
    const r = await expectStatus<Campaign>(
      call(t.url, 'POST', `/api/v1/campaigns/${c.id}/creative/contentx`, { headers: ALICE, json: { brief: 'Any sandwich for 8.99. Red and cream.' } }),
      200,
    );
    expect(await served(r.body.data.creative!.url)).toEqual(await render.briefPoster('Any sandwich for 8.99. Red and cream.', 'Corner Deli'));
  });
});
