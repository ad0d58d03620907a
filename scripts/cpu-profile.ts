/**
 * A small reader of V8's `.cpuprofile` (what `node --cpu-prof` writes): self time by function and by
 * package within a time window. Sample timestamps are CLOCK_MONOTONIC microseconds on Linux, the clock
 * `process.hrtime` reads, so a benchmark can cut the profile of another process at the edges of its own runs.
 */
import fs from 'node:fs';
import path from 'node:path';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfItem {
  name: string;
  /** Share of the busy samples in the window (idle excluded), 0–1. */
  share: number;
}

export interface ProfileSlice {
  /** Samples in the window, idle included. */
  samples: number;
  /** Share of the window's samples in which the process was busy (not idle). */
  busy: number;
  functions: SelfItem[];
  packages: SelfItem[];
}

/** Microseconds on the clock the profile's timestamps use. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

function where(url: string, root: string): string {
  if (url === '') return '';
  let u = url.startsWith('file://') ? decodeURIComponent(url.slice('file://'.length)) : url;
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length);
  if (u.startsWith(root + path.sep)) u = u.slice(root.length + 1);
  return u;
}

/** The package a frame belongs to: an npm package, node's own internals, a workspace app/package, or V8's pseudo-frames. */
function packageOf(frame: CallFrame, root: string): string {
  const w = where(frame.url, root);
  if (w === '') return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (w.startsWith('node:')) return 'node internals';
  const m = /^(@[^/]+\/[^/]+|[^/]+)\//.exec(w);
  if (frame.url.includes('/node_modules/') && m) return m[1]!;
  const app = /^(apps|packages)\/([^/]+)\/src\/(domains\/[^/]+|[^/]+)/.exec(w);
  if (app) return `${app[1]}/${app[2]}/${app[3]}`;
  return w;
}

/** Self time by function and by package, of the samples taken in [fromUs, toUs] (all when omitted). */
export function sliceProfile(file: string, root: string, fromUs = -Infinity, toUs = Infinity, top = 12): ProfileSlice {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let t = profile.startTime;
  let samples = 0;
  let idle = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < fromUs || t > toUs) continue;
    samples++;
    const frame = frames.get(profile.samples[i]!);
    if (!frame) continue;
    if (frame.functionName === '(idle)') {
      idle++;
      continue;
    }
    const w = where(frame.url, root);
    const name = w === '' ? frame.functionName || '(anonymous)' : `${frame.functionName || '(anonymous)'} ${w}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + 1);
    const pkg = packageOf(frame, root);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + 1);
  }
  const busy = samples - idle;
  const rank = (m: Map<string, number>): SelfItem[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, n]) => ({ name, share: busy === 0 ? 0 : n / busy }));
  return { samples, busy: samples === 0 ? 0 : busy / samples, functions: rank(byFunction), packages: rank(byPackage) };
}

/** The two top lists of a slice as markdown tables. */
export function printSlice(title: string, s: ProfileSlice): void {
  console.log(`### ${title}: ${s.samples} samples, busy ${(s.busy * 100).toFixed(0)} %; self time as a share of busy samples`);
  console.log('');
  console.log('| # | function (self) | share |');
  console.log('|---:|---|---:|');
  s.functions.forEach((f, i) => console.log(`| ${i + 1} | \`${f.name}\` | ${(f.share * 100).toFixed(1)} % |`));
  console.log('');
  console.log('| # | package / module (self) | share |');
  console.log('|---:|---|---:|');
  s.packages.forEach((f, i) => console.log(`| ${i + 1} | ${f.name} | ${(f.share * 100).toFixed(1)} % |`));
  console.log('');
}
