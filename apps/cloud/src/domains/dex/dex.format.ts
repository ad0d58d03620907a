/**
 * EVA-DTS 6.1 DEX/UCS audit files (docs/dex.md maps every field): `*`-separated data elements, one
 * segment per CR LF line, a transmission set `ST`…`SE` inside `DXS`…`DXE`, `G85` the CRC-16 of what
 * precedes it. Pure: no I/O, no clock.
 */

/** Money of one tally: how many vends and their value in cents. */
export interface Tally {
  count: number;
  cents: number;
}

export interface DexProduct {
  /** The selection (aisle number). */
  selection: number;
  priceCents: number;
  /** The product identifier (SKU); '' when the aisle has none. */
  productId: string;
  /** Paid vends since the machine's first sale up to the period's end, and within the period. */
  sinceInit: Tally;
  inPeriod: Tally;
}

export interface DexAudit {
  machineNo: string;
  model: string;
  agentVersion: string;
  /** The period's end, epoch ms, written in ID5 (the audit's date and time, UTC). */
  at: number;
  paid: { sinceInit: Tally; inPeriod: Tally };
  cash: { sinceInit: Tally; inPeriod: Tally };
  cashless: { sinceInit: Tally; inPeriod: Tally };
  free: { sinceInit: Tally; inPeriod: Tally };
  products: DexProduct[];
  /** Failed vends reported by the board: since init and in the period. */
  failedVends: Tally;
  failedInPeriod: Tally;
}

const CRLF = '\r\n';

/** CRC-16/ARC (polynomial 0x8005 reflected, initial value 0), the CRC EVA-DTS puts in G85. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc & 0xffff;
}

/** A data element may not carry the separators. */
function element(v: string | number): string {
  return String(v).replace(/[*\r\n]/g, ' ');
}

function segment(id: string, ...elements: (string | number)[]): string {
  return [id, ...elements.map(element)].join('*');
}

function ymd(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}

function hm(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16).replace(':', '');
}

/** Renders the audit as a DEX file: CR LF lines, G85 over every byte before it, SE counting ST to SE. */
export function renderDex(a: DexAudit): string {
  const body: string[] = [
    segment('ST', '001', '0001'),
    segment('ID1', a.machineNo, a.model, a.agentVersion, '', a.machineNo, ''),
    segment('ID4', 2, 840),
    segment('ID5', ymd(a.at), hm(a.at)),
    segment('VA1', a.paid.sinceInit.cents, a.paid.sinceInit.count, a.paid.inPeriod.cents, a.paid.inPeriod.count),
    segment('VA3', a.free.sinceInit.cents, a.free.sinceInit.count, a.free.inPeriod.cents, a.free.inPeriod.count),
  ];
  if (a.cash.sinceInit.count > 0) body.push(segment('CA2', a.cash.sinceInit.cents, a.cash.sinceInit.count, a.cash.inPeriod.cents, a.cash.inPeriod.count));
  if (a.cashless.sinceInit.count > 0)
    body.push(segment('DA2', a.cashless.sinceInit.cents, a.cashless.sinceInit.count, a.cashless.inPeriod.cents, a.cashless.inPeriod.count));
  for (const p of a.products) {
    body.push(segment('PA1', p.selection, p.priceCents, p.productId));
    body.push(segment('PA2', p.sinceInit.count, p.sinceInit.cents, p.inPeriod.count, p.inPeriod.cents));
  }
  body.push(segment('EA2', 'OFV', a.failedVends.count, a.failedInPeriod.count, ''));
  const head = segment('DXS', 'VEND', 'VA', 'V0/6', 1);
  const beforeCrc = [head, ...body].join(CRLF) + CRLF;
  const crc = crc16(Buffer.from(beforeCrc, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
  const tail = [segment('G85', crc), segment('SE', body.length + 2, '0001'), segment('DXE', 1, 1)];
  return beforeCrc + tail.join(CRLF) + CRLF;
}
