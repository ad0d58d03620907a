import { Sealer } from '../../crypto/secrets.ts';
import { BRIEF_KEYS, type BriefValues } from './brief.page.ts';

/**
 * The quote's own address (post/redirect/get): the brief POST answers 303 to `/advertise/quote/<link>`, so Back from
 * the checkout and a reload open the quote again instead of asking to resend the form. The link seals (AES-256-GCM
 * under a key derived from DATA_KEY) what the quote page is drawn from — the kiosk, the brief, the creative draft and
 * its chosen creative — so the buyer's name, e-mail and draft token are never readable in an address that is logged,
 * and nothing is stored for it. It lives QUOTE_LINK_TTL_MS; the price is computed again each time it is opened.
 */
export const QUOTE_LINK_TTL_MS = 2 * 3600_000;

export interface QuoteLink {
  machineNo: string;
  qrId: string;
  values: BriefValues;
  draftToken: string;
  creativeId: string;
}

export type OpenedQuoteLink =
  { ok: true; link: QuoteLink } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'expired'; machineNo: string; qrId: string };

interface Sealed {
  m: string;
  q: string;
  v: Partial<Record<keyof BriefValues, string>>;
  d: string;
  c: string;
  /** Expires at (epoch ms). */
  e: number;
}

export class QuoteLinks {
  private readonly sealer: Sealer;
  constructor(dataKey: string) {
    this.sealer = new Sealer(`quote-link:${dataKey}`);
  }

  seal(link: QuoteLink, now = Date.now()): string {
    const v: Sealed['v'] = {};
    for (const k of BRIEF_KEYS) if (link.values[k]) v[k] = link.values[k];
    const body: Sealed = { m: link.machineNo, q: link.qrId, v, d: link.draftToken, c: link.creativeId, e: now + QUOTE_LINK_TTL_MS };
    // `gcm$iv$tag$ct` → `iv.tag.ct`: every part is base64url, so the link is one path segment needing no escaping
    return this.sealer.seal(JSON.stringify(body)).split('$').slice(1).join('.');
  }

  open(link: string, now = Date.now()): OpenedQuoteLink {
    let body: Sealed;
    try {
      const parts = link.split('.');
      if (parts.length !== 3 || link.length > 8192) return { ok: false, reason: 'invalid' };
      body = JSON.parse(this.sealer.open(['gcm', ...parts].join('$'))) as Sealed;
    } catch {
      return { ok: false, reason: 'invalid' };
    }
    if (body.e <= now) return { ok: false, reason: 'expired', machineNo: body.m, qrId: body.q };
    const values = {} as BriefValues;
    for (const k of BRIEF_KEYS) values[k] = body.v[k] ?? '';
    return { ok: true, link: { machineNo: body.m, qrId: body.q, values, draftToken: body.d, creativeId: body.c } };
  }
}
