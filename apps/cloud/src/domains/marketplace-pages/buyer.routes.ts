import { Router, type Request, type Response } from 'express';
import { sendPage } from '../../http/html.ts';
import { AppError, ERROR_TABLE } from '../../http/errors.ts';
import type { MarketplaceService } from '../ad-purchases/marketplace.service.ts';
import { buyerOf } from '../ad-purchases/buyer.ts';
import type { CreativeDraftView, KioskView } from '../ad-purchases/ad-purchases.schemas.ts';
import type { TestProcessor } from '../ad-purchases/test-processor.ts';
import { PROCESSOR_RETURN_PATH, PROCESSOR_STATUS_PATH } from '../ad-purchases/stripe-processor.ts';
import { ACCEPTED_TYPES, MEDIA_LIMITS, sniff, type MediaType } from '../creatives/media-probe.ts';
import type { PricingCatalog } from '../pricing/catalog.ts';
import { creativeChoice, fieldErrorsOf, readBrief, type OrderBrief } from './brief-order.ts';
import { briefPage, briefValuesOf, type AdvertiseMachine, type BriefValues, type HeldCreative } from './brief.page.ts';
import { checkoutPage, quotePage, resubmitForms, statusPage } from './buyer.pages.ts';
import type { UploadedFile } from './form-reader.ts';
import type { FieldErrors } from './form-ui.ts';
import { KIOSK_COOKIE, briefPath, kioskCookieValue, messagePage, notFoundPage, pageNotFoundHandler } from './page-common.ts';
import type { QuoteLinks } from './quote-link.ts';
import { readCookies, type PageSession } from './page-session.ts';
import { postedForm } from './signin.routes.ts';

/** The status token between "Pay" and the test checkout's return (a cookie on /pay only: never in a URL, which is logged). */
export const PURCHASE_COOKIE = 'vend_purchase';
/** The status token of a paid test intent, on that intent's checkout page only (`Path=/pay/test/<id>`): Back after paying links to the status. */
export const PAID_COOKIE = 'vend_paid';

export interface BuyerPagesDeps {
  market: MarketplaceService;
  pricing: { current(): PricingCatalog };
  /** The sandbox's built-in processor; null: no /pay/test pages. */
  testProcessor: TestProcessor | null;
  session: PageSession;
  /** Seals the quote's own address (post/redirect/get). */
  quoteLinks: QuoteLinks;
}

/** An AppError's own words without the catalogue prefix ("Bad request — …: "), for a person. */
export function reasonOf(e: AppError): string {
  const text = e.options.issues?.length ? e.options.issues.map((i) => i.message).join('; ') : e.message;
  return text.replace(`${ERROR_TABLE.bad_request.message}: `, '');
}

export const isStatus = (e: unknown, ...statuses: number[]): e is AppError => e instanceof AppError && statuses.includes(e.status);

function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`;
}

/** What a creative of a draft is called on the form. */
function heldOf(draft: CreativeDraftView | null, creativeId: string | undefined): HeldCreative | null {
  if (!draft || draft.usedByPurchase || draft.creatives.length === 0) return null;
  const c = draft.creatives.find((x) => x.id === creativeId) ?? draft.creatives.at(-1)!;
  const label =
    c.source === 'contentx' ? `a studio design (${c.width}×${c.height})` : `your upload (${c.width}×${c.height}${c.kind === 'video' ? ', video' : ''})`;
  return { draftToken: draft.draftToken, creativeId: c.id, url: c.url, kind: c.kind, label };
}

/** The type the upload is sent as: the browser's when it is one the creatives domain accepts, else what the bytes look like. */
export function uploadType(file: UploadedFile): string {
  if ((ACCEPTED_TYPES as readonly string[]).includes(file.mimeType)) return file.mimeType;
  const s = sniff(file.bytes);
  return 'type' in s ? (s.type as MediaType) : file.mimeType;
}

/**
 * The buyer's pages: the brief behind each kiosk's advertise QR, the quote, the hand-over to the
 * payment processor (and the sandbox test processor's checkout), the tokenized status. Each handler
 * reads its form, calls the marketplace service, renders: prices, quotes and purchases are the
 * service's alone (the forms carry the brief, never an amount).
 */
export function buyerRoutes(deps: BuyerPagesDeps): Router {
  const { market, session } = deps;
  const r = Router();

  /** The kiosk of an advertise QR; null (→ 404 page) unless the QR is this machine's. */
  async function kioskOf(req: Request, machineNo: unknown, qr: unknown): Promise<KioskView | null> {
    if (typeof machineNo !== 'string' || typeof qr !== 'string' || qr.length > 64) return null;
    try {
      const k = await market.kiosk(buyerOf(req), machineNo, qr);
      return k.qrValid ? k : null;
    } catch (e) {
      if (isStatus(e, 404)) return null;
      throw e;
    }
  }

  const machineOf = (k: KioskView, qrId: string): AdvertiseMachine => ({
    machineNo: k.machineNo,
    qrId,
    place: [k.venueName, k.city, k.postalCode].filter(Boolean).join(', ') || null,
  });

  /**
   * The sellable kiosk a posted brief names, as the page's machine; null once the answer is sent
   * (a 404 page for a wrong kiosk or QR, the not-for-sale page for an opt-out operator's kiosk).
   */
  async function sellableMachine(req: Request, res: Response, f: Record<string, string>): Promise<AdvertiseMachine | null> {
    const k = await kioskOf(req, f['machine'], f['qr']);
    if (!k) {
      sendPage(res, 404, notFoundPage('Kiosk'));
      return null;
    }
    if (!k.sellable) {
      sendPage(res, 200, notForSale(k));
      return null;
    }
    return machineOf(k, f['qr']!);
  }

  const prices = () => {
    const ad = deps.pricing.current().ad;
    return { rates: ad.rates, monthsMin: ad.months.min, monthsMax: ad.months.max, generationsPerPurchase: ad.generationsPerPurchase };
  };

  async function draftOrNull(req: Request, token: string | undefined): Promise<CreativeDraftView | null> {
    if (!token) return null;
    try {
      return await market.draftOf(buyerOf(req), token);
    } catch (e) {
      if (isStatus(e, 404)) return null;
      throw e;
    }
  }

  function renderBrief(
    req: Request,
    res: Response,
    status: number,
    o: { machine: AdvertiseMachine; values: BriefValues; errors?: FieldErrors; held: HeldCreative | null; draft: CreativeDraftView | null },
  ) {
    const p = prices();
    const errors = o.errors ?? {};
    const notice = errors['form'] ?? null;
    delete errors['form'];
    sendPage(
      res,
      status,
      briefPage({
        machine: o.machine,
        prices: p,
        values: o.values,
        errors,
        csrf: session.csrfToken(req, res),
        generationsLeft: o.draft?.generationsLeft ?? p.generationsPerPurchase,
        held: o.held,
        notice,
      }),
    );
  }

  const notForSale = (k: KioskView) =>
    messagePage(
      'This screen is not for sale',
      `Kiosk ${k.machineNo} is not offered for self-serve advertising: its operator does not sell screen time this way. Ask the venue or the operator directly.`,
    );

  r.get('/advertise', async (req, res) => {
    const k = await kioskOf(req, req.query['machine'], req.query['qr']);
    if (!k) return sendPage(res, 404, notFoundPage('Kiosk'));
    if (!k.sellable) return sendPage(res, 200, notForSale(k));
    const values = briefValuesOf({ reach: 'machine', slots: '1', months: String(prices().monthsMin), zip: k.postalCode ?? '', city: k.city ?? '' });
    const kiosk = kioskCookieValue(k.machineNo, req.query['qr'] as string);
    if (kiosk) session.setCookie(req, res, KIOSK_COOKIE, kiosk, { maxAgeSeconds: 30 * 24 * 3600 });
    renderBrief(req, res, 200, { machine: machineOf(k, req.query['qr'] as string), values, held: null, draft: null });
  });

  r.post('/advertise/brief', async (req, res) => {
    const form = await postedForm(session, req, res, MEDIA_LIMITS.videoMaxBytes);
    if (!form) return;
    const f = form.fields;
    const machine = await sellableMachine(req, res, f);
    if (!machine) return;
    const values = briefValuesOf(f);
    let draft = await draftOrNull(req, f['draft']);
    const held = heldOf(draft, f['creativeId']);
    if (f['intent'] === 'edit')
      return renderBrief(req, res, 200, { machine, values: { ...values, creativeMode: held ? 'keep' : values.creativeMode }, held, draft });

    const source = { machineNo: machine.machineNo, qrId: machine.qrId };
    const brief = readBrief(values, source);
    const choice = creativeChoice(values, { file: form.file !== null && form.file.bytes.length > 0, held: held !== null });
    const errors: FieldErrors = { ...(brief.ok ? {} : brief.errors), ...(choice.ok ? {} : choice.errors) };
    if (choice.ok && choice.mode === 'upload' && form.file?.truncated)
      errors['creativeFile'] = `The file is larger than ${MEDIA_LIMITS.videoMaxBytes / 1024 / 1024} MB`;
    const again = (status: number, errs: FieldErrors) => renderBrief(req, res, status, { machine, values, errors: errs, held, draft });
    /**
     * The brief comes back with errors: a file sent with it is kept in the draft first (the form then offers "Keep my
     * ad as it is" with its preview), so the buyer never chooses it again; one the service refuses, or that was not
     * kept, is said next to the file field.
     */
    const againKeepingUpload = async (errs: FieldErrors) => {
      const sent = form.file !== null && form.file.bytes.length > 0;
      // a file sent along with a studio brief or "keep" is not the ad the buyer chose: it is left out on purpose
      if (!sent || errs['creativeFile'] || (choice.ok && choice.mode !== 'upload')) return again(400, errs);
      if (!choice.ok) return again(400, { ...errs, creativeFile: 'Your file was not kept: choose “Upload my own file” and choose it again' });
      let kept;
      try {
        kept = await market.uploadCreative(buyerOf(req), {
          draftToken: draft && !draft.usedByPurchase ? draft.draftToken : undefined,
          contentType: uploadType(form.file!),
          dataBase64: form.file!.bytes.toString('base64'),
        });
      } catch (e) {
        if (isStatus(e, 400, 409, 429)) return again(400, { ...errs, creativeFile: `The file was refused: ${reasonOf(e)}` });
        throw e;
      }
      const before = new Set(draft?.creatives.map((c) => c.id) ?? []);
      const keptHeld = heldOf(kept, kept.creatives.find((c) => !before.has(c.id))?.id);
      return renderBrief(req, res, 400, { machine, values: { ...values, creativeMode: 'keep' }, errors: errs, held: keptHeld, draft: kept });
    };
    if (!brief.ok || !choice.ok || Object.keys(errors).length) return againKeepingUpload(errors);

    // the brief is quoted before a design is spent on it (a reach with no kiosk is refused here); the quote's own
    // address quotes it again when opened
    try {
      await market.quote(buyerOf(req), brief.brief);
    } catch (e) {
      if (isStatus(e, 400)) return againKeepingUpload(fieldErrorsOf(e.options.issues ?? [{ path: '', message: reasonOf(e) }], values.reach));
      throw e;
    }

    let creativeId = held?.creativeId ?? '';
    if (choice.mode !== 'keep') {
      const before = new Set(draft?.creatives.map((c) => c.id) ?? []);
      const draftToken = draft && !draft.usedByPurchase ? draft.draftToken : undefined;
      const target = choice.mode === 'upload' ? 'creativeFile' : 'studioBrief';
      try {
        draft =
          choice.mode === 'upload'
            ? await market.uploadCreative(buyerOf(req), { draftToken, contentType: uploadType(form.file!), dataBase64: form.file!.bytes.toString('base64') })
            : await market.generateCreative(buyerOf(req), { draftToken, brief: values.studioBrief, sponsorName: values.sponsorName || undefined });
      } catch (e) {
        if (isStatus(e, 400, 409)) return again(e.status, { [target]: choice.mode === 'upload' ? `The file was refused: ${reasonOf(e)}` : reasonOf(e) });
        if (isStatus(e, 502)) return again(502, { studioBrief: 'The design studio did not answer; no design was counted. Try again, or upload a file.' });
        throw e;
      }
      creativeId = draft.creatives.find((c) => !before.has(c.id))?.id ?? draft.creatives.at(-1)!.id;
    }
    // post/redirect/get: the quote has its own address, so Back and reload open it again (quote-link.ts)
    const link = deps.quoteLinks.seal({ machineNo: machine.machineNo, qrId: machine.qrId, values, draftToken: draft!.draftToken, creativeId });
    res.redirect(303, `/advertise/quote/${link}`);
  });

  r.get('/advertise/quote/:link', async (req, res) => {
    const opened = deps.quoteLinks.open(req.params.link);
    if (!opened.ok && opened.reason === 'invalid') {
      void pageNotFoundHandler(req, res, () => undefined);
      return;
    }
    const back = (machineNo: string, qrId: string) => [{ href: briefPath(machineNo, qrId), label: 'Start again from the ad form' }];
    const expired = (machineNo: string, qrId: string, message: string) =>
      sendPage(res, 410, messagePage('This quote has expired', message, back(machineNo, qrId)));
    if (!opened.ok)
      return expired(opened.machineNo, opened.qrId, 'A quote is kept for two hours. Nothing was bought or charged; fill in the ad form again for a new quote.');
    const { link } = opened;
    const machine = await sellableMachine(req, res, { machine: link.machineNo, qr: link.qrId });
    if (!machine) return;
    const draft = await draftOrNull(req, link.draftToken);
    if (!draft) return expired(link.machineNo, link.qrId, 'Your ad design is no longer kept. Nothing was bought or charged; fill in the ad form again.');
    if (draft.usedByPurchase)
      return sendPage(res, 409, messagePage('Already bought', 'This ad was already bought. Follow it on the status page you were sent to after paying.'));
    const held = heldOf(draft, link.creativeId);
    const brief = readBrief(link.values, { machineNo: machine.machineNo, qrId: machine.qrId });
    if (!brief.ok) return renderBrief(req, res, 400, { machine, values: link.values, errors: brief.errors, held, draft });
    let quote;
    try {
      quote = await market.quote(buyerOf(req), brief.brief);
    } catch (e) {
      if (isStatus(e, 400))
        return renderBrief(req, res, 400, {
          machine,
          values: { ...link.values, creativeMode: held ? 'keep' : link.values.creativeMode },
          errors: fieldErrorsOf(e.options.issues ?? [{ path: '', message: reasonOf(e) }], link.values.reach),
          held,
          draft,
        });
      throw e;
    }
    sendPage(
      res,
      200,
      quotePage({
        machine,
        values: { ...link.values, creativeMode: 'keep' },
        quote,
        draft,
        creativeId: held?.creativeId ?? link.creativeId,
        csrf: session.csrfToken(req, res),
      }),
    );
  });

  r.post('/advertise/pay', async (req, res) => {
    const form = await postedForm(session, req, res);
    if (!form) return;
    const f = form.fields;
    const machine = await sellableMachine(req, res, f);
    if (!machine) return;
    const values = briefValuesOf(f);
    const draft = await draftOrNull(req, f['draft']);
    const held = heldOf(draft, f['creativeId']);
    const again = (status: number, errs: FieldErrors) =>
      renderBrief(req, res, status, { machine, values: { ...values, creativeMode: held ? 'keep' : '' }, errors: errs, held, draft });
    const brief = readBrief(values, { machineNo: machine.machineNo, qrId: machine.qrId });
    if (!brief.ok) return again(400, brief.errors);
    if (!held || !f['draft']) return again(400, { creativeMode: 'Choose how to make your ad' });
    const order: OrderBrief & { creative: { draftToken: string; creativeId: string } } = {
      ...brief.brief,
      creative: { draftToken: f['draft'], creativeId: held.creativeId },
    };
    let created;
    try {
      created = await market.createPurchase(buyerOf(req), order);
    } catch (e) {
      if (isStatus(e, 400)) return again(400, fieldErrorsOf(e.options.issues ?? [{ path: '', message: reasonOf(e) }], values.reach));
      if (isStatus(e, 409))
        return sendPage(res, 409, messagePage('Already bought', 'This ad was already bought. Follow it on the status page you were sent to after paying.'));
      throw e;
    }
    session.setCookie(req, res, PURCHASE_COOKIE, created.statusToken, { path: '/pay', maxAgeSeconds: 24 * 3600 });
    res.redirect(303, created.checkoutUrl);
  });

  r.get('/advertise/status/:token', async (req, res) => {
    let view;
    try {
      view = await market.statusOf(buyerOf(req), req.params.token);
    } catch (e) {
      if (isStatus(e, 404)) return sendPage(res, 404, notFoundPage('Purchase'));
      throw e;
    }
    const path = `/advertise/status/${req.params.token}`;
    sendPage(res, 200, statusPage(view, path, resubmitForms(view, { action: `${path}/resubmit`, csrf: session.csrfToken(req, res) })));
  });

  // Where a hosted checkout (Stripe) sends the buyer once paid. The purchase cookie is SameSite=Strict, so it is not
  // sent on the processor's cross-site redirect: this page links on, and that same-site click carries it.
  r.get(PROCESSOR_RETURN_PATH, (req, res) => {
    const link = [{ href: PROCESSOR_STATUS_PATH, label: 'Follow your purchase on its status page' }];
    if (req.query['cancelled'] !== undefined) {
      return sendPage(res, 200, messagePage('Not paid', 'You left the payment page without paying: nothing was charged.', link));
    }
    sendPage(res, 200, messagePage('Payment received', 'Thank you: your purchase moves on as soon as the payment processor confirms the payment.', link));
  });
  r.get(PROCESSOR_STATUS_PATH, (req, res) => {
    const token = readCookies(req).get(PURCHASE_COOKIE);
    if (!token) {
      return sendPage(res, 404, messagePage('No purchase in this browser', 'Follow your purchase with the status link you were given when you bought it.'));
    }
    res.redirect(303, `/advertise/status/${encodeURIComponent(token)}`);
  });

  const test = deps.testProcessor;
  if (test) {
    const statusPathOf = (req: Request) => {
      const token = readCookies(req).get(PURCHASE_COOKIE);
      return token ? `/advertise/status/${token}` : null;
    };
    const intentOr404 = async (res: Response, id: string) => {
      try {
        return await test.intent(id);
      } catch (e) {
        if (isStatus(e, 404)) {
          sendPage(res, 404, notFoundPage('Payment'));
          return null;
        }
        throw e;
      }
    };

    r.get('/pay/test/:intentId', async (req, res) => {
      const intent = await intentOr404(res, req.params.intentId);
      if (!intent) return;
      // once paid, the purchase cookie is gone: the paid cookie of this checkout's own path still knows the status
      const paid = intent.status === 'succeeded' ? readCookies(req).get(PAID_COOKIE) : undefined;
      const statusPath = paid ? `/advertise/status/${paid}` : (statusPathOf(req) ?? intent.returnUrl);
      sendPage(res, 200, checkoutPage({ intent, csrf: session.csrfToken(req, res), statusPath }));
    });

    r.post('/pay/test/:intentId', async (req, res) => {
      const form = await postedForm(session, req, res);
      if (!form) return;
      if (!(await intentOr404(res, req.params.intentId))) return;
      const done = await test.complete(req.params.intentId, originOf(req));
      if (done.delivery.status !== 200) {
        return sendPage(
          res,
          502,
          messagePage(
            'Payment not confirmed',
            `The test payment went through, but the service did not confirm it (${done.delivery.status ?? done.delivery.error ?? 'no answer'}). Press “Pay now” again to resend the notice.`,
            [{ href: `/pay/test/${encodeURIComponent(req.params.intentId)}`, label: 'Back to the payment' }],
          ),
        );
      }
      // the intent names where the buyer goes once paid (a kiosk checkout's phone page): the processor sends them there
      if (done.intent.returnUrl) return res.redirect(303, done.intent.returnUrl);
      const statusPath = statusPathOf(req);
      if (!statusPath) return sendPage(res, 200, checkoutPage({ intent: done.intent, csrf: session.csrfToken(req, res), statusPath: null }));
      session.clearCookie(req, res, PURCHASE_COOKIE, '/pay');
      const token = readCookies(req).get(PURCHASE_COOKIE)!;
      session.setCookie(req, res, PAID_COOKIE, token, { path: `/pay/test/${encodeURIComponent(req.params.intentId)}`, maxAgeSeconds: 24 * 3600 });
      res.redirect(303, statusPath);
    });
  }

  return r;
}
