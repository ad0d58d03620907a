import { describe, expect, it } from 'vitest';
import { CONFIG_DEFAULTS, ConfigBlock, FEATURE_DEFAULTS } from '@vend/protocol';
import { buildConfigBlock, parseFeatureSettings, resolveFeatures } from './config-block.ts';

const pin = { pin: '123456', source: 'derived' as const };

describe('configuration block', () => {
  it('is every default of spec 2 §2.4 when nothing is stored', () => {
    const block = buildConfigBlock({ machineNo: 'VM-0001-AB', settings: undefined, capabilities: [], adminPin: pin });
    expect(ConfigBlock.parse(block)).toEqual(block);
    expect(block).toEqual({
      ...CONFIG_DEFAULTS,
      features: FEATURE_DEFAULTS,
      machineCode: 'VM-0001-AB',
      kioskUiUrl: 'http://127.0.0.1:8770/screen/',
      adminPin: '123456',
      adminPinSource: 'derived',
      serviceCode: null,
    });
  });

  it('takes what is stored for the machine', () => {
    const block = buildConfigBlock({
      machineNo: 'VM-0001-AB',
      settings: {
        features_json: JSON.stringify({ testMode: true, dropSound: false }),
        module: 'SH',
        rows: 4,
        columns_per_row: 8,
        poll_interval: 5,
        heartbeat_interval: 120,
        dispatch_mode: 'remote_led',
        kiosk_ui_url: 'https://kiosk.example/vm1',
      },
      capabilities: [],
      adminPin: { pin: '9999', source: 'operator' },
    });
    expect(block).toMatchObject({ module: 'SH', rows: 4, columnsPerRow: 8, pollInterval: 5, heartbeatInterval: 120, dispatchMode: 'remote_led' });
    expect(block.features.testMode).toBe(true);
    expect(block.features.dropSound).toBe(false);
    expect(block.kioskUiUrl).toBe('https://kiosk.example/vm1');
    expect(block.adminPinSource).toBe('operator');
  });

  it('voiceShopper turns on when the cabinet reports the capability, unless a machine setting says otherwise', () => {
    expect(resolveFeatures({}, ['voiceShopper']).voiceShopper).toBe(true);
    expect(resolveFeatures({ voiceShopper: false }, ['voiceShopper']).voiceShopper).toBe(false);
    // Only voiceShopper may be turned on by a capability.
    expect(resolveFeatures({}, ['testMode', 'cameraLive']).testMode).toBe(false);
  });

  it('ignores stored junk rather than failing the cabinet', () => {
    expect(parseFeatureSettings('not json')).toEqual({});
    expect(parseFeatureSettings('{"testMode":"yes","nope":true,"photobooth":true}')).toEqual({ photobooth: true });
    const block = buildConfigBlock({
      machineNo: 'VM-0001-AB',
      settings: {
        features_json: '[]',
        module: 'bogus',
        rows: null,
        columns_per_row: null,
        poll_interval: null,
        heartbeat_interval: null,
        dispatch_mode: 'x',
        kiosk_ui_url: null,
      },
      capabilities: [],
      adminPin: pin,
    });
    expect(block.module).toBe('SH_YAxis');
    expect(block.dispatchMode).toBe('both');
  });
});
