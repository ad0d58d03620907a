/** The benchmarks' memory-over-time charts (the fleet soak, the agent soak): an SVG line chart rendered to PNG by sharp (apps/cloud's). */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cloudRequire = createRequire(path.join(ROOT, 'apps/cloud/package.json'));

/** One line per series; x in minutes, y in MB (the axis starts at 0 so a flat line reads as flat). */
export async function plotRss(file: string, title: string, series: { label: string; points: [number, number][] }[], yLabel = 'RSS (MB)'): Promise<void> {
  const W = 900;
  const H = 420;
  const L = 70;
  const R = 20;
  const T = 50;
  const B = 60;
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yMax = Math.max(50, ...all.map((p) => p[1])) * 1.15;
  const x = (v: number) => L + (v / xMax) * (W - L - R);
  const y = (v: number) => H - B - (v / yMax) * (H - T - B);
  const colours = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
  const yStep = yMax > 400 ? 100 : yMax > 200 ? 50 : yMax > 100 ? 25 : 10;
  const xStep = xMax > 20 ? 5 : 1;
  let svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="DejaVu Sans, sans-serif" font-size="13">`;
  svg += `<rect width="100%" height="100%" fill="white"/>`;
  svg += `<text x="${W / 2}" y="28" text-anchor="middle" font-size="16">${title}</text>`;
  for (let v = 0; v <= yMax; v += yStep)
    svg += `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/><text x="${L - 8}" y="${y(v) + 4}" text-anchor="end">${v}</text>`;
  for (let v = 0; v <= xMax; v += xStep)
    svg += `<line x1="${x(v)}" x2="${x(v)}" y1="${T}" y2="${H - B}" stroke="#eee"/><text x="${x(v)}" y="${H - B + 18}" text-anchor="middle">${v}</text>`;
  svg += `<line x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}" stroke="black"/><line x1="${L}" x2="${L}" y1="${T}" y2="${H - B}" stroke="black"/>`;
  svg += `<text x="${(L + W - R) / 2}" y="${H - 18}" text-anchor="middle">minutes</text>`;
  svg += `<text transform="translate(18 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle">${yLabel}</text>`;
  series.forEach((s, i) => {
    const c = colours[i % colours.length]!;
    svg += `<polyline fill="none" stroke="${c}" stroke-width="2" points="${s.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ')}"/>`;
    svg += `<rect x="${L + 15}" y="${T + 8 + i * 20}" width="14" height="4" fill="${c}"/><text x="${L + 35}" y="${T + 14 + i * 20}">${s.label}</text>`;
  });
  svg += '</svg>';
  const sharp = cloudRequire('sharp') as (b: Buffer) => { png(): { toFile(f: string): Promise<unknown> } };
  await sharp(Buffer.from(svg)).png().toFile(file);
}
