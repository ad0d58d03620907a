import { describe, expect, it } from 'vitest';
import { DIALECTS, suiteServer } from '../../testing/harness.ts';
import { renderDex, type DexAudit } from '@vend/protocol';
import { call } from '../../testing/harness.ts';
import { ALICE_MACHINE_2, alice, bob, machineId, setAisle } from '../commands/commands.test-support.ts';
import type { DexReconciliation } from './dex.schemas.ts';
import { checkedFetch } from '../../testing/contract.ts';

/**
 * An EVA-DTS reader written from the structure, independent of dex.format.ts: segments on CR LF lines,
 * elements split on `*`, the transaction set ST…SE counted, G85 checked with a table-driven CRC-16/ARC.
 */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  return c;
});
function crcArc(bytes: Buffer): number {
  let crc = 0;
  for (const b of bytes) crc = (crc >>> 8) ^ CRC_TABLE[(crc ^ b) & 0xff]!;
  return crc;
}

type Segments = Map<string, string[][]>;
function parseDex(raw: Buffer): Segments {
  const text = raw.toString('latin1');
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  expect(lines.every((l) => !l.includes('\n') && !l.includes('\r'))).toBe(true);
  const ids = lines.map((l) => l.split('*')[0]);
  expect(ids[0]).toBe('DXS');
  expect(ids.at(-1)).toBe('DXE');
  const g85 = ids.indexOf('G85');
  const crcGiven = lines[g85]!.split('*')[1];
  const covered = Buffer.from(lines.slice(0, g85).join('\r\n') + '\r\n', 'latin1');
  if (crcGiven !== crcArc(covered).toString(16).toUpperCase().padStart(4, '0')) throw new Error('G85 CRC mismatch');
  const st = ids.indexOf('ST');
  const se = ids.indexOf('SE');
  expect(Number(lines[se]!.split('*')[1])).toBe(se - st + 1);
  const out: Segments = new Map();
  for (const l of lines) {
    const [id, ...els] = l.split('*');
    out.set(id!, [...(out.get(id!) ?? []), els]);
  }
  return out;
}
const one = (s: Segments, id: string) => s.get(id)?.[0] ?? [];
const nums = (els: string[]) => els.map(Number);

describe.each(DIALECTS)('DEX export on %s', (dialect) => {
  const t = suiteServer(dialect, { env: { RATE_LIMIT_PER_HOUR: '100000' } });
  const dex = (query: Record<string, string>, headers: Record<string, string> = alice) =>
    checkedFetch(`${t.url}/api/v1/machines/${ALICE_MACHINE_2}/dex?${new URLSearchParams(query)}`, { headers }).then(async (r) => ({
      status: r.status,
      type: r.headers.get('content-type'),
      raw: Buffer.from(await r.arrayBuffer()),
    }));
  let seq = 0;
  const sell = async (at: string, aisleNo: number, quantity: number, chargedCents: number, payMethod: string) => {
    const id = await machineId(t, ALICE_MACHINE_2);
    const now = Date.parse(at);
    const m = await t.ctx.database.db.selectFrom('machines').select('operator_id').where('id', '=', id).executeTakeFirstOrThrow();
    await t.services.store.transaction((tx) =>
      t.services.sales.recordSale(tx, {
        machineId: id,
        aisleNo,
        quantity,
        takesStock: true,
        now,
        order: {
          kind: 'new',
          row: {
            order_number: `DEX${dialect}${++seq}`,
            machine_id: id,
            operator_id: m.operator_id,
            aisle_no: aisleNo,
            quantity,
            paid_cents: chargedCents,
            charged_cents: chargedCents,
            channel: 'walkup',
            pay_method: payMethod,
            created_at: now,
            updated_at: now,
          },
        },
      }),
    );
  };

  it('exports a period: totals, cash and cashless, per selection, free vends; parsed back and CRC-checked', async () => {
    for (const [aisle, price] of [
      [1, 150],
      [2, 200],
      [3, 250],
    ] as const)
      await setAisle(t, ALICE_MACHINE_2, aisle, { stock: 20, priceCents: price });
    t.clock.advance(Date.parse('2027-01-10T18:00:00Z') - t.clock.now());
    const before = parseDex((await dex({ to: '2027-01-08' })).raw);
    await sell('2027-01-09T09:00:00Z', 2, 1, 200, 'cash'); // before the period: since-init only
    await sell('2027-01-10T08:00:00Z', 1, 1, 150, 'cash');
    await sell('2027-01-10T09:00:00Z', 1, 2, 300, 'card');
    await sell('2027-01-10T10:00:00Z', 2, 1, 200, 'wallet');
    await sell('2027-01-10T11:00:00Z', 3, 1, 0, 'remote'); // a free vend
    await sell('2027-01-11T00:00:00Z', 3, 1, 250, 'card'); // after the period: not counted at all

    const r = await dex({ from: '2027-01-10', to: '2027-01-10' });
    expect(r.status).toBe(200);
    expect(r.type).toMatch(/^text\/plain/);
    const s = parseDex(r.raw);
    expect(one(s, 'DXS').slice(1, 3)).toEqual(['VA', 'V0/6']);
    expect(one(s, 'ID1')[0]).toBe(ALICE_MACHINE_2);
    expect(one(s, 'ID4')).toEqual(['2', '840']);
    expect(one(s, 'ID5')).toEqual(['20270111', '0000']);
    const va1 = nums(one(s, 'VA1'));
    const va1Before = nums(one(before, 'VA1'));
    expect(va1.slice(2)).toEqual([650, 4]);
    expect(va1.slice(0, 2)).toEqual([va1Before[0]! + 850, va1Before[1]! + 5]);
    expect(nums(one(s, 'VA3')).slice(2)).toEqual([0, 1]);
    expect(nums(one(s, 'CA2')).slice(2)).toEqual([150, 1]);
    expect(nums(one(s, 'CA2'))[0]! - (nums(one(before, 'CA2'))[0] ?? 0)).toBe(350);
    expect(nums(one(s, 'DA2')).slice(2)).toEqual([500, 3]);
    // PA1/PA2 come in pairs, by selection
    const pa1 = s.get('PA1')!;
    const pa2 = s.get('PA2')!;
    expect(pa1).toHaveLength(pa2.length);
    const bySelection = new Map(pa1.map((p, i) => [Number(p[0]), { price: Number(p[1]), pa2: nums(pa2[i]!) }]));
    expect(bySelection.get(1)).toMatchObject({ price: 150 });
    expect(bySelection.get(1)!.pa2.slice(2)).toEqual([3, 450]);
    expect(bySelection.get(2)!.pa2.slice(2)).toEqual([1, 200]);
    expect(bySelection.get(3)!.pa2.slice(2)).toEqual([0, 0]); // the free vend is in VA3, not a paid product vend
    // VA1's period total is the sum of the products'
    expect([...bySelection.values()].reduce((n, p) => n + p.pa2[3]!, 0)).toBe(650);
    expect(one(s, 'EA2')[0]).toBe('OFV');
    // cash and cashless make up the paid total, for the period and since initialisation
    expect(nums(one(s, 'CA2'))[2]! + nums(one(s, 'DA2'))[2]!).toBe(va1[2]);
    expect(nums(one(s, 'CA2'))[0]! + nums(one(s, 'DA2'))[0]!).toBe(va1[0]);

    // the reader's CRC check can fail: one changed digit is caught
    const tampered = Buffer.from(r.raw.toString('latin1').replace('VA1*', 'VA1*9'), 'latin1');
    expect(() => parseDex(tampered)).toThrow('G85 CRC mismatch');
  });

  it('another operator’s machine is 404; a period running backwards is 400; a malformed day is 400', async () => {
    expect((await dex({}, bob)).status).toBe(404);
    expect((await dex({ from: '2027-01-10', to: '2027-01-09' })).status).toBe(400);
    expect((await dex({ from: '2027-02-30' })).status).toBe(400);
    expect((await dex({})).status).toBe(200);
  });

  it('reconciles a board’s DEX file against the cloud’s vends of the period, per selection, with the over/short', async () => {
    t.clock.advance(Date.parse('2027-02-02T12:00:00Z') - t.clock.now());
    await sell('2027-02-01T08:00:00Z', 1, 2, 300, 'card');
    await sell('2027-02-01T09:00:00Z', 2, 1, 200, 'cash');
    await sell('2027-02-01T10:00:00Z', 3, 1, 0, 'remote'); // a free vend turns the spring too
    await sell('2027-01-31T10:00:00Z', 3, 4, 1000, 'card'); // before the board's reset: outside the period
    const tally = (count: number) => ({ count, cents: 0 });
    const lane = (selection: number, sinceReset: number) => ({
      selection,
      priceCents: 0,
      productId: '',
      sinceInit: tally(100 + sinceReset),
      inPeriod: tally(sinceReset),
    });
    const board: DexAudit = {
      sender: 'VMCSIM',
      machineNo: 'BOARD-77',
      model: 'SH',
      agentVersion: '2.4.1',
      at: t.clock.now(),
      paid: { sinceInit: tally(0), inPeriod: tally(0) },
      cash: { sinceInit: tally(0), inPeriod: tally(0) },
      cashless: { sinceInit: tally(0), inPeriod: tally(0) },
      free: { sinceInit: tally(0), inPeriod: tally(0) },
      products: [lane(1, 2), lane(2, 3), lane(3, 0), lane(4, 0)],
      failedVends: tally(7),
      failedInPeriod: tally(2),
    };
    const file = renderDex(board);
    const post = (json: unknown, headers: Record<string, string> = alice) =>
      call<{ data: DexReconciliation }>(t.url, 'POST', `/api/v1/machines/${ALICE_MACHINE_2}/dex`, { headers, json });
    const r = await post({ dex: file, from: '2027-02-01', to: '2027-02-02' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ boardId: 'BOARD-77', counters: 'since_reset', from: '2027-02-01', to: '2027-02-02', failedVends: 2 });
    expect(r.body.data.selections.filter((l) => l.selection <= 4)).toEqual([
      { selection: 1, board: 2, cloud: 2, difference: 0, status: 'match' },
      { selection: 2, board: 3, cloud: 1, difference: 2, status: 'over' },
      { selection: 3, board: 0, cloud: 1, difference: -1, status: 'short' },
      { selection: 4, board: 0, cloud: 0, difference: 0, status: 'match' },
    ]);
    expect(r.body.data.total).toEqual({ board: 5, cloud: 4, difference: 1, status: 'over' });
    // without from: the board's since-initialisation counters against every sale up to `to`
    const all = await post({ dex: file, to: '2027-02-02' });
    expect(all.body.data).toMatchObject({ counters: 'since_init', from: null });
    expect(all.body.data.selections.find((l) => l.selection === 2)?.board).toBe(103);
    // a file damaged in transit is refused, not reconciled
    expect((await post({ dex: file.replace('PA2*102', 'PA2*103'), from: '2027-02-01' })).status).toBe(400);
    expect((await post({ dex: 'hello', from: '2027-02-01' })).status).toBe(400);
    expect((await post({ dex: file }, bob)).status).toBe(404);
  });
});
