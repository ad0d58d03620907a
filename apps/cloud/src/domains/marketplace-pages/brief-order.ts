import { CreatePurchaseBody, type PurchaseOrder } from '../ad-purchases/ad-purchases.schemas.ts';
import type { FieldIssue } from '../../http/errors.ts';
import type { BriefValues } from './brief.page.ts';
import type { FieldErrors } from './form-ui.ts';

/**
 * The brief form → the marketplace's own order shape. The page only converts (radio values, numbers,
 * a list of ZIPs) and asks for what a person must choose; every rule is the core's: its schema
 * (CreatePurchaseBody) and then its service. Their issues are put next to the field they concern.
 * No amount is ever read from the form.
 */

/** The order without its creative: what the quote needs, and the purchase with a creative added. */
export type OrderBrief = Omit<PurchaseOrder, 'creative'>;

/** The field labels the summary starts its messages with. */
const LABELS: Record<string, string> = {
  sponsorType: 'Who is advertising',
  sponsorName: 'Sponsor name',
  buyerName: 'Your name',
  buyerEmail: 'Email address',
  buyerPhone: 'Phone',
  reach: 'Where the ad runs',
  zip: 'ZIP code',
  zips: 'ZIP codes',
  city: 'City',
  slots: 'How often',
  months: 'How long',
  flightStart: 'Start date',
  creativeMode: 'How to make your ad',
  creativeFile: 'File to upload',
  studioBrief: 'What the studio should make',
};

const REACH_KINDS = ['machine', 'zip', 'zips', 'city', 'network'];

/** A ZIP list as typed: commas, semicolons or spaces between codes. */
export function zipsOf(text: string): string[] {
  return text.split(/[\s,;]+/).filter(Boolean);
}

/** The form field a core issue path (`buyer.email`, `reach.zips.0`, `months`) belongs to; null: the form as a whole. */
export function fieldOfPath(path: string, reachKind: string): string | null {
  const [head = '', sub] = path.replace(/^body\./, '').split('.');
  switch (head) {
    case 'buyer':
      return sub === 'email' ? 'buyerEmail' : sub === 'phone' ? 'buyerPhone' : 'buyerName';
    case 'reach':
      if (sub === 'zips') return reachKind === 'zips' ? 'zips' : 'zip';
      if (sub === 'city') return 'city';
      return reachKind === 'zip' || reachKind === 'zips' || reachKind === 'city' ? reachKind : 'reach';
    case 'sponsorType':
    case 'sponsorName':
    case 'slots':
    case 'months':
    case 'flightStart':
      return head;
    default:
      return null;
  }
}

/** Core issues as field errors ("Sponsor name: must not be empty"); the first issue of a field wins. Those of no field go under `form`. */
export function fieldErrorsOf(issues: readonly FieldIssue[], reachKind: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const i of issues) {
    const f = fieldOfPath(i.path, reachKind) ?? 'form';
    if (!(f in errors)) errors[f] = f === 'form' ? i.message : `${LABELS[f]}: ${i.message}`;
  }
  return errors;
}

/** What a person must choose or fill in that no schema can say in their words. */
function missing(v: BriefValues): FieldErrors {
  const e: FieldErrors = {};
  if (!['local-business', 'brand-coop'].includes(v.sponsorType)) e['sponsorType'] = 'Choose who is advertising';
  if (!v.sponsorName) e['sponsorName'] = 'Enter the sponsor name';
  if (!v.buyerName) e['buyerName'] = 'Enter your name';
  if (!v.buyerEmail) e['buyerEmail'] = 'Enter your email address';
  if (!REACH_KINDS.includes(v.reach)) e['reach'] = 'Choose where the ad should run';
  else if (v.reach === 'zip' && !v.zip) e['zip'] = 'Enter the ZIP code';
  else if (v.reach === 'zip' && zipsOf(v.zip).length > 1) e['zip'] = 'Enter one ZIP code (or choose “several ZIP codes”)';
  else if (v.reach === 'zips' && zipsOf(v.zips).length === 0) e['zips'] = 'Enter at least one ZIP code';
  else if (v.reach === 'city' && !v.city) e['city'] = 'Enter the city';
  if (v.slots !== '1' && v.slots !== '2') e['slots'] = 'Choose how often the ad shows';
  if (!v.months) e['months'] = 'Choose how long the ad runs';
  return e;
}

/** The brief as the core's order (without creative): each reach kind with its own inputs only. */
export function orderCandidate(v: BriefValues, source: { machineNo: string; qrId: string }): Record<string, unknown> {
  const reach =
    v.reach === 'machine'
      ? { kind: 'machine', machineNo: source.machineNo }
      : v.reach === 'zip'
        ? { kind: 'zip', zips: zipsOf(v.zip) }
        : v.reach === 'zips'
          ? { kind: 'zips', zips: zipsOf(v.zips) }
          : v.reach === 'city'
            ? { kind: 'city', city: v.city }
            : { kind: 'network' };
  return {
    sponsorType: v.sponsorType,
    sponsorName: v.sponsorName,
    buyer: { name: v.buyerName, email: v.buyerEmail, ...(v.buyerPhone ? { phone: v.buyerPhone } : {}) },
    reach,
    slots: /^\d{1,2}$/.test(v.slots) ? Number(v.slots) : v.slots,
    months: /^\d{1,2}$/.test(v.months) ? Number(v.months) : v.months,
    ...(v.flightStart ? { flightStart: v.flightStart } : {}),
    source,
  };
}

const OrderBriefSchema = CreatePurchaseBody.omit({ creative: true });

/** The brief checked by the page (choices made) and then by the core's schema; field errors, or the order. */
export function readBrief(v: BriefValues, source: { machineNo: string; qrId: string }): { ok: true; brief: OrderBrief } | { ok: false; errors: FieldErrors } {
  const errors = missing(v);
  const parsed = OrderBriefSchema.safeParse(orderCandidate(v, source));
  if (!parsed.success) {
    const core = fieldErrorsOf(
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
      v.reach,
    );
    for (const [f, m] of Object.entries(core)) if (!(f in errors)) errors[f] = m;
  }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, brief: parsed.data };
}

/**
 * The creative inputs: keep the ad already held (an earlier upload or design), upload a file, or have
 * the studio design one — with the error of a missing choice, file or studio brief.
 */
export function creativeChoice(
  v: BriefValues,
  has: { file: boolean; held: boolean },
): { ok: true; mode: 'upload' | 'studio' | 'keep' } | { ok: false; errors: FieldErrors } {
  switch (v.creativeMode) {
    case 'keep':
      return has.held ? { ok: true, mode: 'keep' } : { ok: false, errors: { creativeMode: 'Choose how to make your ad' } };
    case 'upload':
      return has.file ? { ok: true, mode: 'upload' } : { ok: false, errors: { creativeFile: 'Choose a file to upload' } };
    case 'studio':
      return v.studioBrief ? { ok: true, mode: 'studio' } : { ok: false, errors: { studioBrief: 'Describe what the studio should make' } };
    default:
      return { ok: false, errors: { creativeMode: 'Choose how to make your ad' } };
  }
}
