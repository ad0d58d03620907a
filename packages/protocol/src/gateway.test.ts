import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import {
  ApkEquipmentRequest,
  ApkUpRequest,
  CONFIG_DEFAULTS,
  ConfigBlock,
  CreateOrderRequest,
  DEVICE_KEY_ID_PATTERN,
  FEATURE_DEFAULTS,
  FEATURE_NAMES,
  HeartbeatRequest,
  ReportRequest,
  RegisterRequest,
  SaveAdRecordRequest,
  UpgradeQuery,
  ValidVmcVersionRequest,
  formatDeviceKey,
  parseDeviceKey,
} from './gateway.ts';

const SECRET = 'A'.repeat(42) + 'w';

describe('device key x-device-key: <keyId>:<secret>', () => {
  it('parses the documented form and nothing else', () => {
    expect(parseDeviceKey(`dk_0123456789abcdef:${SECRET}`)).toEqual({ keyId: 'dk_0123456789abcdef', secret: SECRET });
    for (const bad of [
      '',
      `dk_0123456789ABCDEF:${SECRET}`, // upper-case hex
      `dk_0123456789abcde:${SECRET}`, // 15 hex
      `xk_0123456789abcdef:${SECRET}`,
      `dk_0123456789abcdef.${SECRET}`,
      `dk_0123456789abcdef:${SECRET.slice(1)}`, // 42 chars
      `dk_0123456789abcdef:${SECRET.slice(1)}+`, // not URL-safe
      `dk_0123456789abcdef:${SECRET}=`,
    ]) {
      expect(parseDeviceKey(bad)).toBeNull();
    }
  });

  it('round-trips every well-formed key and never throws on any string', () => {
    const hex = fc.stringMatching(/^[0-9a-f]{16}$/);
    const secret = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('base64url'));
    fc.assert(
      fc.property(hex, secret, (h, s) => {
        const k = { keyId: `dk_${h}`, secret: s };
        expect(k.keyId).toMatch(DEVICE_KEY_ID_PATTERN);
        expect(parseDeviceKey(formatDeviceKey(k))).toEqual(k);
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const p = parseDeviceKey(s);
        if (p) expect(formatDeviceKey(p)).toBe(s);
      }),
    );
  });
});

describe('configuration block (spec 2 §2.4)', () => {
  it('has the defaults of the spec', () => {
    expect(CONFIG_DEFAULTS).toEqual({ module: 'SH_YAxis', columnsPerRow: 10, rows: 6, pollInterval: 3, heartbeatInterval: 60, dispatchMode: 'both' });
    const on = FEATURE_NAMES.filter((f) => FEATURE_DEFAULTS[f]);
    const off = FEATURE_NAMES.filter((f) => !FEATURE_DEFAULTS[f]);
    expect(on).toEqual(['autoRescue', 'dropSound', 'merchOnDemand', 'figurines', 'walkupSensor', 'walkupAlerts', 'arcadePrintables']);
    expect(off).toEqual([
      'remoteScreen',
      'appAnalytics',
      'photobooth',
      'factoryMode',
      'deviceLogs',
      'voiceShopper',
      'ambientAudio',
      'cardTapStorefront',
      'cardTapForceTile',
      'htmlStorefront',
      'testMode',
      'cameraLive',
      'visionWatch',
    ]);
  });

  it('parses a block built from the defaults and refuses an unknown module or dispatch mode', () => {
    const block = {
      ...CONFIG_DEFAULTS,
      features: { ...FEATURE_DEFAULTS },
      machineCode: 'VM-0001-AB',
      kioskUiUrl: 'http://127.0.0.1:8770/screen/',
      adminPin: '123456',
      adminPinSource: 'derived',
    };
    expect(ConfigBlock.parse(block)).toEqual(block);
    expect(ConfigBlock.safeParse({ ...block, module: 'XY' }).success).toBe(false);
    expect(ConfigBlock.safeParse({ ...block, dispatchMode: 'kiosk' }).success).toBe(false);
    expect(ConfigBlock.safeParse({ ...block, features: { ...FEATURE_DEFAULTS, testMode: 'yes' } }).success).toBe(false);
  });
});

describe('gateway bodies', () => {
  it('createOrder needs an integer aisle and defaults quantity to 1', () => {
    expect(CreateOrderRequest.parse({ aisleNo: 3 })).toMatchObject({ aisleNo: 3, quantity: 1 });
    expect(CreateOrderRequest.safeParse({ aisleNo: 1.5 }).success).toBe(false);
    expect(CreateOrderRequest.safeParse({ aisleNo: 1, quantity: 0 }).success).toBe(false);
  });

  it('a report carries dispenseId, aisleNo, success and outcome; detail defaults to empty', () => {
    expect(ReportRequest.parse({ dispenseId: 'd-1', aisleNo: 2, success: true, outcome: 'success' })).toMatchObject({ detail: '' });
    expect(ReportRequest.safeParse({ dispenseId: 'has space', aisleNo: 2, success: true, outcome: 'success' }).success).toBe(false);
    expect(ReportRequest.safeParse({ aisleNo: 2, success: true, outcome: 'success' }).success).toBe(false);
  });

  it('a heartbeat may clear the deferral and blocked blocks with null', () => {
    expect(HeartbeatRequest.parse({ deferring: null, blocked: null })).toEqual({ deferring: null, blocked: null });
    expect(HeartbeatRequest.safeParse({ deferring: { version: '1.2.0', count: 1, seconds: 30, reason: 'vend in progress' } }).success).toBe(true);
    expect(HeartbeatRequest.safeParse({ blocked: { version: '1.2.0', count: 1, seconds: 30 } }).success).toBe(false);
  });

  it('proof of play is one record or {records: [...]}', () => {
    expect(SaveAdRecordRequest.safeParse({ id: 'house:poster:1' }).success).toBe(true);
    expect(SaveAdRecordRequest.safeParse({ records: [{ id: 'a' }, { id: 'b', playedAt: 1_700_000_000_000 }] }).success).toBe(true);
    expect(SaveAdRecordRequest.safeParse({ records: [] }).success).toBe(false);
    expect(SaveAdRecordRequest.safeParse({}).success).toBe(false);
  });

  it('every string a cabinet sends refuses NUL, control characters and lone surrogates (PostgreSQL cannot store NUL)', () => {
    const report = { dispenseId: 'd-1', aisleNo: 2, success: true, outcome: 'dropped' };
    const cases: [z.ZodType, (bad: string) => unknown][] = [
      [RegisterRequest, (bad) => ({ equipmentNo: bad })],
      [RegisterRequest, (bad) => ({ serialNumber: bad })],
      [RegisterRequest, (bad) => ({ agentVersion: bad })],
      [RegisterRequest, (bad) => ({ vmcVersion: bad })],
      [RegisterRequest, (bad) => ({ capabilities: [bad] })],
      [HeartbeatRequest, (bad) => ({ agentVersion: bad })],
      [HeartbeatRequest, (bad) => ({ deferring: { version: '1.2.0', count: 1, seconds: 1, reason: bad } })],
      [HeartbeatRequest, (bad) => ({ blocked: { version: '1.2.0', minFrom: bad, count: 1, seconds: 1 } })],
      [CreateOrderRequest, (bad) => ({ aisleNo: 1, cardBrand: bad })],
      [ReportRequest, (bad) => ({ ...report, outcome: bad })],
      [ReportRequest, (bad) => ({ ...report, detail: bad })],
      [ReportRequest, (bad) => ({ ...report, commandId: bad })],
      [ReportRequest, (bad) => ({ ...report, orderNumber: bad })],
      [UpgradeQuery, (bad) => ({ agentVersion: bad })],
      [ApkEquipmentRequest, (bad) => ({ machineNo: bad })],
      [ApkEquipmentRequest, (bad) => ({ apkVersion: bad })],
      [SaveAdRecordRequest, (bad) => ({ id: bad })],
      [SaveAdRecordRequest, (bad) => ({ records: [{ id: 'a', campaignId: bad }] })],
      [SaveAdRecordRequest, (bad) => ({ id: 'a', playedAt: bad })],
      [ApkUpRequest, (bad) => ({ version: bad })],
      [ValidVmcVersionRequest, (bad) => ({ vmcVersion: bad })],
    ];
    for (const [schema, body] of cases) {
      for (const bad of ['\u0000', 'a\u0000b', 'a\u0001b', 'a\u007fb', 'a\u0085b', '\ud800', 'a\udc00b']) {
        expect(schema.safeParse(body(bad)).success, JSON.stringify(body(bad))).toBe(false);
      }
      expect(schema.safeParse(body('1.2.3')).success, JSON.stringify(body('1.2.3'))).toBe(true);
    }
    // Free text keeps its line breaks; an emoji (a surrogate pair) is fine anywhere.
    expect(ReportRequest.safeParse({ ...report, detail: 'jam\nretried 😀' }).success).toBe(true);
    expect(HeartbeatRequest.safeParse({ capabilities: ['voice😀'] }).success).toBe(true);
  });
});
