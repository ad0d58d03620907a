import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Metadata } from 'sharp';
import { createFile, MP4BoxBuffer, type Movie, type Track } from 'mp4box';
import { badRequest } from '../../http/errors.ts';
import { MAX_SAMPLES_PER_TRACK, mp4Layout, type Mp4Layout } from './mp4-structure.ts';

/**
 * What an upload is, measured from its bytes (spec 1 §8): the declared content type is never trusted.
 * Images are read by sharp (libvips) — header first, then a full decode, so a truncated or corrupt file
 * is refused; MP4 by mp4box.js after a bounded structural pre-flight (mp4-structure.ts).
 */
export interface MeasuredMedia {
  sha256: string;
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp' | 'video/mp4';
  kind: 'image' | 'video';
  ext: 'png' | 'jpg' | 'webp' | 'mp4';
  width: number;
  height: number;
  durationMs: number | null;
  bytes: number;
}

export type MediaType = MeasuredMedia['mediaType'];

const MB = 1024 * 1024;

/** The rules of spec 1 §8 for creatives, and the bounds that keep measuring them cheap. */
export const MEDIA_LIMITS = {
  imageMaxBytes: 10 * MB,
  videoMaxBytes: 60 * MB,
  /** Portrait, at least this wide and tall (half of 1080×1920). */
  minWidth: 540,
  minHeight: 960,
  /** The 15 s slot with its tolerance. */
  maxDurationMs: 16_000,
  /** Pixels an image or a video frame may declare (8K UHD is 33.2 MP): above this it is a bomb or not a screen asset. */
  maxPixels: 40_000_000,
} as const;

export const ACCEPTED_TYPES: readonly MediaType[] = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'];

const FORMATS: Record<MediaType, { kind: MeasuredMedia['kind']; ext: MeasuredMedia['ext']; name: string }> = {
  'image/png': { kind: 'image', ext: 'png', name: 'a PNG image' },
  'image/jpeg': { kind: 'image', ext: 'jpg', name: 'a JPEG image' },
  'image/webp': { kind: 'image', ext: 'webp', name: 'a WebP image' },
  'video/mp4': { kind: 'video', ext: 'mp4', name: 'an MP4 video' },
};

export const formatOf = (t: MediaType) => FORMATS[t];

/** The most a file of this type may weigh. */
export const maxBytesOf = (t: MediaType) => (FORMATS[t].kind === 'video' ? MEDIA_LIMITS.videoMaxBytes : MEDIA_LIMITS.imageMaxBytes);

/**
 * "10 MB", "12.3 MB", "900 kB": sizes as people read them (binary units, as the limits are), rounded UP
 * to the tenth, so a file one byte over "10 MB" reads "10.1 MB", never "10 MB".
 */
export function formatBytes(n: number): string {
  const up = (v: number) => Math.ceil(v * 10) / 10;
  if (n >= MB) return `${up(n / MB)} MB`;
  if (n >= 1024) return `${up(n / 1024)} kB`;
  return `${n} bytes`;
}

const ACCEPTED_NAMES = 'PNG, JPEG, WebP or MP4';

export const wrongType = (what: string) => badRequest(`wrong type: ${what}; accepted are ${ACCEPTED_NAMES}`);
const notAccepted = () => badRequest(`wrong type: the bytes are not a ${ACCEPTED_NAMES} file`);

/** What the bytes are by their signature: one of the accepted types, or a name for what they are instead. */
export function sniff(bytes: Buffer): { type: MediaType } | { other: string | null } {
  const at = (offset: number, ascii: string) => bytes.length >= offset + ascii.length && bytes.toString('latin1', offset, offset + ascii.length) === ascii;
  const hex = (offset: number, h: string) => bytes.length >= offset + h.length / 2 && bytes.subarray(offset, offset + h.length / 2).toString('hex') === h;
  if (hex(0, '89504e470d0a1a0a')) return { type: 'image/png' };
  if (hex(0, 'ffd8ff')) return { type: 'image/jpeg' };
  if (at(0, 'RIFF') && at(8, 'WEBP')) return { type: 'image/webp' };
  if (at(4, 'ftyp')) {
    const brand = bytes.length >= 12 ? bytes.toString('latin1', 8, 12) : '';
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return { other: 'a HEIF/HEIC image' };
    if (['avif', 'avis'].includes(brand)) return { other: 'an AVIF image' };
    if (brand === 'qt  ') return { other: 'a QuickTime movie' };
    if (['M4A ', 'M4B ', 'M4P '].includes(brand)) return { other: 'an MPEG-4 audio file' };
    if (brand === 'crx ') return { other: 'a camera raw file' };
    return { type: 'video/mp4' };
  }
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return { other: 'a GIF image' };
  if (at(0, 'II*\0') || at(0, 'MM\0*')) return { other: 'a TIFF image' };
  if (at(0, 'BM') && bytes.length >= 26) return { other: 'a BMP image' };
  if (hex(0, 'ff0a') || hex(0, '0000000c4a584c20')) return { other: 'a JPEG XL image' };
  if (at(0, '%PDF-')) return { other: 'a PDF document' };
  if (at(0, 'RIFF') && at(8, 'AVI ')) return { other: 'an AVI video' };
  if (at(0, 'RIFF') && at(8, 'WAVE')) return { other: 'a WAV audio file' };
  if (hex(0, '1a45dfa3')) return { other: 'a WebM/Matroska video' };
  if (at(0, 'OggS')) return { other: 'an Ogg file' };
  if (at(0, 'ID3') || (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) return { other: 'an MP3 audio file' };
  if (at(0, 'PK\x03\x04')) return { other: 'a ZIP archive' };
  if (hex(0, '1f8b')) return { other: 'a gzip archive' };
  const head = bytes
    .toString('latin1', 0, Math.min(bytes.length, 512))
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return { other: 'an SVG image' };
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return { other: 'an HTML document' };
  if (head.startsWith('<?xml')) return { other: 'an XML document' };
  return { other: null };
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Measures an upload: what it is, its size in pixels and (MP4) its duration, and whether it meets the
 * creative rules. Every refusal is a 400 whose message starts with the reason — `wrong type`, `too large`,
 * `landscape`, `too small`, `too long`, `undecodable` — and says what was measured.
 */
export async function probeMedia(bytes: Buffer): Promise<MeasuredMedia> {
  if (bytes.length === 0) throw badRequest('undecodable: the file is empty');
  const s = sniff(bytes);
  if (!('type' in s)) throw s.other ? wrongType(`the bytes are ${s.other}`) : notAccepted();
  const type = s.type;
  const max = maxBytesOf(type);
  if (bytes.length > max)
    throw badRequest(`too large: ${formatBytes(bytes.length)}, at most ${formatBytes(max)} for ${FORMATS[type].kind === 'video' ? 'videos' : 'images'}`);
  const { kind, ext } = FORMATS[type];
  const measured = kind === 'image' ? await measureImage(bytes, type) : measureVideo(bytes);
  checkShape(measured.width, measured.height);
  if (measured.durationMs !== null && measured.durationMs > MEDIA_LIMITS.maxDurationMs) {
    throw badRequest(`too long: ${seconds(measured.durationMs)}, at most ${seconds(MEDIA_LIMITS.maxDurationMs)} (one 15 s slot)`);
  }
  if (kind === 'image') await decodeFully(bytes, type);
  return {
    sha256: sha256(bytes),
    mediaType: type,
    kind,
    ext,
    width: measured.width,
    height: measured.height,
    durationMs: measured.durationMs,
    bytes: bytes.length,
  };
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;

/** Portrait and large enough; pixels under the bound. */
function checkShape(width: number, height: number): void {
  const size = `${width}×${height}`;
  if (width * height > MEDIA_LIMITS.maxPixels) throw badRequest(`too large: ${size} pixels, at most ${MEDIA_LIMITS.maxPixels / 1_000_000} megapixels`);
  if (width >= height) throw badRequest(`landscape: ${size} is not portrait (height must exceed width; a 9:16 screen shows 1080×1920)`);
  if (width < MEDIA_LIMITS.minWidth || height < MEDIA_LIMITS.minHeight) {
    throw badRequest(`too small: ${size}, at least ${MEDIA_LIMITS.minWidth}×${MEDIA_LIMITS.minHeight}`);
  }
}

const SHARP_FORMAT: Record<string, MediaType> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/** sharp with the bounds every read here uses: the pixel limit (a bomb's header is refused before any pixel), errors fatal. */
const open = (bytes: Buffer) => sharp(bytes, { limitInputPixels: MEDIA_LIMITS.maxPixels, failOn: 'error', sequentialRead: true });

/** Format and displayed size from the image header (EXIF orientation applied: a browser shows it rotated). */
async function measureImage(bytes: Buffer, type: MediaType): Promise<{ width: number; height: number; durationMs: null }> {
  let meta: Metadata;
  try {
    // the header alone: no pixel limit here, so a bomb is refused by its declared size below, with that size in the message
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(`undecodable: the ${FORMATS[type].name.replace(/^an? /, '')} header cannot be read`);
  }
  const format = meta.format ? SHARP_FORMAT[meta.format] : undefined;
  if (format !== type) throw badRequest(`undecodable: the file starts like ${FORMATS[type].name} but is not one`);
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw badRequest(`undecodable: the ${FORMATS[type].name.replace(/^an? /, '')} declares no size`);
  return { width, height, durationMs: null };
}

/** The chunk every PNG ends with. */
const PNG_IEND = Buffer.from('0000000049454e44ae426082', 'hex');

/**
 * Decodes every pixel (streamed, into statistics: no full-size buffer), so truncated or corrupt data is
 * refused. A PNG must also end with its IEND chunk: the decoder forgives a file cut just after its pixels.
 */
async function decodeFully(bytes: Buffer, type: MediaType): Promise<void> {
  if (type === 'image/png' && !bytes.subarray(-PNG_IEND.length).equals(PNG_IEND))
    throw badRequest('undecodable: the PNG image is truncated (it does not end with its IEND chunk)');
  try {
    await open(bytes).stats();
  } catch {
    throw badRequest(`undecodable: the ${FORMATS[type].name.replace(/^an? /, '')} is truncated or corrupt`);
  }
}

/** A track's display size: the track header's (presentation) size, else the coded size; rotated by its matrix. */
function displaySize(track: Track): { width: number; height: number } {
  let width = Math.round(track.track_width) || track.video?.width || 0;
  let height = Math.round(track.track_height) || track.video?.height || 0;
  const m = track.matrix as ArrayLike<number> | undefined;
  // [a b u; c d v; x y w]: a quarter turn has a = d = 0
  if (m && m.length >= 5 && m[0] === 0 && m[4] === 0 && m[1] !== 0 && m[3] !== 0) [width, height] = [height, width];
  return { width, height };
}

/** Parses the movie header with mp4box; its exceptions and error callbacks are an undecodable file, never a 500. */
function readMovie(layout: Mp4Layout): { movie: Movie; samples: (id: number) => { offset: number; size: number }[] } {
  const file = createFile();
  let movie: Movie | undefined;
  let failure: string | undefined;
  file.onReady = (info: Movie) => {
    movie = info;
  };
  file.onError = (_module: string, message: string) => {
    failure ??= message;
  };
  // the header alone: sample offsets stay absolute (from the chunk offset table), checked against the file below
  const head = Buffer.concat([layout.ftyp, layout.moov]);
  const ab = head.buffer.slice(head.byteOffset, head.byteOffset + head.length);
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(ab, 0));
    file.flush();
  } catch (err) {
    throw badRequest(`undecodable: the MP4's movie header cannot be read (${err instanceof Error ? err.message.slice(0, 120) : 'parse error'})`);
  }
  if (!movie || !movie.hasMoov) throw badRequest(`undecodable: the MP4's movie header cannot be read${failure ? ` (${failure.slice(0, 120)})` : ''}`);
  return {
    movie,
    samples: (id) => {
      const trak = file.getTrackById(id) as { samples?: { offset: number; size: number }[] } | undefined;
      return trak?.samples ?? [];
    },
  };
}

/** Size and duration of an MP4 from its movie header; its samples must lie inside its media data. */
function measureVideo(bytes: Buffer): { width: number; height: number; durationMs: number } {
  const layout = mp4Layout(bytes);
  const { movie, samples } = readMovie(layout);
  const video = movie.videoTracks[0];
  if (!video) throw wrongType('the bytes are an MP4 without a video track');
  const { width, height } = displaySize(video);
  if (!width || !height) throw badRequest('undecodable: the MP4 video track declares no size');

  // the longest the file says it plays: the movie header, each track's header, each track's samples
  const candidates: number[] = [];
  if (movie.timescale > 0) candidates.push((movie.duration / movie.timescale) * 1000);
  for (const t of movie.tracks) {
    if (t.timescale > 0) candidates.push((t.duration / t.timescale) * 1000, (t.samples_duration / t.timescale) * 1000);
  }
  const durationMs = Math.round(Math.max(0, ...candidates.filter(Number.isFinite)));
  if (durationMs <= 0) throw badRequest('undecodable: the MP4 declares no duration');

  for (const t of movie.tracks) {
    const list = samples(t.id);
    if (list.length > MAX_SAMPLES_PER_TRACK) throw badRequest('undecodable: the MP4 declares too many samples');
    if (t === video && list.length === 0) throw badRequest('undecodable: the MP4 video track has no samples');
    for (const sample of list) {
      const inside = layout.mdat.some((m) => sample.offset >= m.start && sample.offset + sample.size <= m.end);
      if (!inside) throw badRequest('undecodable: the MP4 is truncated or corrupt (its samples point outside its media data)');
    }
  }
  return { width, height, durationMs };
}
