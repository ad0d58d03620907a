import { ManualClock, type Clock } from '@vend/protocol';
import { SANDBOX_CREDENTIALS } from '../../db/seed.ts';
import { totpAt } from '../auth/auth.testkit.ts';

/** A page response as a test reads it. */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points (relative to the server), if it is one. */
  location: string | null;
}

/**
 * A browser without a browser: keeps the cookies the pages set, sends forms urlencoded or multipart,
 * follows no redirect on its own, and finds the CSRF token of the last page it read.
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  last: PageResponse | null = null;

  constructor(readonly base: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(method: string, path: string, body?: URLSearchParams | FormData | string, headers: Record<string, string> = {}): Promise<PageResponse> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      redirect: 'manual',
      headers: { ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}), ...headers },
      ...(body ? { body } : {}),
    });
    this.keep(res);
    const location = res.headers.get('location');
    this.last = { status: res.status, headers: res.headers, text: await res.text(), location };
    return this.last;
  }

  get(path: string): Promise<PageResponse> {
    return this.request('GET', path);
  }

  /** A 303's page, as a browser opens it (post/redirect/get); any other answer as it is. */
  async follow(r: PageResponse): Promise<PageResponse> {
    return r.status === 303 && r.location ? this.get(r.location) : r;
  }

  /** The `_csrf` of the last page read. */
  csrf(): string {
    const m = /name="_csrf"\s+value="([^"]+)"/.exec(this.last?.text ?? '');
    if (!m) throw new Error('no CSRF token on the last page');
    return m[1]!;
  }

  /** POSTs urlencoded fields, with the last page's CSRF token unless `_csrf` is given. */
  post(path: string, fields: Record<string, string>): Promise<PageResponse> {
    const body = new URLSearchParams({ _csrf: '_csrf' in fields ? fields['_csrf']! : this.csrf(), ...fields });
    return this.request('POST', path, body);
  }

  /** POSTs multipart/form-data, with the last page's CSRF token unless `_csrf` is given. */
  postMultipart(path: string, fields: Record<string, string>, file?: { field: string; name: string; type: string; bytes: Buffer }): Promise<PageResponse> {
    const body = new FormData();
    body.set('_csrf', '_csrf' in fields ? fields['_csrf']! : this.csrf());
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    if (file) body.set(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    return this.request('POST', path, body);
  }
}

/** Alice's TOTP code at the clock's instant. */
export function aliceCode(clock: Clock, offsetSteps = 0): string {
  return totpAt(SANDBOX_CREDENTIALS.alice.totpSecret, clock.now() + offsetSteps * 30_000);
}

/** Signs alice in through the pages (password, then TOTP); the client then holds her session cookie. */
export async function signInAlice(c: PageClient, clock: Clock): Promise<void> {
  await c.get('/advertise/signin');
  const a = await c.post('/advertise/signin', {
    email: SANDBOX_CREDENTIALS.alice.email,
    password: SANDBOX_CREDENTIALS.alice.password,
    next: '/advertise/approvals',
  });
  if (a.status !== 303) throw new Error(`password step answered ${a.status}`);
  await c.get(a.location!);
  if (clock instanceof ManualClock) clock.advance(30_000); // each TOTP step is accepted once
  const b = await c.post('/advertise/signin/code', { code: aliceCode(clock), next: '/advertise/approvals' });
  if (b.status !== 303) throw new Error(`code step answered ${b.status}: ${b.text.slice(0, 300)}`);
}

const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** What a browser would send from the (first) form posting to `action`: its hidden inputs and checked radios. */
export function formFields(page: string, action: string): Record<string, string> {
  const start = page.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action}`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const out: Record<string, string> = {};
  for (const m of form.matchAll(/<input\s[^>]*>/g)) {
    const tag = m[0];
    const type = /\stype="([^"]+)"/.exec(tag)?.[1];
    const name = /\sname="([^"]+)"/.exec(tag)?.[1];
    const value = /\svalue="([^"]*)"/.exec(tag)?.[1];
    if (!name || value === undefined || (type !== 'hidden' && type !== 'radio')) continue;
    if (type === 'radio' && !/\schecked\b/.test(tag)) continue;
    if (!(name in out)) out[name] = decode(value);
  }
  return out;
}

/** A brief for alice's station kiosk (a local business, this kiosk, one slot, one month, a studio design), as the form sends it. */
export const STATION_BRIEF = {
  sponsorType: 'local-business',
  sponsorName: 'Joe’s Coffee',
  buyerName: 'Joe Buyer',
  buyerEmail: 'joe@example.test',
  buyerPhone: '',
  reach: 'machine',
  zip: '',
  zips: '',
  city: '',
  slots: '1',
  months: '1',
  flightStart: '',
  creativeMode: 'studio',
  studioBrief: 'Fresh coffee two blocks away',
};

/** Buys through the pages (brief → quote → pay → test checkout) and answers the status page's path. */
export async function buyThroughPages(base: string, machineNo: string, qrId: string, brief: Partial<typeof STATION_BRIEF> = {}): Promise<string> {
  const c = new PageClient(base);
  await c.get(`/advertise?machine=${machineNo}&qr=${qrId}`);
  const quote = await c.follow(await c.postMultipart('/advertise/brief', { machine: machineNo, qr: qrId, ...STATION_BRIEF, ...brief }));
  if (quote.status !== 200) throw new Error(`brief answered ${quote.status}`);
  const pay = await c.post('/advertise/pay', formFields(quote.text, '/advertise/pay'));
  if (pay.status !== 303) throw new Error(`pay answered ${pay.status}`);
  await c.get(pay.location!);
  const paid = await c.post(pay.location!, {});
  if (paid.status !== 303) throw new Error(`checkout answered ${paid.status}`);
  return paid.location!;
}
