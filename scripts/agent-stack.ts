/**
 * Maps a stack trace from a cabinet back to the agent's sources. The release tree's lib/*.cjs are
 * minified and carry no source map (a cabinet never loads one); scripts/build-agent-release writes the
 * maps beside the artifact, `<out-dir>/vend-agent-<version>-linux-<arch>.maps/` (docs/decisions/agent.md
 * "Footprint"). Use the maps of the version that printed the trace:
 *
 *   npx tsx scripts/agent-stack.ts dist/vend-agent-1.4.2-linux-arm64.maps < trace.txt
 *
 * Every `…/lib/<file>.cjs:<line>:<column>` in the input becomes `<source>:<line>:<column>` (with the
 * original name when the map has one); other text is passed through.
 */
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';

const dir = process.argv[2];
if (!dir || !fs.existsSync(dir)) {
  process.stderr.write('usage: npx tsx scripts/agent-stack.ts <maps-dir> < trace.txt\n');
  process.exit(64);
}
const maps = new Map<string, SourceMap | null>();
const mapOf = (file: string): SourceMap | null => {
  if (!maps.has(file)) {
    const p = path.join(dir, `${file}.map`);
    maps.set(file, fs.existsSync(p) ? new SourceMap(JSON.parse(fs.readFileSync(p, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]) : null);
  }
  return maps.get(file)!;
};
const input = fs.readFileSync(0, 'utf8');
const out = input.replace(/(?:[^\s()]*\/)?lib\/([\w-]+\.cjs):(\d+):(\d+)/g, (whole, file: string, line: string, column: string) => {
  const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1) as
    { originalSource?: string; originalLine?: number; originalColumn?: number; name?: string } | undefined;
  if (!entry?.originalSource) return whole;
  // the map names sources relative to where it was written: keep the repository-relative part
  const source = entry.originalSource.replace(/^.*\/node_modules\//, 'node_modules/').replace(/^.*?\/?(?=(?:apps|packages)\/)/, '');
  return `${source}:${entry.originalLine! + 1}:${entry.originalColumn! + 1}${entry.name ? ` [${entry.name}]` : ''}`;
});
process.stdout.write(out);
