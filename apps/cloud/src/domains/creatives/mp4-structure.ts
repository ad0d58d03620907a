import { badRequest } from '../../http/errors.ts';

/**
 * The bounded pre-flight of an MP4 (ISO/IEC 14496-12) before mp4box.js reads it. mp4box trusts the
 * counts a file declares: a 2 kB file whose `stsz` claims four billion samples of one constant size
 * makes it build a four-billion-entry array. So this walk checks, without allocating anything the file
 * chooses, that the boxes nest and fit (a truncated upload shows here: a box longer than what is left),
 * that there is one `moov` of sane size and media data (`mdat`), and that every sample table's count
 * fits inside its own box and under a per-track cap. Only then is the movie header handed to mp4box.
 */

/** A 16 s clip's movie header is a few tens of kB; past this the file is hostile or not a short clip. */
export const MAX_MOOV_BYTES = 2 * 1024 * 1024;
/** Samples of one track: 16 s at 240 fps is 3 840 video samples, AAC audio ~750; uncompressed PCM (one sample per audio sample) is refused. */
export const MAX_SAMPLES_PER_TRACK = 100_000;
/** Top-level boxes: a progressive file has a handful. */
const MAX_TOP_LEVEL_BOXES = 1_000;
/** Boxes inside the movie header, all levels together. */
const MAX_MOOV_BOXES = 10_000;
const MAX_DEPTH = 8;

/** Boxes whose payload is only boxes (walked); the rest are leaves, checked where listed in TABLES. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'dinf', 'mvex']);

export interface Mp4Layout {
  /** The file type box, as is. */
  ftyp: Buffer;
  /** The movie header box, as is. */
  moov: Buffer;
  /** Byte ranges of media data (payloads of `mdat` boxes), `[start, end)` in the file. */
  mdat: { start: number; end: number }[];
}

interface BoxHeader {
  type: string;
  start: number;
  /** Where the payload starts (after size, type and a 64-bit size if any). */
  payload: number;
  end: number;
}

const undecodable = (why: string) => badRequest(`undecodable: ${why}`);

/** The box at `pos`, which must end by `limit`; `what` names the container for messages. */
function readBox(bytes: Buffer, pos: number, limit: number, what: string): BoxHeader {
  if (limit - pos < 8) throw undecodable(`the MP4 is truncated (${what} ends inside a box header)`);
  const size32 = bytes.readUInt32BE(pos);
  const type = bytes.toString('latin1', pos + 4, pos + 8);
  if (!/^[\x20-\x7e]{4}$/.test(type)) throw undecodable(`the MP4 is corrupt (a box in ${what} has no readable type)`);
  let size = size32;
  let header = 8;
  if (size32 === 1) {
    if (limit - pos < 16) throw undecodable(`the MP4 is truncated (box '${type}' ends inside its header)`);
    const big = bytes.readBigUInt64BE(pos + 8);
    size = big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
    header = 16;
  } else if (size32 === 0) {
    size = limit - pos; // "to the end of the file"
  }
  if (size < header) throw undecodable(`the MP4 is corrupt (box '${type}' declares ${size} bytes)`);
  if (size > limit - pos) {
    throw undecodable(`the MP4 is truncated (box '${type}' in ${what} declares ${size} bytes, ${limit - pos} remain)`);
  }
  return { type, start: pos, payload: pos + header, end: pos + size };
}

/** The structure of an MP4 that starts with `ftyp`; a 400 naming the fault otherwise. */
export function mp4Layout(bytes: Buffer): Mp4Layout {
  const top: BoxHeader[] = [];
  for (let pos = 0; pos < bytes.length;) {
    const b = readBox(bytes, pos, bytes.length, 'the file');
    top.push(b);
    if (top.length > MAX_TOP_LEVEL_BOXES) throw undecodable(`the MP4 has more than ${MAX_TOP_LEVEL_BOXES} top-level boxes`);
    pos = b.end;
  }
  const ftyp = top[0];
  if (!ftyp || ftyp.type !== 'ftyp') throw undecodable('the MP4 does not start with a file type box');
  if (top.some((b) => b.type === 'moof')) throw fragmented();
  const moovs = top.filter((b) => b.type === 'moov');
  if (moovs.length === 0) throw undecodable('the MP4 has no movie header (moov box): it is truncated or was never finished');
  if (moovs.length > 1) throw undecodable('the MP4 has more than one movie header (moov box)');
  const moov = moovs[0]!;
  if (moov.end - moov.start > MAX_MOOV_BYTES) {
    throw undecodable(`the MP4's movie header is ${moov.end - moov.start} bytes, more than the ${MAX_MOOV_BYTES} a 16 s clip could need`);
  }
  const mdat = top.filter((b) => b.type === 'mdat').map((b) => ({ start: b.payload, end: b.end }));
  if (mdat.length === 0) throw undecodable('the MP4 has no media data (mdat box)');

  let boxes = 0;
  const walk = (parent: BoxHeader, from: number, depth: number): void => {
    for (let pos = from; pos < parent.end;) {
      const b = readBox(bytes, pos, parent.end, `'${parent.type}'`);
      if (++boxes > MAX_MOOV_BOXES) throw undecodable(`the MP4's movie header holds more than ${MAX_MOOV_BOXES} boxes`);
      if (b.type === 'mvex') throw fragmented();
      if (CONTAINERS.has(b.type)) {
        if (depth >= MAX_DEPTH) throw undecodable('the MP4 nests its boxes too deep');
        walk(b, b.payload, depth + 1);
      } else {
        checkTable(bytes, b);
      }
      pos = b.end;
    }
  };
  walk(moov, moov.payload, 1);

  return { ftyp: bytes.subarray(ftyp.start, ftyp.end), moov: bytes.subarray(moov.start, moov.end), mdat };
}

const fragmented = () =>
  badRequest('undecodable: fragmented MP4 (moof/mvex) is not accepted; export a regular MP4 (moov with the sample tables, "fast start" or not)');

/**
 * Fixed part (after version and flags) and bytes per entry of the sample tables, and where the count is;
 * `entry` 0 means "no table follows" (checked by the cap alone).
 */
function checkTable(bytes: Buffer, b: BoxHeader): void {
  const len = b.end - b.payload;
  const u32 = (at: number) => (len >= at + 4 ? bytes.readUInt32BE(b.payload + at) : -1);
  const version = len >= 1 ? bytes[b.payload]! : 0;
  const fits = (countAt: number, perEntry: number, what: string) => {
    const count = u32(countAt);
    if (count < 0) throw undecodable(`the MP4's '${b.type}' box is cut short`);
    if (countAt + 4 + count * perEntry > len) {
      throw undecodable(`the MP4's '${b.type}' box declares ${count} ${what}, more than it holds`);
    }
    return count;
  };
  switch (b.type) {
    case 'stts':
    case 'ctts':
      fits(4, 8, 'entries');
      return;
    case 'stsc':
      fits(4, 12, 'entries');
      return;
    case 'stco':
    case 'stss':
    case 'stps':
      fits(4, 4, 'entries');
      return;
    case 'co64':
      fits(4, 8, 'entries');
      return;
    case 'elst':
      fits(4, version === 1 ? 20 : 12, 'edits');
      return;
    case 'sbgp':
      fits(version === 1 ? 12 : 8, 8, 'entries');
      return;
    case 'stsd':
    case 'dref':
      fits(4, 8, 'entries');
      return;
    case 'sgpd': {
      // entries may be zero bytes long (version 1, default length 0): one byte each is the bound that keeps the count honest
      const at = version === 1 ? 12 : version >= 2 ? 12 : 8;
      fits(at, 1, 'entries');
      return;
    }
    case 'stsz': {
      const sampleSize = u32(4);
      const count = fits(8, sampleSize === 0 ? 4 : 0, 'samples');
      if (count > MAX_SAMPLES_PER_TRACK) throw tooManySamples(count);
      return;
    }
    case 'stz2': {
      const fieldBits = len >= 8 ? bytes[b.payload + 7]! : 0;
      const count = u32(8);
      if (count < 0) throw undecodable("the MP4's 'stz2' box is cut short");
      if (count > MAX_SAMPLES_PER_TRACK) throw tooManySamples(count);
      if (![4, 8, 16].includes(fieldBits)) throw undecodable("the MP4's 'stz2' box has an invalid field size");
      if (12 + Math.ceil((count * fieldBits) / 8) > len) throw undecodable(`the MP4's 'stz2' box declares ${count} samples, more than it holds`);
      return;
    }
    default:
      return;
  }
}

const tooManySamples = (count: number) =>
  undecodable(`a track of the MP4 declares ${count} samples, more than the ${MAX_SAMPLES_PER_TRACK} a 16 s clip could hold`);
