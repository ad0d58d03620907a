import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Test media built in the test, not committed: images drawn with sharp, MP4 files written box by box
 * (ISO/IEC 14496-12) so a test can state exactly what a file declares — a 2 s clip, a 20 s clip, a
 * rotated phone video, a tiny file that claims a day of video or a box larger than itself.
 */

/** A solid-colour image of the given size and format, fully valid. */
export function image(format: 'png' | 'jpeg' | 'webp', width: number, height: number, colour = '#3366cc'): Promise<Buffer> {
  const s = sharp({ create: { width, height, channels: 3, background: colour } });
  return (format === 'png' ? s.png() : format === 'jpeg' ? s.jpeg({ quality: 70 }) : s.webp({ quality: 70 })).toBuffer();
}

/** A PNG with noise, so its compressed data is long and any cut lands inside the pixels. */
export function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

const u8 = (n: number) => Buffer.from([n & 0xff]);
const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const zeros = (n: number) => Buffer.alloc(n);

/** One box: 32-bit size, fourcc, payload. */
export function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'latin1'), body]);
}

/** A full box: a box whose payload starts with version and flags. */
function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(type, u8(version), u8(flags >> 16), u16(flags & 0xffff), ...payload);
}

/** The 3×3 display matrix of tkhd/mvhd (16.16 and 2.30 fixed point) for a clockwise rotation. */
function matrix(rotation: 0 | 90 | 180 | 270): Buffer {
  const one = 0x00010000;
  const [a, b, c, d] = rotation === 90 ? [0, one, -one, 0] : rotation === 180 ? [-one, 0, 0, -one] : rotation === 270 ? [0, -one, one, 0] : [one, 0, 0, one];
  return Buffer.concat([u32(a), u32(b), u32(0), u32(c), u32(d), u32(0), u32(0), u32(0), u32(0x40000000)]);
}

export interface Mp4Options {
  /** Coded width and height of the video (the sample entry's and, unrotated, the track's). */
  width: number;
  height: number;
  /** The duration every header declares, in ms. */
  durationMs: number;
  /** How many samples the track holds (default: 10 per second, at least 1). */
  samples?: number;
  /** Display rotation in the track header (phones store portrait video as landscape + 90°). */
  rotation?: 0 | 90 | 180 | 270;
  /** Major brand (default `isom`); `qt  ` makes a QuickTime movie. */
  brand?: string;
  /** Put the moov box after the media data (as many encoders do without "fast start"). */
  moovLast?: boolean;
  /** Add an mvex box: a fragmented file. */
  fragmented?: boolean;
  /** An audio track instead of the video one (an M4A-like file). */
  audioOnly?: boolean;
}

/**
 * A structurally valid MP4 with one H.264 video track (sample bytes are filler: nothing here decodes
 * pictures, the probe reads the container). Timescale 1000 everywhere, so durations are exact.
 */
export function mp4(o: Mp4Options): Buffer {
  const count = o.samples ?? Math.max(1, Math.round(o.durationMs / 100));
  const sampleSize = 24;
  const duration = o.durationMs;
  const delta = Math.max(1, Math.floor(duration / count));
  const ftyp = box('ftyp', Buffer.from((o.brand ?? 'isom').padEnd(4).slice(0, 4), 'latin1'), u32(0x200), Buffer.from('isomiso2avc1mp41', 'latin1'));
  const mdatPayload = Buffer.alloc(count * sampleSize, 0x42);

  const moovWith = (chunkOffset: number) => {
    const mvhd = fullBox('mvhd', 0, 0, u32(0), u32(0), u32(1000), u32(duration), u32(0x00010000), u16(0x0100), zeros(10), matrix(0), zeros(24), u32(2));
    const w = o.audioOnly ? 0 : o.width;
    const h = o.audioOnly ? 0 : o.height;
    const tkhd = fullBox(
      'tkhd',
      0,
      3,
      u32(0),
      u32(0),
      u32(1),
      u32(0),
      u32(duration),
      zeros(8),
      u16(0),
      u16(0),
      u16(o.audioOnly ? 0x0100 : 0),
      u16(0),
      matrix(o.rotation ?? 0),
      u32(w * 65536),
      u32(h * 65536),
    );
    const mdhd = fullBox('mdhd', 0, 0, u32(0), u32(0), u32(1000), u32(duration), u16(0x55c4), u16(0));
    const hdlr = fullBox('hdlr', 0, 0, u32(0), Buffer.from(o.audioOnly ? 'soun' : 'vide', 'latin1'), zeros(12), Buffer.from('Handler\0', 'latin1'));
    const mediaHeader = o.audioOnly ? fullBox('smhd', 0, 0, u16(0), u16(0)) : fullBox('vmhd', 0, 1, u16(0), zeros(6));
    const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
    const sps = Buffer.from([0x67, 0x42, 0xc0, 0x1e, 0xda, 0x02, 0x80, 0xbf, 0xe5, 0x84, 0x00]);
    const pps = Buffer.from([0x68, 0xce, 0x3c, 0x80]);
    const avcC = box('avcC', u8(1), u8(0x42), u8(0xc0), u8(0x1e), u8(0xff), u8(0xe1), u16(sps.length), sps, u8(1), u16(pps.length), pps);
    const entry = o.audioOnly
      ? box('mp4a', zeros(6), u16(1), zeros(8), u16(2), u16(16), u16(0), u16(0), u32(44100 * 65536))
      : box(
          'avc1',
          zeros(6),
          u16(1),
          u16(0),
          u16(0),
          zeros(12),
          u16(o.width),
          u16(o.height),
          u32(0x00480000),
          u32(0x00480000),
          u32(0),
          u16(1),
          zeros(32),
          u16(0x0018),
          u16(0xffff),
          avcC,
        );
    const stbl = box(
      'stbl',
      fullBox('stsd', 0, 0, u32(1), entry),
      fullBox('stts', 0, 0, u32(1), u32(count), u32(delta)),
      fullBox('stsc', 0, 0, u32(1), u32(1), u32(count), u32(1)),
      fullBox('stsz', 0, 0, u32(sampleSize), u32(count)),
      fullBox('stco', 0, 0, u32(1), u32(chunkOffset)),
    );
    const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', mediaHeader, dinf, stbl)));
    const mvex = o.fragmented ? [box('mvex', fullBox('trex', 0, 0, u32(1), u32(1), u32(0), u32(0), u32(0)))] : [];
    return box('moov', mvhd, trak, ...mvex);
  };

  const moovSize = moovWith(0).length;
  if (o.moovLast) {
    const mdat = box('mdat', mdatPayload);
    return Buffer.concat([ftyp, mdat, moovWith(ftyp.length + 8)]);
  }
  return Buffer.concat([ftyp, moovWith(ftyp.length + moovSize + 8), box('mdat', mdatPayload)]);
}

/** A copy with the 32-bit big-endian field `offset` bytes after the first `fourcc` set to `to`: a header that lies. */
export function patchAfter(file: Buffer, fourcc: string, offset: number, to: number): Buffer {
  const copy = Buffer.from(file);
  const at = copy.indexOf(Buffer.from(fourcc, 'latin1'));
  if (at < 0) throw new Error(`no ${fourcc} box`);
  copy.writeUInt32BE(to >>> 0, at + 4 + offset);
  return copy;
}

/**
 * A tiny PNG whose header declares `width`×`height` (a decompression bomb's header): a valid IHDR with its
 * CRC, one small IDAT and IEND.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    return Buffer.concat([u32(data.length), td, u32(crc32(td))]);
  };
  const ihdr = Buffer.concat([u32(width), u32(height), u8(8), u8(2), u8(0), u8(0), u8(0)]);
  // a zlib stream of zeros: inflates to a thousand times what it weighs
  const idat = deflateSync(Buffer.alloc(1024 * 1024), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}
