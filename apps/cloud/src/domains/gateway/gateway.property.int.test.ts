import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { FLEET, enrolled, newSerial } from './gateway.test-support.ts';

const LEGS = [
  ['POST', '/cabinet/register'],
  ['POST', '/cabinet/enrol'],
  ['POST', '/cabinet/heartbeat'],
  ['GET', '/cabinet/config'],
  ['GET', '/cabinet/goods'],
  ['POST', '/cabinet/createOrder'],
  ['POST', '/cabinet/report'],
  ['GET', '/cabinet/pending'],
  ['GET', '/cabinet/upgrade'],
  ['POST', '/apk/getEquipment'],
  ['POST', '/apk/createOrder'],
  ['GET', '/apk/getAd'],
  ['POST', '/apk/saveAdRecord'],
  ['POST', '/apk/apkUp'],
  ['POST', '/apk/validVmcVersion'],
] as const;

/** Header values a client can actually send: visible ASCII and spaces, bounded. */
const headerText = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,80}$/);
const FIELDS = [
  'equipmentNo',
  'serialNumber',
  'machineNo',
  'deviceId',
  'agentVersion',
  'vmcVersion',
  'apkVersion',
  'version',
  'aisleNo',
  'quantity',
  'dispenseId',
  'commandId',
  'orderNumber',
  'success',
  'outcome',
  'detail',
  'deferring',
  'blocked',
  'capabilities',
  'records',
  'id',
  'playedAt',
  'payMethod',
  'cardLast4',
];

describe.each(DIALECTS)('gateway legs under random input on %s', (dialect) => {
  let t: TestServer;
  let validKey: string;
  let serial: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    const e = await enrolled(t);
    validKey = e.key;
    serial = e.serial;
  });
  afterAll(async () => t.close());

  it.each(LEGS)('%s %s never answers 5xx, and always in the envelope', async (method, path) => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 40 }),
      fc.constantFrom(serial, 'SBX-ALICE-0001', newSerial('PROP'), 'x'.repeat(300), '1.2.3', 'success'),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const body = fc.oneof(
      fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 8 }),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant('{"broken'),
      fc.constant(''),
    );
    const headers = fc.record(
      {
        'x-device-key': fc.oneof(
          headerText,
          fc.constant(validKey),
          fc.constant(validKey.slice(0, -1)),
          fc.constant(`${validKey.split(':')[0]}:${'A'.repeat(43)}`),
        ),
        secret: fc.oneof(headerText, fc.constant(FLEET.secret)),
        equipmentNo: fc.oneof(headerText, fc.constant(serial), fc.constant('SBX-BOB-0001')),
        'x-equipment-no': fc.oneof(headerText, fc.constant(serial)),
        'x-device-witness': headerText,
        'content-type': fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=utf-16'),
      },
      { requiredKeys: [] },
    );
    const query = fc.dictionary(fc.constantFrom('equipmentNo', 'agentVersion', 'x'), fc.oneof(headerText, fc.constant(serial)), { maxKeys: 2 });
    await fc.assert(
      fc.asyncProperty(headers, body, query, async (h, b, q) => {
        const raw = method === 'POST' ? (typeof b === 'string' ? b : JSON.stringify(b ?? null)) : undefined;
        const r = await call(t.url, method, path, { headers: h, query: q, ...(raw !== undefined ? { body: raw } : {}) });
        expect(r.status, `${r.status} ${r.text}`).toBeLessThan(500);
        expect(r.body).toMatchObject({ code: r.status, message: expect.any(String) });
      }),
      { numRuns: 30 },
    );
  });
});
