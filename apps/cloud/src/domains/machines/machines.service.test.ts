import { describe, expect, it } from 'vitest';
import type { MachineRecord } from './machines.repo.ts';
import { toMachineView } from './machines.service.ts';
import { parseInput } from '../../http/validate.ts';
import { ScreenBody } from './screen.schemas.ts';
import { screenBody } from './screen.test-support.ts';

const base: MachineRecord = {
  id: 'mch_1',
  machine_no: 'VM-0001-AB',
  operator_id: 'op_1',
  name: 'Lobby',
  status: 'online',
  last_seen: Date.UTC(2026, 10, 20, 8, 0, 0, 5),
  location: 'Hall A',
  lat: 40.7506,
  lng: -73.9935,
  address: null,
  place_id: null,
  geocode_status: null,
  geocode_detail: null,
  placement_version: 0,
  address_confirmed_at: null,
  installation_confirmed_at: null,
  notes: null,
  expire_date: null,
  rent_state: 1,
  time_zone: 'America/New_York',
  sales_tax_rate: 8.875,
  venue_id: null,
  agent_version: '1.0.0',
  agent_arch: 'x64',
  vmc_version: 'VMC-2.4.1',
  apk_version: null,
  platform: 'agent',
  screen_json: null,
  retired_at: null,
  claimed_at: null,
  created_at: 0,
  updated_at: 0,
  operator_email: 'op@example.test',
  terminal_id: 'trm_1',
  terminal_merchant_account: 'acct_op_1',
  terminal_provider: 'sandbox-pay',
  terminal_bound_at: Date.UTC(2026, 0, 1),
};

describe('the machine as the API shows it', () => {
  it('formats times in the spec form, degrees as strings, and the geo block from the placement columns', () => {
    const v = toMachineView(base, false);
    expect(v).toMatchObject({
      lastSeen: '2026-11-20T08:00:00.005+0000',
      expireDate: null,
      lat: '40.7506',
      lng: '-73.9935',
      geo: { lat: 40.7506, lng: -73.9935, address: 'Hall A', placeId: null },
      salesTaxRate: 8.875,
      paymentTerminal: { terminalId: 'trm_1', merchantAccount: 'acct_op_1', provider: 'sandbox-pay', boundAt: '2026-01-01T00:00:00.000+0000' },
    });
    expect(v.geo).not.toHaveProperty('geocodeStatus');
  });
  it('shows operatorEmail to admins only', () => {
    expect(toMachineView(base, false)).not.toHaveProperty('operatorEmail');
    expect(toMachineView(base, true).operatorEmail).toBe('op@example.test');
    expect(toMachineView({ ...base, operator_id: null, operator_email: null }, true).operatorEmail).toBeNull();
  });
  it('has no terminal block without a binding, and only the two statuses', () => {
    expect(
      toMachineView({ ...base, terminal_id: null, terminal_merchant_account: null, terminal_provider: null, terminal_bound_at: null }, false).paymentTerminal,
    ).toBeNull();
    expect(toMachineView({ ...base, status: 'maintenance' }, false).status).toBe('offline');
  });
  it('reads screen from its stored block, and null from anything that is not one', () => {
    const block = parseInput(ScreenBody, screenBody(), 'body');
    expect(toMachineView({ ...base, screen_json: JSON.stringify(block) }, false).screen).toEqual(block);
    for (const bad of ['[1]', 'null', '"x"', '{oops', '{"panel":"32in"}']) expect(toMachineView({ ...base, screen_json: bad }, false).screen).toBeNull();
  });
  it('reports the geocoder outcome with its detail and retryability', () => {
    const v = toMachineView({ ...base, lat: null, lng: null, address: '1 Main St', geocode_status: 'provider_error', geocode_detail: 'HTTP 503' }, false);
    expect(v.geo).toEqual({
      lat: null,
      lng: null,
      address: 'Hall A',
      placeId: null,
      geocodeStatus: 'provider_error',
      geocodeDetail: 'HTTP 503',
      geocodeRetryable: true,
    });
    expect(v.lat).toBeNull();
  });
});
