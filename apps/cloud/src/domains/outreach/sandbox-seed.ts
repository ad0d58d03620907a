import { OPERATOR_IDS } from '../../db/seed.ts';
import type { Repos } from '../../repos.ts';

/** Alice's venue directory in the sandbox: a shortlist to score on first start (addresses are .test, phones fictional 555 numbers). */
const DIRECTORY = [
  {
    name: 'Riverside Climbing Gym',
    address: '410 River Rd, Brooklyn, NY',
    lat: 40.6782,
    lng: -73.9442,
    vertical: 'gym',
    email: 'front@riverside-climb.test',
    phone: '+12125550141',
    daily: 650,
  },
  {
    name: 'Northgate Coworking',
    address: '88 Northgate Ave, Jersey City, NJ',
    lat: 40.7282,
    lng: -74.0776,
    vertical: 'office',
    email: 'hello@northgate.test',
    phone: '+12015550122',
    daily: 420,
  },
  {
    name: 'Bayview Laundromat',
    address: '5 Bay St, Staten Island, NY',
    lat: 40.6437,
    lng: -74.0736,
    vertical: 'laundromat',
    email: null,
    phone: '+17185550190',
    daily: 210,
  },
  {
    name: 'Harbor Community College',
    address: '1 College Way, Hoboken, NJ',
    lat: 40.745,
    lng: -74.0279,
    vertical: 'school',
    email: 'facilities@harbor-cc.test',
    phone: null,
    daily: 1800,
  },
  { name: 'Midtown Car Wash', address: '300 W 40th St, New York, NY', lat: 40.7565, lng: -73.9921, vertical: 'auto', email: null, phone: null, daily: 300 },
] as const;

export async function seedOutreach(tx: Repos, now: number): Promise<void> {
  await tx.outreach.upsertVenues(
    DIRECTORY.map((v, i) => ({
      id: `ovn_sbx_${String(i + 1).padStart(4, '0')}`,
      operator_id: OPERATOR_IDS.alice,
      name: v.name,
      address: v.address,
      lat: v.lat,
      lng: v.lng,
      vertical: v.vertical,
      time_zone: 'America/New_York',
      email: v.email,
      phone: v.phone,
      daily_visitors: v.daily,
      created_at: now,
    })),
  );
}
