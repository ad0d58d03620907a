import { PNG } from 'pngjs';
import { call, type TestServer } from '../../testing/harness.ts';
import { expectStatus } from '../../testing/answers.ts';
import { ALICE, FLEET, newSerial } from '../gateway/gateway.test-support.ts';
import type { Campaign } from './campaigns.schemas.ts';

export { ADMIN, ALICE, BOB, FACTORY, FLEET, newSerial } from '../gateway/gateway.test-support.ts';

/** A real portrait PNG of the given size, as the upload body wants it. */
export function pngUpload(width = 540, height = 960): { contentType: string; dataBase64: string } {
  const png = new PNG({ width, height });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = (i / 4) % 251;
    png.data[i + 1] = 90;
    png.data[i + 2] = 160;
    png.data[i + 3] = 255;
  }
  return { contentType: 'image/png', dataBase64: PNG.sync.write(png).toString('base64') };
}

/** A machine registered to alice (not enrolled: the fleet secret serves its family-A legs). */
export async function aliceMachine(t: TestServer, screen?: Record<string, unknown>): Promise<string> {
  const machineNo = newSerial('ADS');
  await expectStatus(call(t.url, 'POST', '/api/v1/machines/register', { headers: ALICE, json: { machineNo, name: 'Ad screen' } }), 200);
  if (screen) await expectStatus(call(t.url, 'PUT', `/api/v1/machines/${machineNo}/screen`, { headers: ALICE, json: screen }), 200);
  return machineNo;
}

export async function createCampaign(t: TestServer, body: Record<string, unknown>, headers: Record<string, string> = ALICE): Promise<Campaign> {
  const r = await expectStatus<Campaign>(
    call(t.url, 'POST', '/api/v1/campaigns', {
      headers,
      json: {
        name: 'Lunch deal',
        sponsorName: 'Corner Deli',
        sponsorType: 'local-business',
        pricing: { model: 'flat-monthly', monthlyRatePerMachine: 99 },
        ...body,
      },
    }),
    200,
  );
  return r.body.data;
}

/** A campaign on air: created, given a creative, activated. */
export async function liveCampaign(t: TestServer, body: Record<string, unknown>, headers: Record<string, string> = ALICE): Promise<Campaign> {
  const c = await createCampaign(t, body, headers);
  await expectStatus(call(t.url, 'POST', `/api/v1/campaigns/${c.id}/creative/upload`, { headers, json: pngUpload() }), 200);
  return (await expectStatus<Campaign>(call(t.url, 'POST', `/api/v1/campaigns/${c.id}/activate`, { headers }), 200)).body.data;
}

export interface LoopEntry {
  id: string;
  url: string;
  head: string;
  source: string;
  campaignId?: string;
  startTime: string;
  endTime: string;
}

export async function adLoop(t: TestServer, machineNo: string): Promise<LoopEntry[]> {
  const r = await expectStatus<{ entries: LoopEntry[] }>(call(t.url, 'GET', '/apk/getAd', { headers: { ...FLEET, equipmentNo: machineNo } }), 200);
  return r.body.data.entries;
}

export async function savePlays(t: TestServer, machineNo: string, records: Record<string, unknown>[]) {
  return expectStatus<{ accepted: number; duplicates: number; unattributed: number }>(
    call(t.url, 'POST', '/apk/saveAdRecord', { headers: FLEET, json: { machineNo, records } }),
    200,
  );
}
