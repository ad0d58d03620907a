import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '../../http/errors.ts';

/** What a page's POST carried: its text fields (first value of each name) and at most one file. */
export interface FormData {
  fields: Record<string, string>;
  file: UploadedFile | null;
}

export interface UploadedFile {
  field: string;
  filename: string;
  /** What the browser declared; the bytes decide (the creatives domain sniffs them). */
  mimeType: string;
  bytes: Buffer;
  /** The file went past `maxFileBytes`: only that much was kept. */
  truncated: boolean;
}

export interface FormLimits {
  /** The largest file kept; past it the file is marked truncated and the rest is drained. */
  maxFileBytes: number;
  /** Text fields read (the rest are dropped). */
  maxFields?: number;
  /** Bytes of one text field. */
  maxFieldBytes?: number;
}

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\b/i;

/**
 * Reads a form POST — `application/x-www-form-urlencoded` or `multipart/form-data` — with busboy, bounded:
 * a few dozen fields of a few kB, one file of at most `maxFileBytes` (the rest is read and dropped, so the
 * browser receives the answer). Anything else is a 415; a malformed body is a 400.
 */
export function readForm(req: Request, limits: FormLimits): Promise<FormData> {
  const type = req.headers['content-type'] ?? '';
  if (!FORM_TYPES.test(type)) return Promise.reject(new AppError('bad_request', 'Send the form (multipart/form-data or application/x-www-form-urlencoded)'));
  // a body an app-level parser already read (urlencoded): its fields as they are
  if (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body)) {
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) if (typeof v === 'string') fields[k] = v;
    return Promise.resolve({ fields, file: null });
  }
  return new Promise<FormData>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fields: limits.maxFields ?? 40, fieldSize: limits.maxFieldBytes ?? 8192, fileSize: limits.maxFileBytes, parts: 64 },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new AppError('bad_request', 'The form body is malformed'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | null = null;
    let settled = false;
    const fail = (e: AppError) => {
      if (settled) return;
      settled = true;
      req.unpipe(parser);
      req.resume(); // drain: the browser gets its answer
      reject(e);
    };
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      let truncated = false;
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        truncated = true;
      });
      stream.on('end', () => {
        const bytes = Buffer.concat(chunks);
        // an empty file input (nothing chosen) is sent as a part with no name and no bytes
        if (bytes.length > 0 || info.filename) file = { field, filename: info.filename ?? '', mimeType: info.mimeType, bytes, truncated };
      });
    });
    parser.on('error', () => fail(new AppError('bad_request', 'The form body is malformed')));
    parser.on('close', () => {
      if (settled) return;
      settled = true;
      resolve({ fields, file });
    });
    req.on('aborted', () => fail(new AppError('bad_request', 'The upload was interrupted')));
    req.pipe(parser);
  });
}
