import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { busyStretches } from './cpu-profile.ts';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' });

describe('busyStretches', () => {
  it('finds each run of samples without an idle one, longest first, with the stacks sampled in it', () => {
    // (root) → idle; (root) → outer → statementRun; (root) → other
    const nodes = [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 5] },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('outer', 'file:///r/apps/cloud/src/a.ts'), children: [4] },
      { id: 4, callFrame: frame('run', 'file:///r/node_modules/better-sqlite3/lib/x.js') },
      { id: 5, callFrame: frame('other', 'file:///r/apps/cloud/src/b.ts') },
    ];
    // 1 ms apart: 10 idle, 151 busy (120 in run, 31 in other), 5 idle, 50 busy, 5 idle
    const samples = [
      ...Array<number>(10).fill(2),
      ...Array<number>(120).fill(4),
      ...Array<number>(31).fill(5),
      ...Array<number>(5).fill(2),
      ...Array<number>(50).fill(5),
      ...Array<number>(5).fill(2),
    ];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vend-prof-'));
    const file = path.join(dir, 'x.cpuprofile');
    fs.writeFileSync(file, JSON.stringify({ nodes, startTime: 1_000_000, endTime: 0, samples, timeDeltas: samples.map(() => 1000) }));
    try {
      const found = busyStretches(file, '/r', 100);
      expect(found).toHaveLength(1);
      expect(found[0]!.ms).toBe(150);
      expect(found[0]!.startUs).toBe(1_000_000 + 11_000);
      expect(found[0]!.stacks.map((s) => [s.name, Math.round(s.share * 151)])).toEqual([
        ['run better-sqlite3/lib/x.js:1 < outer apps/cloud/src/a.ts:1', 120],
        ['other apps/cloud/src/b.ts:1', 31],
      ]);
      expect(busyStretches(file, '/r', 40).map((s) => s.ms)).toEqual([150, 49]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
