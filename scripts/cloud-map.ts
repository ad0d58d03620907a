import fs from 'node:fs';
import path from 'node:path';

/**
 * The cloud's map as the code has it, for apps/cloud/README.md: who writes which table (every Kysely
 * write outside the store's own seed, reset and migrations) and the domain layers (the written order in
 * `domains/layers.json` with the imports each domain really makes). `scripts/docs-cloud.ts` writes it into
 * the README; `cloud-map.test.ts` fails when the README, the layers or the one-writer rule drift.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
export const CLOUD_SRC = path.join(ROOT, 'apps/cloud/src');
export const CLOUD_README = path.join(ROOT, 'apps/cloud/README.md');
const DOMAINS = path.join(CLOUD_SRC, 'domains');

/** Test code may reach across domains and write anything: the map is of product code. */
const TEST_CODE = /(\.test|\.factories|test-support|testkit|test-kit|\.fixture)\.ts$/;
/** The store's own whole-table operations (seed, reset, migrations) and the benchmarks' fixtures, which belong to no domain. */
const STORE_LEVEL = /^db\/(seed|reset)\.ts$|^db\/migrations\/|^bench\//;

export interface Tier {
  name: string;
  why: string;
  domains: string[];
}

export function readLayers(): Tier[] {
  return (JSON.parse(fs.readFileSync(path.join(DOMAINS, 'layers.json'), 'utf8')) as { tiers: Tier[] }).tiers;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((e) => {
    const file = path.join(e.parentPath, e.name);
    return e.isFile() && e.name.endsWith('.ts') && !TEST_CODE.test(e.name) ? [file] : [];
  });
}

/** The tables of the schema (`DB` in db/schema.ts). */
export function schemaTables(): string[] {
  const schema = fs.readFileSync(path.join(CLOUD_SRC, 'db/schema.ts'), 'utf8');
  const body = /export interface DB \{([\s\S]*?)\n\}/.exec(schema)?.[1] ?? '';
  return [...body.matchAll(/^\s+([a-z_]+):/gm)].map((m) => m[1]!);
}

/** Table → the source files (relative to apps/cloud/src) that insert, update or delete its rows. */
export function tableWriters(): Map<string, string[]> {
  const writers = new Map<string, string[]>();
  for (const file of sourceFiles(CLOUD_SRC)) {
    const rel = path.relative(CLOUD_SRC, file);
    if (STORE_LEVEL.test(rel)) continue;
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\.(?:insertInto|updateTable|deleteFrom)\(\s*'([a-z_]+)'/g)) {
      const list = writers.get(m[1]!) ?? [];
      if (!list.includes(rel)) list.push(rel);
      writers.set(m[1]!, list);
    }
  }
  return writers;
}

/** The domain a source file belongs to, or null outside domains/. */
function domainOf(file: string): string | null {
  const rel = path.relative(DOMAINS, file);
  return rel.startsWith('..') ? null : rel.split(path.sep)[0]!;
}

/** Domain → the other domains its product code imports (type-only imports included). */
export function domainImports(): Map<string, Set<string>> {
  const uses = new Map<string, Set<string>>();
  for (const file of sourceFiles(DOMAINS)) {
    const from = domainOf(file);
    if (!from) continue;
    const set = uses.get(from) ?? new Set<string>();
    uses.set(from, set);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const to = domainOf(path.resolve(path.dirname(file), m[1]!));
      if (to && to !== from) set.add(to);
    }
  }
  return uses;
}

/** The domain folders on disk. */
export function domainFolders(): string[] {
  return fs
    .readdirSync(DOMAINS, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Imports that run against the written order: [from, to] pairs. */
export function layerViolations(tiers: Tier[], uses: Map<string, Set<string>>): [string, string][] {
  const order = tiers.flatMap((t) => t.domains);
  const rank = new Map(order.map((d, i) => [d, i]));
  return [...uses].flatMap(([from, tos]) =>
    [...tos].filter((to) => !((rank.get(to) ?? Infinity) < (rank.get(from) ?? -Infinity))).map((to) => [from, to] as [string, string]),
  );
}

export function renderTableOwners(writers: Map<string, string[]>): string {
  const byWriter = new Map<string, string[]>();
  for (const [table, files] of [...writers].sort(([a], [b]) => a.localeCompare(b))) {
    const key = files.join(', ');
    byWriter.set(key, [...(byWriter.get(key) ?? []), table]);
  }
  const rows = [...byWriter]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([files, tables]) =>
        `| ${files
          .split(', ')
          .map((f) => `\`${f}\``)
          .join(', ')} | ${tables.join(', ')} |`,
    );
  return ['| written only by | tables |', '|---|---|', ...rows].join('\n');
}

export function renderLayers(tiers: Tier[], uses: Map<string, Set<string>>): string {
  const order = tiers.flatMap((t) => t.domains);
  const rows = tiers.flatMap((t, i) =>
    t.domains.map((d, j) => {
      const used = order.filter((o) => uses.get(d)?.has(o));
      return `| ${j === 0 ? `${i + 1}. ${t.name}` : ''} | \`${d}\` | ${used.length ? used.map((u) => `\`${u}\``).join(' ') : '—'} |`;
    }),
  );
  return ['| layer (bottom first) | domain | uses |', '|---|---|---|', ...rows].join('\n');
}

/** The README's generated blocks, by marker name. */
export function generatedBlocks(): Record<string, string> {
  const tiers = readLayers();
  return { 'table-owners': renderTableOwners(tableWriters()), 'domain-layers': renderLayers(tiers, domainImports()) };
}

/** `text` with each `<!-- generated:NAME -->…<!-- /generated:NAME -->` block replaced by `blocks[NAME]`. */
export function withBlocks(text: string, blocks: Record<string, string>): string {
  let out = text;
  for (const [name, body] of Object.entries(blocks)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`README has no block ${name}`);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${body}\n${close}`);
  }
  return out;
}
