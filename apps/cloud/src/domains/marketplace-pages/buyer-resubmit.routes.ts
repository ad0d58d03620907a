import { Router } from 'express';
import { sendPage } from '../../http/html.ts';
import type { MarketplaceService } from '../ad-purchases/marketplace.service.ts';
import { buyerOf } from '../ad-purchases/buyer.ts';
import type { CreativeDraftView, PurchaseStatusView } from '../ad-purchases/ad-purchases.schemas.ts';
import { MEDIA_LIMITS } from '../creatives/media-probe.ts';
import { isStatus, reasonOf, uploadType } from './buyer.routes.ts';
import { resubmitForms, statusPage } from './buyer.pages.ts';
import type { FieldErrors } from './form-ui.ts';
import { messagePage, notFoundPage } from './page-common.ts';
import type { PageSession } from './page-session.ts';
import { postedForm } from './signin.routes.ts';

/**
 * The buyer's resubmit (issue 34): from the status page, a rejected line sent back for approval with a new ad while
 * its refund is not issued. The service decides (`MarketplaceService.resubmit`); this page reads the form and renders.
 */
export function buyerResubmitRoutes(deps: { market: MarketplaceService; session: PageSession }): Router {
  const { market, session } = deps;
  const r = Router();
  // A rejected line sent back for approval with a new ad (an upload or a studio design, into a fresh draft), while its
  // refund is not issued. The status token in the address authenticates the buyer, as on the status page.
  r.post('/advertise/status/:token/resubmit', async (req, res) => {
    const form = await postedForm(session, req, res, MEDIA_LIMITS.videoMaxBytes);
    if (!form) return;
    const token = req.params.token;
    const path = `/advertise/status/${token}`;
    let view: PurchaseStatusView;
    try {
      view = await market.statusOf(buyerOf(req), token);
    } catch (e) {
      if (isStatus(e, 404)) return sendPage(res, 404, notFoundPage('Purchase'));
      throw e;
    }
    const back = [{ href: path, label: 'Back to your purchase' }];
    const lineId = form.fields['line'] ?? '';
    const studioBrief = (form.fields['studioBrief'] ?? '').trim();
    const again = (status: number, errors: FieldErrors) =>
      sendPage(
        res,
        status,
        statusPage(view, path, resubmitForms(view, { action: `${path}/resubmit`, csrf: session.csrfToken(req, res), state: { lineId, errors, studioBrief } })),
      );
    const line = view.lines.find((l) => l.lineId === lineId);
    if (!line) return sendPage(res, 400, messagePage('No such part of your purchase', 'Choose the part to send again on your status page.', back));
    if (!line.resubmittable) {
      const why =
        line.refund?.status === 'issued'
          ? 'This part was already refunded: the payment is no longer held, so it cannot be sent again. Buy again for a new ad.'
          : `Only a declined part whose refund is not paid back can be sent again; this one is ${line.status.replace('_', ' ')}.`;
      return sendPage(res, 409, messagePage('This part cannot be sent again', why, back));
    }
    const file = form.file !== null && form.file.bytes.length > 0 ? form.file : null;
    if (!file && !studioBrief) return again(400, { creativeFile: 'Choose a file to upload, or describe a design for the studio' });
    if (file?.truncated) return again(400, { creativeFile: `The file is larger than ${MEDIA_LIMITS.videoMaxBytes / 1024 / 1024} MB` });
    const target = file ? 'creativeFile' : 'studioBrief';
    let draft: CreativeDraftView;
    try {
      draft = file
        ? await market.uploadCreative(buyerOf(req), { contentType: uploadType(file), dataBase64: file.bytes.toString('base64') })
        : await market.generateCreative(buyerOf(req), { brief: studioBrief, sponsorName: view.sponsorName });
    } catch (e) {
      if (isStatus(e, 400, 409)) return again(400, { [target]: file ? `The file was refused: ${reasonOf(e)}` : reasonOf(e) });
      if (isStatus(e, 502)) return again(502, { studioBrief: 'The design studio did not answer. Try again, or upload a file.' });
      throw e;
    }
    try {
      await market.resubmit(buyerOf(req), { statusToken: token, lineId, creative: { draftToken: draft.draftToken, creativeId: draft.creatives.at(-1)!.id } });
    } catch (e) {
      if (isStatus(e, 409)) return sendPage(res, 409, messagePage('This part cannot be sent again', reasonOf(e), back));
      if (isStatus(e, 400)) return again(400, { form: reasonOf(e) });
      throw e;
    }
    res.redirect(303, path);
  });

  return r;
}
