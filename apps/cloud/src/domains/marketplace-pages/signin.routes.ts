import { Router, type Request, type Response } from 'express';
import { sendPage } from '../../http/html.ts';
import { AppError } from '../../http/errors.ts';
import type { SignInService } from '../auth/signin.service.ts';
import { qrPng } from '../creatives/advertise-qr.ts';
import { readForm, type FormData } from './form-reader.ts';
import type { FieldErrors } from './form-ui.ts';
import { clientIp, csrfRefusedPage, messagePage, safeNext as returnTo } from './page-common.ts';
import { HOME_COOKIE } from '../../http/page-session-auth.ts';
import { CSRF_FIELD, SESSION_COOKIE, TICKET_COOKIE, readCookies, type PageSession } from './page-session.ts';
import { codePage, enrolPage, recoveryCodesPage, signInPage, type SignInBase } from './signin.pages.ts';

/** Where each address of the flow returns to when `next` is absent or refused, and where its sign-out lands. */
const FLOWS: Record<SignInBase, { fallback: string; signOut: string }> = {
  '/signin': { fallback: '/console/', signOut: '/signout' },
  '/advertise/signin': { fallback: '/advertise/approvals', signOut: '/advertise/signout' },
};

/** A POSTed form of text fields, after its CSRF check; null when refused (the 403 page is sent). */
export async function postedForm(session: PageSession, req: Request, res: Response, maxFileBytes = 0): Promise<FormData | null> {
  const form = await readForm(req, { maxFileBytes });
  if (!session.csrfOk(req, form.fields[CSRF_FIELD])) {
    sendPage(res, 403, csrfRefusedPage());
    return null;
  }
  return form;
}

/** 401 (wrong password, bad code) and 429 become messages on the form; anything else is the page error handler's. */
function formMessage(e: unknown): { status: number; message: string } | null {
  if (!(e instanceof AppError)) return null;
  if (e.status === 429) return { status: 429, message: 'Too many attempts from here. Wait an hour and try again.' };
  if (e.status === 401) return { status: 401, message: e.message };
  return null;
}

/**
 * Operator sign-in for the pages, through the one sign-in service (the same steps as `/api/v1/auth/login`
 * and `/api/v1/auth/mfa/*`): email + password → ticket (a five-minute cookie on the sign-in path) → TOTP
 * code, recovery code, or the authenticator's first set-up → the session token in an HttpOnly cookie.
 * Served at `/signin` (every operator page: the console by default) and at `/advertise/signin` (the
 * approvals queue by default); `next` is any path of this service (`safeNext`). docs/decisions/console.md.
 */
export function signInRoutes(signIn: SignInService, session: PageSession, base: SignInBase): Router {
  const r = Router();
  const TICKET_PATH = base;
  const { fallback, signOut } = FLOWS[base];
  const safeNext = (v: unknown) => returnTo(v, fallback);
  const ticketOf = (req: Request) => readCookies(req).get(TICKET_COOKIE) ?? null;
  const startSession = (req: Request, res: Response, token: string, expiresIn: number) => {
    session.setCookie(req, res, SESSION_COOKIE, token, { maxAgeSeconds: expiresIn });
    session.clearCookie(req, res, TICKET_COOKIE, TICKET_PATH);
  };
  const restart = (res: Response, next: string) =>
    sendPage(
      res,
      401,
      messagePage('Sign-in expired', 'The sign-in took too long or was used up. Please start again.', [
        { href: `${base}?next=${encodeURIComponent(next)}`, label: 'Sign in again' },
      ]),
    );

  r.get(base, async (req, res) => {
    const next = safeNext(req.query['next']);
    if (await session.principal(req)) return res.redirect(303, next);
    sendPage(res, 200, signInPage({ base, csrf: session.csrfToken(req, res), next }));
  });

  r.post(base, async (req, res) => {
    const form = await postedForm(session, req, res);
    if (!form) return;
    const next = safeNext(form.fields['next']);
    const email = (form.fields['email'] ?? '').trim().slice(0, 254);
    const password = (form.fields['password'] ?? '').slice(0, 1024);
    const errors: FieldErrors = {};
    if (!email) errors['email'] = 'Enter your email address';
    if (!password) errors['password'] = 'Enter your password';
    if (Object.keys(errors).length) return sendPage(res, 400, signInPage({ base, csrf: session.csrfToken(req, res), next, email, errors }));
    let challenge;
    try {
      challenge = await signIn.login(email, password, clientIp(req));
    } catch (e) {
      const m = formMessage(e);
      if (!m) throw e;
      const errs = m.status === 401 ? { email: 'The email address or the password is not right' } : { email: m.message };
      return sendPage(res, m.status, signInPage({ base, csrf: session.csrfToken(req, res), next, email, errors: errs }));
    }
    session.setCookie(req, res, TICKET_COOKIE, challenge.ticket, { maxAgeSeconds: challenge.expiresIn, path: TICKET_PATH });
    if (challenge.mfaRequired) return res.redirect(303, `${base}/code?next=${encodeURIComponent(next)}`);
    // no authenticator yet: its set-up starts now (a POST: it writes the pending secret)
    const start = await signIn.enrollStart(challenge.ticket, clientIp(req));
    const qrDataUrl = `data:image/png;base64,${(await qrPng(start.otpauthUrl, 240)).toString('base64')}`;
    sendPage(res, 200, enrolPage({ base, csrf: session.csrfToken(req, res), next, secret: start.secret, otpauthUrl: start.otpauthUrl, qrDataUrl }));
  });

  r.get(`${base}/code`, (req, res) => {
    const next = safeNext(req.query['next']);
    if (!ticketOf(req)) return res.redirect(303, `${base}?next=${encodeURIComponent(next)}`);
    sendPage(res, 200, codePage({ base, csrf: session.csrfToken(req, res), next }));
  });

  for (const step of ['code', 'recovery'] as const) {
    r.post(`${base}/${step}`, async (req, res) => {
      const form = await postedForm(session, req, res);
      if (!form) return;
      const next = safeNext(form.fields['next']);
      const ticket = ticketOf(req);
      if (!ticket) return restart(res, next);
      const name = step === 'code' ? 'code' : 'recoveryCode';
      const code = (form.fields[name] ?? '').trim().slice(0, 64);
      if (!code)
        return sendPage(
          res,
          400,
          codePage({
            base,
            csrf: session.csrfToken(req, res),
            next,
            errors: { [name]: step === 'code' ? 'Enter the six-digit code' : 'Enter a recovery code' },
          }),
        );
      try {
        const s = step === 'code' ? await signIn.verify(ticket, code, clientIp(req)) : await signIn.recover(ticket, code, clientIp(req));
        startSession(req, res, s.token, s.expiresIn);
        return res.redirect(303, next);
      } catch (e) {
        const m = formMessage(e);
        if (!m) throw e;
        if (m.status === 401 && /ticket/.test(m.message)) return restart(res, next);
        const message = m.status === 401 ? (step === 'code' ? 'That code is not right, or it has expired' : 'That recovery code is not right') : m.message;
        return sendPage(res, m.status, codePage({ base, csrf: session.csrfToken(req, res), next, errors: { [name]: message } }));
      }
    });
  }

  r.post(`${base}/enrol`, async (req, res) => {
    const form = await postedForm(session, req, res);
    if (!form) return;
    const next = safeNext(form.fields['next']);
    const ticket = ticketOf(req);
    if (!ticket) return restart(res, next);
    const code = (form.fields['code'] ?? '').trim().slice(0, 64);
    // the key is shown again from the form itself (display only: the service checks against the one it sealed)
    const secret = (form.fields['secret'] ?? '').replace(/[^A-Z2-7=]/g, '').slice(0, 128);
    const otpauthUrl = (form.fields['otpauthUrl'] ?? '').slice(0, 512);
    const again = async (status: number, message: string) => {
      const qrDataUrl = otpauthUrl.startsWith('otpauth://') ? `data:image/png;base64,${(await qrPng(otpauthUrl, 240)).toString('base64')}` : '';
      sendPage(res, status, enrolPage({ base, csrf: session.csrfToken(req, res), next, secret, otpauthUrl, qrDataUrl, errors: { code: message } }));
    };
    if (!code) return again(400, 'Enter the six-digit code');
    try {
      const s = await signIn.enrollConfirm(ticket, code, clientIp(req));
      startSession(req, res, s.token, s.expiresIn);
      return sendPage(res, 200, recoveryCodesPage({ next, codes: s.recoveryCodes }));
    } catch (e) {
      const m = formMessage(e);
      if (!m) throw e;
      if (m.status === 401 && /ticket/.test(m.message)) return restart(res, next);
      return again(m.status, m.status === 401 ? 'That code is not right, or it has expired' : m.message);
    }
  });

  // the pages' form token, or the session's own (the console's meta tag: docs/decisions/console.md)
  r.post(signOut, async (req, res) => {
    const form = await readForm(req, { maxFileBytes: 0 });
    if (!session.csrfOk(req, form.fields[CSRF_FIELD]) && !session.sessionCsrfOk(req, form.fields[CSRF_FIELD])) return sendPage(res, 403, csrfRefusedPage());
    // a console switched onto another fleet holds the fenced session in vend_session and the person's own in
    // vend_home: signing out ends both
    const token = session.sessionToken(req);
    const home = readCookies(req).get(HOME_COOKIE);
    if (token) await signIn.signOut(token);
    if (home) await signIn.signOut(home);
    session.clearCookie(req, res, SESSION_COOKIE);
    if (home) session.clearCookie(req, res, HOME_COOKIE);
    res.redirect(303, base);
  });

  return r;
}
