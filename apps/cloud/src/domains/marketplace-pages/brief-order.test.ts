import { describe, expect, it } from 'vitest';
import { creativeChoice, fieldErrorsOf, fieldOfPath, readBrief, zipsOf } from './brief-order.ts';
import { briefValuesOf } from './brief.page.ts';

const SOURCE = { machineNo: 'SBX-ALICE-0001', qrId: 'qr_0123456789abcdef' };
const VALID = briefValuesOf({
  sponsorType: 'local-business',
  sponsorName: 'Joe’s Coffee',
  buyerName: 'Joe',
  buyerEmail: 'joe@example.test',
  reach: 'machine',
  slots: '1',
  months: '3',
});

describe('the brief form → the marketplace order', () => {
  it('converts a complete brief: this kiosk from the QR, numbers, no phone or start date when left empty', () => {
    const r = readBrief(VALID, SOURCE);
    expect(r).toEqual({
      ok: true,
      brief: {
        sponsorType: 'local-business',
        sponsorName: 'Joe’s Coffee',
        buyer: { name: 'Joe', email: 'joe@example.test' },
        reach: { kind: 'machine', machineNo: 'SBX-ALICE-0001' },
        slots: 1,
        months: 3,
        source: SOURCE,
      },
    });
  });

  it('reads each reach with its own input only', () => {
    const v = { ...VALID, zip: '10001', zips: '10001, 10004;10005  10006', city: 'New York' };
    const reachOf = (reach: string) => {
      const r = readBrief({ ...v, reach }, SOURCE);
      return r.ok ? r.brief.reach : r.errors;
    };
    expect(reachOf('zip')).toEqual({ kind: 'zip', zips: ['10001'] });
    expect(reachOf('zips')).toEqual({ kind: 'zips', zips: ['10001', '10004', '10005', '10006'] });
    expect(reachOf('city')).toEqual({ kind: 'city', city: 'New York' });
    expect(reachOf('network')).toEqual({ kind: 'network' });
    expect(zipsOf(' , ')).toEqual([]);
  });

  it('asks for every missing choice in a person’s words, and the core schema’s rules under their fields', () => {
    const r = readBrief(briefValuesOf({ reach: 'city', buyerEmail: 'nope', months: '9', slots: '1' }), SOURCE);
    expect(r.ok).toBe(false);
    const errors = r.ok ? {} : r.errors;
    expect(errors['sponsorType']).toBe('Choose who is advertising');
    expect(errors['sponsorName']).toBe('Enter the sponsor name');
    expect(errors['city']).toBe('Enter the city');
    expect(errors['buyerEmail']).toMatch(/^Email address: /);
    expect(Object.keys(errors)).not.toContain('form');
  });

  it('refuses a second ZIP under “a ZIP code”, and a phone that is not one', () => {
    const r = readBrief({ ...VALID, reach: 'zip', zip: '10001 10004', buyerPhone: 'call me' }, SOURCE);
    expect(r.ok ? {} : r.errors).toMatchObject({ zip: expect.stringMatching(/one ZIP code/), buyerPhone: expect.stringMatching(/^Phone: /) });
  });

  it('never reads an amount: extra fields are not part of the order', () => {
    const r = readBrief(briefValuesOf({ ...VALID, total: '1', amountCents: '1' } as Record<string, string>), SOURCE);
    expect(JSON.stringify(r)).not.toMatch(/total|amount/i);
  });

  it('puts core issue paths next to their fields', () => {
    expect(fieldOfPath('buyer.email', 'machine')).toBe('buyerEmail');
    expect(fieldOfPath('reach.zips.0', 'zip')).toBe('zip');
    expect(fieldOfPath('reach.zips.3', 'zips')).toBe('zips');
    expect(fieldOfPath('reach', 'network')).toBe('reach');
    expect(fieldOfPath('reach', 'city')).toBe('city');
    expect(fieldOfPath('flightStart', 'machine')).toBe('flightStart');
    expect(fieldOfPath('source.qrId', 'machine')).toBeNull();
    expect(
      fieldErrorsOf(
        [
          { path: 'source.qrId', message: 'is not this machine’s advertise QR' },
          { path: 'months', message: 'must be from 1 to 6' },
        ],
        'machine',
      ),
    ).toEqual({
      form: 'is not this machine’s advertise QR',
      months: 'How long: must be from 1 to 6',
    });
  });

  it('chooses the creative: keep needs one held, upload a file, studio a brief', () => {
    expect(creativeChoice({ ...VALID, creativeMode: 'keep' }, { file: false, held: true })).toEqual({ ok: true, mode: 'keep' });
    expect(creativeChoice({ ...VALID, creativeMode: 'keep' }, { file: false, held: false })).toMatchObject({
      ok: false,
      errors: { creativeMode: expect.any(String) },
    });
    expect(creativeChoice({ ...VALID, creativeMode: 'upload' }, { file: false, held: true })).toMatchObject({
      ok: false,
      errors: { creativeFile: 'Choose a file to upload' },
    });
    expect(creativeChoice({ ...VALID, creativeMode: 'upload' }, { file: true, held: false })).toEqual({ ok: true, mode: 'upload' });
    expect(creativeChoice({ ...VALID, creativeMode: 'studio', studioBrief: '' }, { file: false, held: false })).toMatchObject({
      ok: false,
      errors: { studioBrief: expect.any(String) },
    });
    expect(creativeChoice({ ...VALID, creativeMode: 'studio', studioBrief: 'Coffee' }, { file: false, held: true })).toEqual({ ok: true, mode: 'studio' });
    expect(creativeChoice({ ...VALID, creativeMode: 'other' }, { file: true, held: true })).toMatchObject({ ok: false });
  });
});
