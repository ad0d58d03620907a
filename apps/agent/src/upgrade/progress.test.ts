import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SparseProgress, ThrottledProgress, etaSeconds, formatBytes, percentOf, progressLine, rateOf } from './progress.ts';
import type { DownloadProgress } from './progress.ts';

const MiB = 1024 * 1024;
const at = (received: number, elapsedMs: number, total = 40 * MiB): DownloadProgress => ({ version: '1.4.0', received, total, elapsedMs });

describe('formatBytes', () => {
  it('uses binary units with at most three significant figures', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1.00 KiB');
    expect(formatBytes(1536)).toBe('1.50 KiB');
    expect(formatBytes(18.3 * MiB)).toBe('18.3 MiB');
    expect(formatBytes(300 * MiB)).toBe('300 MiB');
    expect(formatBytes(1.2 * 1024 * MiB)).toBe('1.20 GiB');
  });
});

describe('progressLine', () => {
  it('shows percent, bytes of the signed size, the average rate and the time left', () => {
    expect(progressLine(at(10 * MiB, 5000))).toBe('downloading 1.4.0   25%  10.0 MiB of 40.0 MiB  2.00 MiB/s  about 15 s left');
    expect(progressLine(at(40 * MiB, 20_000))).toBe('downloading 1.4.0  100%  40.0 MiB of 40.0 MiB  2.00 MiB/s');
  });

  it('leaves the rate out until there is one, and never says 100 % before the last byte', () => {
    expect(progressLine(at(0, 0))).toBe('downloading 1.4.0    0%  0 B of 40.0 MiB');
    expect(percentOf(at(40 * MiB - 1, 1000))).toBe(99);
    expect(rateOf(at(5, 50))).toBeNull();
    expect(etaSeconds(at(0, 1000))).toBeNull();
  });

  it('says minutes and hours for a slow link', () => {
    expect(progressLine(at(MiB, 10_000))).toMatch(/about 6 min 30 s left$/);
    expect(progressLine(at(MiB, 1000_000, 400 * MiB))).toMatch(/about 110 h 50 min left$/);
  });
});

describe('SparseProgress (not a terminal)', () => {
  it('prints one line per 10 % step crossed, however many snapshots arrive, and the last at 100 %', () => {
    const sparse = new SparseProgress(10);
    const lines: string[] = [];
    for (let kib = 0; kib <= 40 * 1024; kib += 64) {
      const line = sparse.next(at(kib * 1024, kib));
      if (line) lines.push(line);
    }
    expect(lines.map((l) => /(\d+)%/.exec(l)![1])).toEqual(['0', '10', '20', '30', '40', '50', '60', '70', '80', '90', '100']);
  });

  it('skips steps a fast download jumps over, and starts again for another version', () => {
    const sparse = new SparseProgress(10);
    expect(sparse.next(at(0, 0))).toMatch(/ 0%/);
    expect(sparse.next(at(35 * MiB, 1000))).toMatch(/ 87%/);
    expect(sparse.next(at(35.5 * MiB, 1100))).toBeNull();
    expect(sparse.next(at(40 * MiB, 1200))).toMatch(/100%/);
    expect(sparse.next(at(40 * MiB, 1300))).toBeNull();
    expect(sparse.next({ ...at(0, 0), version: '1.4.1' })).toMatch(/1\.4\.1 +0%/);
  });

  it('never prints more than 11 lines for any sequence of snapshots', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 40 * MiB }), { maxLength: 300 }), (points) => {
        const sparse = new SparseProgress(10);
        const lines = [...points].sort((a, b) => a - b).flatMap((n, i) => sparse.next(at(n, i * 10)) ?? []);
        expect(lines.length).toBeLessThanOrEqual(11);
      }),
    );
  });
});

describe('ThrottledProgress (the daemon log)', () => {
  it('logs the first snapshot, then at most once per interval, and the end once', () => {
    const t = new ThrottledProgress(30_000);
    const logged = [0, 1000, 29_999, 30_000, 45_000, 60_500].flatMap((ms) => (t.next(at(ms * 100, ms)) ? [ms] : []));
    expect(logged).toEqual([0, 30_000, 60_500]);
    expect(t.next(at(40 * MiB, 61_000))).toMatch(/100%/);
    expect(t.next(at(40 * MiB, 62_000))).toBeNull();
  });
});
