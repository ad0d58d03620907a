import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DIALECTS, call, startTestServer, type TestServer } from '../../testing/harness.ts';
import { hasUnsafeChars } from '@vend/protocol';
import { FLEET, enrolled, newSerial, provision } from './gateway.test-support.ts';

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
/**
 * Strings no stored text may hold: NUL (PostgreSQL refuses it, error 22021), other C0/C1 control
 * characters, lone surrogates. Each is a 400, never a 500 (decisions: "Input hardening").
 */
const HOSTILE = ['\u0000', 'a\u0000b', '1.2.3\u0000', '\u0001', 'ab\u001fcd', '\u007f', '\u0085', '\ud800', 'a\udfffb', '\udc00\ud800'];
/** What a URL can carry of them (a lone surrogate arrives as U+FFFD). */
const HOSTILE_IN_URL = HOSTILE.filter((h) => !/[\ud800-\udfff]/.test(h));
/** Any UTF-16 code units at all, lone surrogates and controls included. */
const anyText = fc.string({ unit: 'binary', maxLength: 40 });
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

type LegKey<L = (typeof LEGS)[number]> = L extends readonly [infer M extends string, infer P extends string] ? `${M} ${P}` : never;
/**
 * For the authenticated property: which credential a leg takes, a body it accepts, and the string
 * fields a hostile value is put into (the body's serial carriers are added for every POST leg).
 */
const SHAPES: Record<LegKey, { via: 'key' | 'fleet' | 'fresh'; base?: Record<string, unknown>; fields: string[] }> = {
  'POST /cabinet/register': { via: 'fresh', fields: ['agentVersion', 'vmcVersion', 'deviceId', 'capabilities'] },
  'POST /cabinet/enrol': { via: 'fleet', fields: ['deviceId'] },
  'POST /cabinet/heartbeat': { via: 'key', fields: ['agentVersion', 'vmcVersion', 'capabilities', 'deferring'] },
  'GET /cabinet/config': { via: 'fleet', fields: [] },
  'GET /cabinet/goods': { via: 'fleet', fields: [] },
  'POST /cabinet/createOrder': { via: 'fleet', base: { aisleNo: 1 }, fields: ['cardBrand'] },
  'POST /cabinet/report': { via: 'key', base: { aisleNo: 1, success: true, outcome: 'dropped' }, fields: ['outcome', 'detail', 'commandId', 'orderNumber'] },
  'GET /cabinet/pending': { via: 'key', fields: [] },
  'GET /cabinet/upgrade': { via: 'key', fields: [] },
  'POST /apk/getEquipment': { via: 'fresh', fields: ['apkVersion', 'vmcVersion'] },
  'POST /apk/createOrder': { via: 'fleet', base: { aisleNo: 1 }, fields: ['cardBrand'] },
  'GET /apk/getAd': { via: 'fleet', fields: [] },
  'POST /apk/saveAdRecord': { via: 'fleet', base: { id: 'ad-1' }, fields: ['id', 'campaignId', 'playedAt'] },
  'POST /apk/apkUp': { via: 'fleet', fields: ['apkVersion', 'version'] },
  'POST /apk/validVmcVersion': { via: 'fleet', fields: ['vmcVersion', 'version'] },
};

/** Free-text fields: they keep tab and line breaks (`safeString({ allowBreaks: true })` in @vend/protocol). */
const FREE_TEXT = new Set(['detail', 'deferring']);

/** Where a field's string goes: most stand alone; a few sit inside a structure. */
function place(field: string, v: string): unknown {
  if (field === 'capabilities') return [v];
  if (field === 'deferring') return { version: '1.2.3', count: 1, seconds: 1, reason: v };
  return v;
}

describe.each(DIALECTS)('gateway legs under random input on %s', (dialect) => {
  let t: TestServer;
  let validKey: string;
  let serial: string;
  /** An un-enrolled pool cabinet: the fleet secret serves it. */
  let poolSerial: string;
  beforeAll(async () => {
    t = await startTestServer(dialect);
    const e = await enrolled(t);
    validKey = e.key;
    serial = e.serial;
    poolSerial = await provision(t);
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
      anyText,
      fc.constantFrom(...HOSTILE),
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
    const query = fc.dictionary(
      fc.constantFrom('equipmentNo', 'agentVersion', 'x'),
      fc.oneof(headerText, fc.constant(serial), fc.constantFrom(...HOSTILE_IN_URL), anyText),
      { maxKeys: 2 },
    );
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

  it.each(LEGS)('%s %s with a good credential: a hostile string anywhere is refused (4xx, never 5xx, never stored)', async (method, path) => {
    const shape = SHAPES[`${method} ${path}` as LegKey];
    const text = fc.oneof(fc.constantFrom(...HOSTILE), anyText, fc.constantFrom('1.2.3', 'ok'));
    const serialFields = method === 'POST' ? (path.startsWith('/apk/') ? ['equipmentNo', 'serialNumber', 'machineNo'] : ['equipmentNo', 'serialNumber']) : [];
    const fields = [...shape.fields, ...serialFields];
    const overrides = fields.length ? fc.dictionary(fc.constantFrom(...fields), text, { minKeys: 1, maxKeys: 2 }) : fc.constant<Record<string, string>>({});
    const query = fc.dictionary(fc.constantFrom('equipmentNo', 'agentVersion'), fc.oneof(fc.constantFrom(...HOSTILE_IN_URL), headerText), {
      maxKeys: method === 'GET' ? 2 : 1,
    });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(overrides, query, async (o, q) => {
        n++;
        const own = shape.via === 'key' ? serial : shape.via === 'fleet' ? poolSerial : newSerial('HOST');
        const headers: Record<string, string> = shape.via === 'key' ? { 'x-device-key': validKey } : { ...FLEET };
        // The cabinet's own serial, unless the property put something else in a carrier.
        const carriers = Object.keys(o).some((k) => serialFields.includes(k)) || 'equipmentNo' in q ? {} : { equipmentNo: own };
        const body: Record<string, unknown> = {
          ...shape.base,
          ...(path === '/cabinet/report' ? { dispenseId: `prop-${dialect}-${n}-${Date.now()}` } : {}),
          ...carriers,
        };
        for (const [k, v] of Object.entries(o)) body[k] = place(k, v);
        const r = await call(t.url, method, path, {
          headers,
          query: method === 'GET' && !('equipmentNo' in q) ? { ...q, equipmentNo: own } : q,
          ...(method === 'POST' ? { json: body } : {}),
        });
        expect(r.status, `${JSON.stringify(o)} ${JSON.stringify(q)} → ${r.status} ${r.text}`).toBeLessThan(500);
        expect(r.body).toMatchObject({ code: r.status, message: expect.any(String) });
        // A query parameter the leg does not read is ignored; the serial (and upgrade's agentVersion) are judged.
        const read = Object.entries(q)
          .filter(([k]) => k === 'equipmentNo' || path === '/cabinet/upgrade')
          .map(([, v]) => v);
        const hostile = [...Object.entries(o).map(([k, v]) => hasUnsafeChars(v, FREE_TEXT.has(k))), ...read.map((v) => hasUnsafeChars(v))].some(Boolean);
        // Usually 400; a serial that disagrees with another carrier or the credential may be a 403 first.
        if (hostile) expect(r.status, `${JSON.stringify(o)} ${JSON.stringify(q)} → ${r.text}`).toBeGreaterThanOrEqual(400);
      }),
      { numRuns: 30 },
    );
  });
});
