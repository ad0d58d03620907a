import { describe, expect, it } from 'vitest';
import {
  apportion,
  completeLoop,
  fillWanted,
  interleave,
  planSold,
  PROGRAMMATIC_MAX,
  type DirectCampaign,
  type Fill,
  type HousePadding,
  type Screensaver,
} from './loop-assembly.ts';

const NOW = Date.parse('2026-11-20T12:00:00Z');
const DAY_START = Date.parse('2026-11-20T00:00:00Z');
const DAY_END = DAY_START + 86_400_000 - 1;

const campaign = (id: string, weight = 1): DirectCampaign => ({
  id,
  weight,
  url: `/media/${id}.png`,
  head: id,
  type: 'image',
  mediaType: 'image/png',
  startTime: NOW - 1000,
  endTime: NOW + 1000,
});
const saver = (id: string): Screensaver => ({ id, url: `/media/${id}.png`, head: id, type: 'image', mediaType: 'image/png' });
const fill = (leaseId: string): Fill => ({
  leaseId,
  url: `https://ssp.test/${leaseId}.png`,
  head: 'Sponsored',
  mediaType: 'image/png',
  expiresAt: NOW + 3_600_000,
});
const poster = { url: '/advertise/poster/M.png', head: 'house', type: 'image' as const, mediaType: 'image/png', startTime: DAY_START, endTime: DAY_END };

/** The whole loop as a compact string: c:<id> s:<id> p:<lease> h. `forSale: false`: an operator who does not sell the screen. */
function assemble(opts: { slots?: number; direct?: DirectCampaign[]; savers?: Screensaver[]; fills?: Fill[]; rotation?: number; forSale?: boolean }) {
  const slots = opts.slots ?? 8;
  const rotation = opts.rotation ?? 0;
  const screensavers = opts.savers ?? [];
  const { sold, unsold } = planSold({ slots, direct: opts.direct ?? [], screensavers, rotation, dayStart: DAY_START, dayEnd: DAY_END });
  const asked = fillWanted(unsold);
  const house: HousePadding =
    opts.forSale === false ? { kind: 'own', screensavers, rotation, dayStart: DAY_START, dayEnd: DAY_END } : { kind: 'advertise', poster };
  const loop = completeLoop(sold, (opts.fills ?? []).slice(0, asked), { slots, now: NOW, house });
  return {
    asked,
    loop,
    shape: loop
      .map((e) =>
        e.source === 'direct-sold'
          ? `c:${e.campaignId}`
          : e.source === 'programmatic'
            ? `p:${e.id.slice(4)}`
            : e.id.startsWith('scr:')
              ? `s:${e.id.slice(4).split(':')[0]}`
              : 'h',
      )
      .join(' '),
  };
}

describe('attract loop assembly (spec 2 §4.2): direct-sold, screensavers, programmatic fill, house padding', () => {
  it.each([
    ['nothing sold: house content pads every slot', {}, 'h h h h h h h h', 3],
    ['one campaign of weight 1', { direct: [campaign('A')] }, 'c:A h h h h h h h', 3],
    ['weight 2 = two showings, spread', { direct: [campaign('A', 2), campaign('B')] }, 'c:A c:B c:A h h h h h', 3],
    ['screensavers take a slot each after the campaigns', { direct: [campaign('A')], savers: [saver('S1'), saver('S2')] }, 'c:A s:S1 s:S2 h h h h h', 3],
    [
      'programmatic fills the unsold slots, at most 3',
      { direct: [campaign('A')], fills: [fill('L1'), fill('L2'), fill('L3'), fill('L4')] },
      'c:A p:L1 p:L2 p:L3 h h h h',
      3,
    ],
    [
      'fewer unsold slots than the fill cap',
      { direct: [campaign('A', 6)], fills: [fill('L1'), fill('L2'), fill('L3')] },
      'c:A c:A c:A c:A c:A c:A p:L1 p:L2',
      2,
    ],
    ['sold out: no fill asked, no house', { direct: [campaign('A', 4), campaign('B', 4)], fills: [fill('L1')] }, 'c:A c:B c:A c:B c:A c:B c:A c:B', 0],
    ['a short loop of 3 slots', { slots: 3, direct: [campaign('A')], savers: [saver('S')], fills: [fill('L1'), fill('L2')] }, 'c:A s:S p:L1', 1],
  ] as [string, Parameters<typeof assemble>[0], string, number][])('%s', (_name, opts, shape, asked) => {
    const r = assemble(opts);
    expect(r.shape).toBe(shape);
    expect(r.asked).toBe(asked);
  });

  it('a screen for sale never answers an empty loop and always exactly the loop length', () => {
    for (const slots of [1, 2, 8, 12]) expect(assemble({ slots }).loop).toHaveLength(slots);
  });

  it('entries carry ids that say their source, campaign entries their campaign, times of their flight or lease', () => {
    const { loop } = assemble({ direct: [campaign('A', 2)], fills: [fill('L1')] });
    expect(loop[0]).toMatchObject({ id: 'cmp:A:1', source: 'direct-sold', campaignId: 'A', startTime: NOW - 1000, endTime: NOW + 1000 });
    expect(loop[1]).toMatchObject({ id: 'cmp:A:2', campaignId: 'A' });
    expect(loop[2]).toMatchObject({ id: 'ssp:L1', source: 'programmatic', startTime: NOW, endTime: NOW + 3_600_000 });
    expect(loop[3]).toMatchObject({ id: 'house:poster:1', source: 'house', url: '/advertise/poster/M.png' });
    expect(new Set(loop.map((e) => e.id)).size).toBe(loop.length);
  });

  it('oversold: slots shared by weight, the remainder turning with the loop so each gets its share over time', () => {
    const direct = [campaign('A', 3), campaign('B', 3), campaign('C', 3)];
    // 9 showings wanted, 8 slots: two campaigns get 3, one gets 2 — a different one each loop.
    const counts = [0, 1, 2].map((rotation) => apportion(direct, 8, rotation));
    for (const c of counts) expect(c.reduce((s, n) => s + n, 0)).toBe(8);
    const shortChanged = counts.map((c) => c.indexOf(2));
    expect(new Set(shortChanged).size).toBe(3);
    // Weight 6 vs 2 in 4 slots: 3 and 1.
    expect(apportion([campaign('A', 6), campaign('B', 2)], 4, 0)).toEqual([3, 1]);
  });

  it.each([
    ['no screensaver: a shorter loop, no padding', {}, ''],
    ['fills only: the loop is the fills', { fills: [fill('L1'), fill('L2'), fill('L3')] }, 'p:L1 p:L2 p:L3'],
    [
      'screensavers pad the tail again, in the same order',
      { savers: [saver('S1'), saver('S2')], fills: [fill('L1')] },
      's:S1 s:S2 p:L1 s:S1 s:S2 s:S1 s:S2 s:S1',
    ],
    [
      'a campaign, one screensaver, fills',
      { direct: [campaign('A')], savers: [saver('S')], fills: [fill('L1'), fill('L2')] },
      'c:A s:S p:L1 p:L2 s:S s:S s:S s:S',
    ],
    [
      'the padding turns with the loop as layer (2) does',
      { savers: [saver('S1'), saver('S2'), saver('S3')], rotation: 1 },
      's:S2 s:S3 s:S1 s:S2 s:S3 s:S1 s:S2 s:S3',
    ],
  ] as [string, Parameters<typeof assemble>[0], string][])('a screen not for sale never shows the advertise poster — %s', (_name, opts, shape) => {
    const { loop, shape: got } = assemble({ ...opts, forSale: false });
    expect(got).toBe(shape);
    expect(loop.some((e) => e.id.startsWith('house:poster') || e.url === poster.url)).toBe(false);
    expect(new Set(loop.map((e) => e.id)).size).toBe(loop.length);
  });

  it("a screensaver shown again is numbered after its showings: scr:<id>, then scr:<id>:2, … — and stays 'house'", () => {
    const { loop } = assemble({ slots: 5, savers: [saver('S1'), saver('S2')], forSale: false });
    expect(loop.map((e) => e.id)).toEqual(['scr:S1', 'scr:S2', 'scr:S1:2', 'scr:S2:2', 'scr:S1:3']);
    expect(loop.every((e) => e.source === 'house' && e.startTime === DAY_START && e.endTime === DAY_END)).toBe(true);
  });

  it('more screensavers than free slots: a window that moves on with each loop', () => {
    const savers = [saver('S1'), saver('S2'), saver('S3')];
    expect(assemble({ slots: 2, savers, rotation: 0 }).shape).toBe('s:S1 s:S2');
    expect(assemble({ slots: 2, savers, rotation: 1 }).shape).toBe('s:S2 s:S3');
    expect(assemble({ slots: 2, savers, rotation: 2 }).shape).toBe('s:S3 s:S1');
  });

  it('interleave spreads showings (smooth weighted round robin)', () => {
    expect(interleave(['A', 'B'], [3, 1]).join('')).toBe('AABA');
    expect(interleave(['A', 'B', 'C'], [2, 2, 1]).join('')).toMatch(/^(?!.*AA)(?!.*BB).*$/);
    expect(interleave(['A'], [0])).toEqual([]);
  });

  it('fill cap is the spec value', () => {
    expect(PROGRAMMATIC_MAX).toBe(3);
    expect(fillWanted(8)).toBe(3);
    expect(fillWanted(0)).toBe(0);
  });
});
