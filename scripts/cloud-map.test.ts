import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CLOUD_README,
  domainFolders,
  domainImports,
  generatedBlocks,
  layerViolations,
  readLayers,
  schemaTables,
  tableWriters,
  withBlocks,
  type Tier,
} from './cloud-map.ts';

/** Tables only the store's sandbox seed writes (no API creates them). */
const SEED_ONLY = ['oauth_clients'];

describe('the cloud map (apps/cloud/README.md) and the rules it states', () => {
  it('every domain folder has exactly one place in the layers, and every listed domain exists', () => {
    const listed = readLayers().flatMap((t) => t.domains);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(domainFolders());
  });

  it('no domain imports one above it: the folders form no loop', () => {
    expect(layerViolations(readLayers(), domainImports())).toEqual([]);
  });

  it('finds an import that runs up the layers', () => {
    const tiers: Tier[] = [
      { name: 'low', why: '', domains: ['machines'] },
      { name: 'high', why: '', domains: ['orders'] },
    ];
    const uses = new Map([
      ['machines', new Set(['orders'])],
      ['orders', new Set(['machines'])],
    ]);
    expect(layerViolations(tiers, uses)).toEqual([['machines', 'orders']]);
  });

  it('every table of the schema has exactly one writer', () => {
    const writers = tableWriters();
    const tables = schemaTables();
    expect(tables.length).toBeGreaterThan(90);
    expect(tables.filter((t) => !writers.has(t) && !SEED_ONLY.includes(t))).toEqual([]);
    expect([...writers].filter(([, files]) => files.length !== 1)).toEqual([]);
    expect([...writers.keys()].filter((t) => !tables.includes(t))).toEqual([]);
  });

  it('the README shows the layers and the table owners as the code has them (pnpm exec tsx scripts/docs-cloud.ts)', () => {
    const readme = fs.readFileSync(CLOUD_README, 'utf8');
    expect(withBlocks(readme, generatedBlocks())).toBe(readme);
  });

  it('the README describes every domain', () => {
    const readme = fs.readFileSync(CLOUD_README, 'utf8');
    expect(domainFolders().filter((d) => !readme.includes(`- \`${d}\` — `))).toEqual([]);
  });
});
