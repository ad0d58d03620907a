/**
 * The release tree's trust store as OpenSSL's hashed directory (docs/decisions/agent.md "Footprint"): every CA
 * certificate in `<dir>/<hash>.<n>`, named by the hash OpenSSL looks a certificate's issuer up by, so that a TLS client
 * verifying a chain reads and parses the one root it needs instead of all of them at its first connection (Node's
 * bundled roots: 121 certificates, ≈ 0.65 MB of parsed X509 in the agent's heap).
 *
 * The hash is OpenSSL's X509_NAME_hash_ex (the "new style" name of `openssl rehash` and `openssl x509 -subject_hash`):
 * the first four bytes, read little-endian, of the SHA-1 of the name's canonical encoding — each attribute value that
 * is a string turned into UTF-8, trimmed, its runs of white space made one space, its ASCII letters lower-cased, and
 * encoded as a UTF8String; each RDN a DER SET of such entries; the SETs one after the other, with no SEQUENCE around
 * them (crypto/x509/x_name.c, x509_name_canon). Pure code: the build writes the files.
 */
import { X509Certificate, createHash } from 'node:crypto';

interface Tlv {
  tag: number;
  /** Where the whole element starts, where its contents start, where it ends. */
  start: number;
  body: number;
  end: number;
}

function readTlv(der: Buffer, at: number): Tlv {
  const tag = der[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Error(`DER: multi-byte tag at ${at}`);
  let len = der[at + 1]!;
  let body = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4) throw new Error(`DER: length of ${n} bytes at ${at}`);
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[body + i]!;
    body += n;
  }
  const end = body + len;
  if (end > der.length) throw new Error(`DER: element at ${at} runs past the end`);
  return { tag, start: at, body, end };
}

function childrenOf(der: Buffer, parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = parent.body; at < parent.end; at = out[out.length - 1]!.end) out.push(readTlv(der, at));
  return out;
}

function encode(tag: number, contents: Buffer): Buffer {
  const n = contents.length;
  const len = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : n < 0x10000 ? [0x82, n >> 8, n & 0xff] : [0x83, n >> 16, (n >> 8) & 0xff, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...len]), contents]);
}

/** The string types OpenSSL canonicalises (ASN1_MASK_CANON): UTF8, BMP, Universal, Printable, T61, IA5, Visible. */
const CANONICAL = new Set([0x0c, 0x1e, 0x1c, 0x13, 0x14, 0x16, 0x1a]);
const isSpace = (b: number): boolean => b === 0x20 || (b >= 0x09 && b <= 0x0d);

/** The characters of a string value, as ASN1_STRING_to_UTF8 reads them. */
function utf8Of(tag: number, raw: Buffer): Buffer {
  if (tag === 0x0c) return Buffer.from(raw.toString('utf8'), 'utf8');
  const width = tag === 0x1e ? 2 : tag === 0x1c ? 4 : 1;
  let s = '';
  for (let i = 0; i + width <= raw.length; i += width)
    s += String.fromCodePoint(width === 1 ? raw[i]! : width === 2 ? raw.readUInt16BE(i) : raw.readUInt32BE(i));
  return Buffer.from(s, 'utf8');
}

/** An attribute value in canonical form (asn1_string_canon): a string trimmed, spaces collapsed, ASCII lower-cased. */
function canonicalValue(der: Buffer, v: Tlv): Buffer {
  if (!CANONICAL.has(v.tag)) return der.subarray(v.start, v.end);
  const from = utf8Of(v.tag, der.subarray(v.body, v.end));
  let a = 0;
  let b = from.length;
  while (a < b && isSpace(from[a]!)) a++;
  while (b > a && isSpace(from[b - 1]!)) b--;
  const out: number[] = [];
  for (let i = a; i < b;) {
    const c = from[i]!;
    if (c > 0x7f) out.push(from[i++]!);
    else if (isSpace(c)) {
      out.push(0x20);
      while (i < b && isSpace(from[i]!)) i++;
    } else {
      out.push(c >= 0x41 && c <= 0x5a ? c + 0x20 : c);
      i++;
    }
  }
  return encode(0x0c, Buffer.from(out));
}

/** The subject of a DER certificate: tbsCertificate's sixth field, or fifth without the explicit version. */
function subjectOf(der: Buffer): Tlv {
  const tbs = childrenOf(der, readTlv(der, 0))[0]!;
  const fields = childrenOf(der, tbs);
  const subject = fields[fields[0]!.tag === 0xa0 ? 5 : 4];
  if (subject?.tag !== 0x30) throw new Error('not an X.509 certificate: no subject name where it belongs');
  return subject;
}

/** OpenSSL's subject hash of a certificate (PEM), as 8 hex digits: the name its file takes in a hashed directory. */
export function subjectHash(pem: string): string {
  const der = new X509Certificate(pem).raw;
  const sets = childrenOf(der, subjectOf(der)).map((rdn) => {
    // DER SET OF: the encoded entries in ascending order
    const entries = childrenOf(der, rdn).map((ava) => {
      const [oid, value] = childrenOf(der, ava);
      if (oid?.tag !== 0x06 || value === undefined) throw new Error('not an X.509 name: an attribute without type and value');
      return encode(0x30, Buffer.concat([der.subarray(oid.start, oid.end), canonicalValue(der, value)]));
    });
    return encode(0x31, Buffer.concat(entries.sort(Buffer.compare)));
  });
  const md = createHash('sha1').update(Buffer.concat(sets)).digest();
  return md.readUInt32LE(0).toString(16).padStart(8, '0');
}

/** The files of a hashed directory holding `pems`: `<hash>.0`, and `<hash>.1`… for subjects that share a hash. */
export function hashedCaFiles(pems: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const pem of pems) {
    const hash = subjectHash(pem);
    let n = 0;
    while (files.has(`${hash}.${n}`)) n++;
    files.set(`${hash}.${n}`, pem.endsWith('\n') ? pem : `${pem}\n`);
  }
  return files;
}
