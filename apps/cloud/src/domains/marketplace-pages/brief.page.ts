import { html, layout, type SafeHtml } from '../../http/html.ts';
import { csrfInput, errorSummary, field, radioGroup, select, type FieldErrors } from './form-ui.ts';
import { usd } from './page-common.ts';

/** The brief as the form holds it: every value as typed, kept across a re-render. */
export interface BriefValues {
  sponsorType: string;
  sponsorName: string;
  buyerName: string;
  buyerEmail: string;
  buyerPhone: string;
  reach: string;
  zip: string;
  zips: string;
  city: string;
  slots: string;
  months: string;
  flightStart: string;
  creativeMode: string;
  studioBrief: string;
}

export const BRIEF_KEYS: readonly (keyof BriefValues)[] = [
  'sponsorType',
  'sponsorName',
  'buyerName',
  'buyerEmail',
  'buyerPhone',
  'reach',
  'zip',
  'zips',
  'city',
  'slots',
  'months',
  'flightStart',
  'creativeMode',
  'studioBrief',
];

/** The form's fields, trimmed and bounded (what a page handler reads from a POST). */
export function briefValuesOf(fields: Record<string, string>): BriefValues {
  const v = {} as BriefValues;
  for (const k of BRIEF_KEYS) v[k] = (fields[k] ?? '').slice(0, k === 'studioBrief' ? 2000 : 300).trim();
  return v;
}

/** Hidden inputs carrying the brief from one page to the next (never an amount: the server recomputes). */
export function briefHidden(v: BriefValues, except: readonly (keyof BriefValues)[] = []): SafeHtml {
  return html`${BRIEF_KEYS.filter((k) => !except.includes(k)).map((k) => html`<input type="hidden" name="${k}" value="${v[k]}" />`)}`;
}

/** The machine the QR belongs to, as the brief page introduces it. */
export interface AdvertiseMachine {
  machineNo: string;
  qrId: string;
  /** "Springfield, 62701": where it stands, when its screen block says. */
  place: string | null;
}

/** What the brief page states about prices and limits (from the catalog in force). */
export interface BriefPrices {
  rates: { 'local-business': number; 'brand-coop': number };
  monthsMin: number;
  monthsMax: number;
  generationsPerPurchase: number;
}

/** The creative already held for this brief (an upload or a generation), when the form comes back. */
export interface HeldCreative {
  draftToken: string;
  creativeId: string;
  url: string;
  kind: 'image' | 'video';
  label: string;
}

export interface BriefPageInput {
  machine: AdvertiseMachine;
  prices: BriefPrices;
  values: BriefValues;
  errors: FieldErrors;
  csrf: string;
  generationsLeft: number;
  held: HeldCreative | null;
  /** A message above the form (the server's refusal that belongs to no single field). */
  notice?: string | null;
}

/** Where each error of the summary leads (fields whose control id differs from their name). */
const TARGETS: Record<string, string> = { creativeFile: 'f-creativeFile', form: 'f-sponsorType' };

/**
 * The guided brief the machine's advertise QR leads to: a plain form (works without JavaScript; the
 * server validates and shows errors next to their fields and summarised at the top), posted as
 * multipart/form-data because it may carry the creative file.
 */
export function briefPage(p: BriefPageInput): SafeHtml {
  const { values: v, errors: e, machine: m, prices } = p;
  const hasErrors = Object.keys(e).length > 0;
  const monthOptions = [];
  for (let i = prices.monthsMin; i <= prices.monthsMax; i++) monthOptions.push({ value: String(i), label: `${i} month${i === 1 ? '' : 's'} (${i * 30} days)` });
  return layout({
    title: `${hasErrors ? 'Error: ' : ''}Advertise on this screen — ${m.machineNo}`,
    body: html`<h1>Advertise on this screen</h1>
      <p>
        Kiosk <b>${m.machineNo}</b>${m.place ? html`, ${m.place}` : ''}. Tell us about your ad; you see the price before you pay, and the kiosk's operator
        approves it before it runs.
      </p>
      <p class="small"><a href="/advertise/poster/${encodeURIComponent(m.machineNo)}.png">This kiosk's “Advertise on this screen” poster</a></p>
      ${p.notice ? html`<div class="notice warn" role="alert"><p>${p.notice}</p></div>` : ''} ${errorSummary(e, TARGETS)}
      <form method="post" action="/advertise/brief" enctype="multipart/form-data" novalidate>
        ${csrfInput(p.csrf)}
        <input type="hidden" name="machine" value="${m.machineNo}" /><input type="hidden" name="qr" value="${m.qrId}" />
        ${p.held ? html`<input type="hidden" name="draft" value="${p.held.draftToken}" /><input type="hidden" name="creativeId" value="${p.held.creativeId}" />` : ''}
        ${radioGroup({
          name: 'sponsorType',
          legend: 'Who is advertising?',
          value: v.sponsorType,
          error: e['sponsorType'],
          options: [
            { value: 'local-business', label: 'A local business', hint: `${usd(prices.rates['local-business'])} per kiosk per month per slot` },
            { value: 'brand-coop', label: 'A brand stocked in this kiosk (co-op)', hint: `${usd(prices.rates['brand-coop'])} per kiosk per month per slot` },
          ],
        })}
        ${field({ name: 'sponsorName', label: 'Sponsor name (shown as “Sponsored · name”)', value: v.sponsorName, error: e['sponsorName'], autocomplete: 'organization', maxlength: 100, required: true })}
        <fieldset>
          <legend>Your contact details</legend>
          <span class="hint">The operator uses them if there is a question about your ad.</span>
          ${field({ name: 'buyerName', label: 'Your name', value: v.buyerName, error: e['buyerName'], autocomplete: 'name', maxlength: 100, required: true })}
          ${field({ name: 'buyerEmail', label: 'Email address', type: 'email', value: v.buyerEmail, error: e['buyerEmail'], autocomplete: 'email', maxlength: 254, required: true })}
          ${field({ name: 'buyerPhone', label: 'Phone (optional)', type: 'tel', value: v.buyerPhone, error: e['buyerPhone'], autocomplete: 'tel', maxlength: 32 })}
        </fieldset>
        ${radioGroup({
          name: 'reach',
          legend: 'Where should the ad run?',
          hint: 'Only kiosks whose operators sell screen time this way are included. The more kiosks, the lower the price per kiosk.',
          value: v.reach,
          error: e['reach'],
          options: [
            { value: 'machine', label: `Only this kiosk (${m.machineNo})` },
            { value: 'zip', label: 'Every kiosk in a ZIP code', hint: '(fill in “ZIP code” below)' },
            { value: 'zips', label: 'Every kiosk in several ZIP codes', hint: '(fill in “ZIP codes” below)' },
            { value: 'city', label: 'Every kiosk in a city', hint: '(fill in “City” below)' },
            { value: 'network', label: 'The whole network' },
          ],
        })}
        ${field({ name: 'zip', label: 'ZIP code', hint: 'For “every kiosk in a ZIP code”.', value: v.zip, error: e['zip'], autocomplete: 'postal-code', maxlength: 16 })}
        ${field({ name: 'zips', label: 'ZIP codes', hint: 'For “several ZIP codes”: separate them with commas or spaces.', value: v.zips, error: e['zips'], maxlength: 300 })}
        ${field({ name: 'city', label: 'City', hint: 'For “every kiosk in a city”.', value: v.city, error: e['city'], autocomplete: 'address-level2', maxlength: 100 })}
        ${radioGroup({
          name: 'slots',
          legend: 'How often should it show?',
          value: v.slots,
          error: e['slots'],
          options: [
            { value: '1', label: 'Standard: 1 slot per loop', hint: '(about 12.5% of screen time)' },
            { value: '2', label: 'Double: 2 slots per loop', hint: '(twice the showings, twice the price)' },
          ],
        })}
        ${select({ name: 'months', label: 'For how long?', options: monthOptions, value: v.months || String(prices.monthsMin), error: e['months'] })}
        ${field({ name: 'flightStart', label: 'Start date (optional)', type: 'date', hint: 'Leave it empty to start today. At most 90 days ahead.', value: v.flightStart, error: e['flightStart'] })}
        <fieldset>
          <legend>Your ad</legend>
          ${
            p.held
              ? html`<p>Your ad so far: ${p.held.label}.</p>
                  ${p.held.kind === 'image' ? html`<p><img class="preview" src="${p.held.url}" alt="Your ad so far" /></p>` : ''}`
              : ''
          }
          ${radioGroup({
            name: 'creativeMode',
            legend: 'How do you want to make it?',
            value: v.creativeMode || (p.held ? 'keep' : ''),
            error: e['creativeMode'],
            options: [
              ...(p.held ? [{ value: 'keep', label: 'Keep my ad as it is' }] : []),
              {
                value: 'upload',
                label: 'Upload my own file',
                hint: '(portrait PNG, JPEG or WebP at least 540×960 up to 10 MB, or an MP4 of at most 15 s up to 60 MB)',
              },
              {
                value: 'studio',
                label: 'Have the studio design it from a few words',
                hint: `(${p.generationsLeft} of ${prices.generationsPerPurchase} designs left)`,
              },
            ],
          })}
          ${field({ name: 'creativeFile', label: 'File to upload', type: 'file', error: e['creativeFile'], accept: 'image/png,image/jpeg,image/webp,video/mp4', hint: 'For “upload my own file”.' })}
          ${field({ name: 'studioBrief', label: 'What should the studio make?', type: 'textarea', hint: 'For “studio”: your offer, your name, a colour. Example: “Fresh coffee at Joe’s, 2 blocks away — 10% off with this screen”.', value: v.studioBrief, error: e['studioBrief'], maxlength: 500 })}
        </fieldset>
        <div class="actions"><button type="submit" name="intent" value="quote">See the price</button></div>
      </form>`,
  });
}
