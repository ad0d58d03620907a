import { describe, expect, it } from 'vitest';
import { crc16, parseDex, renderDex, type DexAudit } from './dex.ts';

const t = (count: number, cents = 0) => ({ count, cents });
const audit: DexAudit = {
  machineNo: 'M*1',
  model: 'SH',
  agentVersion: '1.0.0',
  at: Date.parse('2026-11-20T12:34:00Z'),
  paid: { sinceInit: t(3, 450), inPeriod: t(1, 150) },
  cash: { sinceInit: t(0), inPeriod: t(0) },
  cashless: { sinceInit: t(3, 450), inPeriod: t(1, 150) },
  free: { sinceInit: t(0), inPeriod: t(0) },
  products: [{ selection: 1, priceCents: 150, productId: 'SKU-1', sinceInit: t(3, 450), inPeriod: t(1, 150) }],
  failedVends: t(0),
  failedInPeriod: t(0),
};

describe('DEX codec', () => {
  it('CRC-16/ARC of the check string is 0xBB3D', () => {
    expect(crc16(new TextEncoder().encode('123456789'))).toBe(0xbb3d);
  });

  it('renders CR LF segments that read back; separators inside an element become spaces; CA2 only with cash', () => {
    const text = renderDex(audit);
    expect(text).toContain('ID1*M 1*SH*1.0.0**M 1*\r\n');
    expect(text).toContain('ID5*20261120*1234\r\n');
    expect(text).not.toContain('CA2*');
    const r = parseDex(text);
    expect(r.ok).toBe(true);
    // LF-only files (some readers strip CR) and files without G85 are read too
    expect(parseDex(text.replace(/\r\n/g, '\n')).ok).toBe(true);
    expect(parseDex(text.replace(/G85\*[0-9A-F]{4}\r\n/, '').replace(/SE\*(\d+)/, (_m, n: string) => `SE*${Number(n) - 1}`)).ok).toBe(true);
  });

  it('refuses a wrong CRC, a wrong segment count and text that is not DEX', () => {
    const text = renderDex(audit);
    expect(parseDex(text.replace('PA1*1*150', 'PA1*1*151'))).toEqual({ ok: false, error: 'G85 CRC does not match the file' });
    expect(parseDex(text.replace(/G85\*[0-9A-F]{4}\r\n/, ''))).toMatchObject({ ok: false, error: expect.stringMatching(/^SE counts/) });
    expect(parseDex('hello')).toMatchObject({ ok: false });
  });
});
