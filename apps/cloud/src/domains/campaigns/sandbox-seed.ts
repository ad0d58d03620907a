import type { Repos } from '../../repos.ts';
import type { CreativesService } from '../creatives/creatives.service.ts';
import { ScreenBody } from '../machines/screen.schemas.ts';

const DAY = 86_400_000;
const ALICE = 'op_sbx_alice';

/** Screen blocks of alice's kiosks: a train-station platform in New York and a gym lobby nearby. */
const SCREENS: Record<string, unknown> = {
  'SBX-ALICE-0001': {
    panel: { diagonalInches: 32 },
    resolution: { width: 1080, height: 1920 },
    venueName: 'Union Station, Concourse A',
    address: { line1: '50 Massachusetts Ave', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' },
    geo: { lat: 40.7506, lng: -73.9935 },
    impressionsPerPlay: 6,
    venueCategoryId: 10602,
  },
  'SBX-ALICE-0002': {
    panel: { diagonalInches: 27 },
    resolution: { width: 1080, height: 1920 },
    venueName: 'Harbor Fitness',
    address: { line1: '1 Harbor Plaza', city: 'New York', region: 'NY', postalCode: '10004', country: 'US' },
    operatingHours: {
      mon: [{ open: '05:00', close: '23:00' }],
      tue: [{ open: '05:00', close: '23:00' }],
      wed: [{ open: '05:00', close: '23:00' }],
      thu: [{ open: '05:00', close: '23:00' }],
      fri: [{ open: '05:00', close: '22:00' }],
      sat: [{ open: '07:00', close: '20:00' }],
      sun: [{ open: '07:00', close: '20:00' }],
    },
    impressionsPerPlay: 2.5,
    venueCategoryId: 40101,
  },
};

/**
 * The screen-advertising part of the sandbox data set (alice): two screens, a creative from the
 * built-in renderer, a flat-monthly campaign on the station kiosk (weight 2), a CPM co-op campaign
 * on every kiosk in New York, a draft, and a week of proof of play — so reports, the summary and the
 * operator view show figures on first start. Ids and times are derived from the seed day.
 */
export async function seedScreenAds(tx: Repos, now: number, creatives: Pick<CreativesService, 'builtin' | 'row'>): Promise<void> {
  const today = Math.floor(now / DAY) * DAY;
  const machines = new Map((await tx.campaigns.fleetScreens(ALICE)).map((m) => [m.machine_no, m.id]));
  for (const [no, screen] of Object.entries(SCREENS)) {
    const id = machines.get(no);
    if (id) await tx.machines.setScreen(id, JSON.stringify(ScreenBody.parse(screen)), now);
  }
  const poster = await creatives.builtin('Corner Deli — any sandwich and a cold drink for 8.99. Two blocks north, open till 9.', 'Corner Deli');
  const creative = { ...creatives.row(ALICE, poster, 'contentx', poster.contentxRef, today - 21 * DAY), id: 'crv_sbx_deli' };
  await tx.creatives.insert(creative);
  const base = { operator_id: ALICE, creative_id: creative.id, created_at: today - 21 * DAY, updated_at: today - 20 * DAY };
  await tx.campaigns.insert({
    ...base,
    id: 'cmp_sbx_deli',
    name: 'Lunch deal',
    sponsor_name: 'Corner Deli',
    sponsor_type: 'local-business',
    status: 'active',
    target_machines_json: JSON.stringify(['SBX-ALICE-0001']),
    weight: 2,
    flight_start: today - 20 * DAY,
    flight_end: today + 40 * DAY,
    pricing_model: 'flat-monthly',
    rate_cents: 9_900,
    creative_source: 'contentx',
    contentx_ref: poster.contentxRef,
    generations: 1,
    activated_at: today - 20 * DAY,
  });
  await tx.campaigns.insert({
    ...base,
    id: 'cmp_sbx_fizz',
    name: 'Fizz Cola co-op',
    sponsor_name: 'Fizz Cola',
    sponsor_type: 'brand-coop',
    status: 'active',
    target_geo_json: JSON.stringify({ city: 'New York' }),
    flight_start: today - 14 * DAY,
    pricing_model: 'cpm',
    rate_cents: 1_250,
    creative_source: 'contentx',
    contentx_ref: poster.contentxRef,
    activated_at: today - 14 * DAY,
  });
  await tx.campaigns.insert({
    ...base,
    id: 'cmp_sbx_holiday',
    name: 'Holiday hours',
    sponsor_name: 'Harbor Fitness',
    sponsor_type: 'local-business',
    status: 'draft',
    creative_id: null,
    target_machines_json: JSON.stringify(['SBX-ALICE-0002']),
    pricing_model: 'flat-monthly',
    rate_cents: 4_900,
  });
  // A week of plays: every hour, the station kiosk shows the deli twice and the co-op once, the gym the co-op once, and house content.
  const station = machines.get('SBX-ALICE-0001');
  const gym = machines.get('SBX-ALICE-0002');
  const rows: Parameters<Repos['adDelivery']['insertPlays']>[0] = [];
  const play = (machineId: string | undefined, entry: string, campaignId: string | null, source: string, at: number) => {
    if (machineId)
      rows.push({
        id: `ply_sbx_${rows.length + 1}`,
        machine_id: machineId,
        entry_id: entry,
        campaign_id: campaignId,
        source,
        played_at: at,
        duration_ms: 15_000,
        received_at: at + 60_000,
      });
  };
  for (let h = 7 * 24; h > 0; h--) {
    const at = today - h * 3_600_000;
    play(station, 'cmp:cmp_sbx_deli:1', 'cmp_sbx_deli', 'direct-sold', at);
    play(station, 'cmp:cmp_sbx_deli:2', 'cmp_sbx_deli', 'direct-sold', at + 30_000);
    play(station, 'cmp:cmp_sbx_fizz:1', 'cmp_sbx_fizz', 'direct-sold', at + 15_000);
    play(station, 'house:poster:1', null, 'house', at + 45_000);
    play(gym, 'cmp:cmp_sbx_fizz:1', 'cmp_sbx_fizz', 'direct-sold', at);
    play(gym, 'house:poster:1', null, 'house', at + 15_000);
  }
  await tx.adDelivery.insertPlays(rows);
}
