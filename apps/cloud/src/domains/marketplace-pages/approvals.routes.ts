import { Router, type Request, type Response } from 'express';
import { sendPage } from '../../http/html.ts';
import { AppError } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { AdPurchasesService } from '../ad-purchases/ad-purchases.service.ts';
import { RejectBody } from '../ad-purchases/ad-purchases.schemas.ts';
import { approvalsPage, reasonFieldName, type ApprovalsPageInput } from './approvals.page.ts';
import type { FieldErrors } from './form-ui.ts';
import { messagePage } from './page-common.ts';
import type { PageSession } from './page-session.ts';
import { postedForm } from './signin.routes.ts';

const PAGE_SIZE = 20;
const PURCHASE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The operator's approvals queue behind the pages' sign-in: the purchases with a line of the signed-in
 * operator's (admins: all), and Approve / Reject calling the ad-purchases service — the same rules
 * as `POST /api/v1/ad-purchases/{id}/approve|reject`.
 */
export function approvalsRoutes(adPurchases: AdPurchasesService, session: PageSession): Router {
  const r = Router();

  /** The signed-in operator; otherwise the browser is sent to sign in (and back here after). */
  async function operatorOr302(req: Request, res: Response): Promise<Principal | null> {
    const p = await session.principal(req);
    if (p) {
      if (p.scopes.has('ads:read')) return p;
      sendPage(res, 403, messagePage('Not allowed', 'This sign-in cannot review ads.'));
      return null;
    }
    const back = req.method === 'GET' ? req.originalUrl : '/advertise/approvals';
    res.redirect(req.method === 'GET' ? 302 : 303, `/advertise/signin?next=${encodeURIComponent(back)}`);
    return null;
  }

  async function render(
    req: Request,
    res: Response,
    p: Principal,
    status: number,
    extra: Partial<ApprovalsPageInput> & { show?: 'pending' | 'all'; page?: number } = {},
  ) {
    const show = extra.show ?? 'pending';
    const page = extra.page ?? 1;
    const list = await adPurchases.list(p, { page, size: PAGE_SIZE, ...(show === 'pending' ? { lineStatus: 'pending_approval' as const } : {}) });
    sendPage(
      res,
      status,
      approvalsPage({
        operator: { email: p.operatorEmail, admin: p.admin },
        csrf: session.csrfToken(req, res),
        show,
        page,
        size: PAGE_SIZE,
        purchases: list.records,
        total: list.total,
        ...extra,
      }),
    );
  }

  r.get('/advertise/approvals', async (req, res) => {
    const p = await operatorOr302(req, res);
    if (!p) return;
    const show = req.query['show'] === 'all' ? 'all' : 'pending';
    const n = Number(req.query['page']);
    const page = Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : 1;
    const done = req.query['done'];
    const notice =
      done === 'approved' || done === 'rejected'
        ? { kind: 'ok' as const, text: done === 'approved' ? 'Approved: the ad is on air on your kiosks.' : 'Declined: the buyer sees your reason.' }
        : null;
    await render(req, res, p, 200, { show, page, notice });
  });

  for (const action of ['approve', 'reject'] as const) {
    r.post(`/advertise/approvals/:id/${action}`, async (req, res) => {
      const p = await operatorOr302(req, res);
      if (!p) return;
      const form = await postedForm(session, req, res);
      if (!form) return;
      const id = req.params.id;
      if (!PURCHASE_ID.test(id)) return sendPage(res, 404, messagePage('Purchase not found', 'No such purchase.'));
      if (!p.scopes.has('ads:write')) return sendPage(res, 403, messagePage('Not allowed', 'This sign-in cannot decide on ads.'));
      const operatorEmail = p.admin && form.fields['operatorEmail'] ? form.fields['operatorEmail'] : undefined;
      const fieldName = reasonFieldName(id, operatorEmail ?? p.operatorEmail);
      const reason = (form.fields['reason'] ?? '').slice(0, 1000);
      try {
        if (action === 'approve') await adPurchases.approve(p, id, { operatorEmail });
        else {
          const body = RejectBody.safeParse({ reason, ...(operatorEmail ? { operatorEmail } : {}) });
          if (!body.success) {
            const errors: FieldErrors = { [fieldName]: `Reason for declining: ${reason.trim() ? body.error.issues[0]!.message : 'say why, for the buyer'}` };
            return await render(req, res, p, 400, { errors, reasons: { [fieldName]: reason } });
          }
          await adPurchases.reject(p, id, body.data);
        }
      } catch (e) {
        if (e instanceof AppError && [400, 403, 404, 409].includes(e.status)) {
          const text = e.status === 404 ? 'That purchase is not one of yours, or it does not exist.' : e.message;
          return await render(req, res, p, e.status, { notice: { kind: 'error', text } });
        }
        throw e;
      }
      res.redirect(303, `/advertise/approvals?done=${action === 'approve' ? 'approved' : 'rejected'}`);
    });
  }

  return r;
}
