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

/** A stretch of the profile in which the thread never went idle: the event loop held for its length. */
export interface BusyStretch {
  /** Its start on the profile's clock (µs) and its length (ms). */
  startUs: number;
  ms: number;
  /** The stacks sampled in it, most sampled first (innermost frame first, `<` between frames), with their share. */
  stacks: SelfItem[];
}

/**
 * Every stretch of at least `minMs` without an idle sample, longest first, with the stacks sampled in it: what
 * held the event loop. A blocking call into native code (a synchronous statement waiting for its disk, say)
 * counts as busy, in the JavaScript frame that made the call.
 */
export function busyStretches(file: string, root: string, minMs = 100, top = 10, depth = 8): BusyStretch[] {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile & { nodes: { id: number; callFrame: CallFrame; children?: number[] }[] };
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): string => {
    const names: string[] = [];
    for (let at: number | undefined = id; at !== undefined && names.length < depth; at = parent.get(at)) {
      const f = frames.get(at);
      if (!f || f.functionName === '(root)') break;
      const w = where(f.url, root);
      names.push(w === '' ? f.functionName || '(anonymous)' : `${f.functionName || '(anonymous)'} ${w}:${f.lineNumber + 1}`);
    }
    return names.join(' < ');
  };
  const found: BusyStretch[] = [];
  let t = profile.startTime;
  let open: { startUs: number; lastUs: number; counts: Map<number, number> } | null = null;
  const close = () => {
    if (open && (open.lastUs - open.startUs) / 1000 >= minMs) {
      const total = [...open.counts.values()].reduce((s, n) => s + n, 0);
      const byStack = new Map<string, number>();
      for (const [id, n] of open.counts) byStack.set(stackOf(id), (byStack.get(stackOf(id)) ?? 0) + n);
      found.push({
        startUs: open.startUs,
        ms: (open.lastUs - open.startUs) / 1000,
        stacks: [...byStack.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([name, n]) => ({ name, share: n / total })),
      });
    }
    open = null;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i]!;
    if (frames.get(id)?.functionName === '(idle)') {
      close();
      continue;
    }
    open ??= { startUs: t, lastUs: t, counts: new Map() };
    open.lastUs = t;
    open.counts.set(id, (open.counts.get(id) ?? 0) + 1);
  }
  close();
  return found.sort((a, b) => b.ms - a.ms).slice(0, top);
}

/** The stretches as a list for the console. */
export function printStretches(title: string, stretches: BusyStretch[], originUs: number): void {
  console.log(`### ${title}: ${stretches.length} stretch(es)`);
  for (const s of stretches) {
    console.log(`- ${s.ms.toFixed(0)} ms at +${((s.startUs - originUs) / 1e6).toFixed(1)} s`);
    for (const st of s.stacks) console.log(`  - ${(st.share * 100).toFixed(0)} % ${st.name}`);
  }
  console.log('');
}
