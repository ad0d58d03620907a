/**
 * EVA-DTS 6.1 DEX/UCS audit files (docs/dex.md maps every field): `*`-separated data elements, one
 * segment per CR LF line, a transmission set `ST`…`SE` inside `DXS`…`DXE`, `G85` the CRC-16 of what
 * precedes it. Shared by the cloud's export and import and the board simulator's audit. Pure: no I/O,
 * no clock. Text is latin1: one byte per character.
 */

/** Money of one tally: how many vends and their value in cents. */
export interface DexTally {
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
  sinceInit: DexTally;
  inPeriod: DexTally;
}

export interface DexAudit {
  /** DXS01: who sends the file (`VEND` for the cloud, the board's id for a board). */
  sender?: string;
  machineNo: string;
  model: string;
  agentVersion: string;
  /** The period's end, epoch ms, written in ID5 (the audit's date and time, UTC). */
  at: number;
  paid: { sinceInit: DexTally; inPeriod: DexTally };
  cash: { sinceInit: DexTally; inPeriod: DexTally };
  cashless: { sinceInit: DexTally; inPeriod: DexTally };
  free: { sinceInit: DexTally; inPeriod: DexTally };
  products: DexProduct[];
  /** Failed vends reported by the board: since init and in the period. */
  failedVends: DexTally;
  failedInPeriod: DexTally;
}

const CRLF = '\r\n';

function latin1(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** CRC-16/ARC (polynomial 0x8005 reflected, initial value 0), the CRC EVA-DTS puts in G85. */
export function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b;
    for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc & 0xffff;
}

function crcHex(text: string): string {
  return crc16(latin1(text)).toString(16).toUpperCase().padStart(4, '0');
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
  const head = segment('DXS', a.sender ?? 'VEND', 'VA', 'V0/6', 1);
  const beforeCrc = [head, ...body].join(CRLF) + CRLF;
  const crc = crcHex(beforeCrc);
  const tail = [segment('G85', crc), segment('SE', body.length + 2, '0001'), segment('DXE', 1, 1)];
  return beforeCrc + tail.join(CRLF) + CRLF;
}

export interface DexSegment {
  id: string;
  elements: string[];
}

export type DexParse = { ok: true; segments: DexSegment[] } | { ok: false; error: string };

/**
 * Reads a DEX file: CR LF (or LF) lines, checks the G85 CRC over the bytes before it (when present, as
 * boards may omit it) and the SE segment count. Never throws.
 */
export function parseDex(text: string): DexParse {
  const crlf = text.includes('\r\n');
  const nl = crlf ? '\r\n' : '\n';
  const lines = text.split(nl).filter((l, i, all) => l !== '' || i < all.length - 1);
  if (lines.length === 0 || !lines[0]!.startsWith('DXS*')) return { ok: false, error: 'a DEX file starts with a DXS segment' };
  const segments = lines.map((l) => {
    const [id, ...elements] = l.split('*');
    return { id: id!, elements };
  });
  const g85 = segments.findIndex((s) => s.id === 'G85');
  if (g85 >= 0) {
    // over the bytes as sent; a file whose CRs were stripped on the way still checks against CR LF
    const given = (segments[g85]!.elements[0] ?? '').toUpperCase();
    const before = lines.slice(0, g85);
    if (given !== crcHex(before.join(nl) + nl) && given !== crcHex(before.join('\r\n') + '\r\n'))
      return { ok: false, error: 'G85 CRC does not match the file' };
  }
  const st = segments.findIndex((s) => s.id === 'ST');
  const se = segments.findIndex((s) => s.id === 'SE');
  if (st < 0 || se < st) return { ok: false, error: 'no ST…SE transaction set' };
  if (Number(segments[se]!.elements[0]) !== se - st + 1)
    return { ok: false, error: `SE counts ${segments[se]!.elements[0]} segments, the set has ${se - st + 1}` };
  return { ok: true, segments };
}
