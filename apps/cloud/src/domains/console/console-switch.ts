import { Router, type Request, type Response } from 'express';
import type { Config } from '../../config.ts';
import { AppError } from '../../http/errors.ts';
import { sendPage } from '../../http/html.ts';
import { HOME_COOKIE, SESSION_COOKIE, readCookies, type SessionCsrf } from '../../http/page-session-auth.ts';
import type { Authenticator, Principal } from '../../http/principal.ts';
import type { AccessService } from '../access/access.service.ts';
import type { SignInService } from '../auth/signin.service.ts';
import { readForm } from '../marketplace-pages/form-reader.ts';
import { csrfRefusedPage, messagePage } from '../marketplace-pages/page-common.ts';

export { HOME_COOKIE };
export const SWITCH_PATH = '/console/access';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export interface ConsoleSwitchDeps {
  auth: Authenticator;
  sessionCsrf: SessionCsrf;
  access: Pick<AccessService, 'me' | 'openSession' | 'closeSession'>;
  signIn: Pick<SignInService, 'signOut'>;
  config: Pick<Config, 'mode' | 'sessionTtlSeconds'>;
}

/**
 * The console's switch onto a fleet that gave the signed-in person an access group (spec 1 §4.2;
 * docs/decisions/console.md "The access-group switch"). Plain forms with `_csrf` = the page's meta token
 * (the CSRF token of the current `vend_session`):
 * - `POST /console/access/switch` (`groupId`): opens the access session through the access service on behalf
 *   of the person — exactly `POST /api/v1/access/session`'s rules and scopes — puts its token in
 *   `vend_session` and keeps the person's own session in `vend_home`; switching again from a switched browser
 *   ends the previous access session first. A group the person does not hold: 404, nothing changed.
 * - `POST /console/access/back`: ends the access session and puts the person's own session back.
 * - `POST /console/access/signout`: ends both (the access session and the person's own session), clears both.
 * A wrong token is 403 and changes nothing; without a live session of the person's own, the sign-in page.
 */
export function consoleSwitchRoutes(deps: ConsoleSwitchDeps): Router {
  const r = Router();

  const secure = (req: Request) => !(deps.config.mode === 'sandbox' && req.protocol === 'http' && LOOPBACK.has(req.hostname));
  const setCookie = (req: Request, res: Response, name: string, value: string, maxAge: number, path = '/') => {
    const parts = [`${name}=${value}`, `Path=${path}`, 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAge}`];
    if (secure(req)) parts.push('Secure');
    res.append('Set-Cookie', parts.join('; '));
  };
  // the kept session rides on every request of this site (Path=/) so that any sign-out form ends it too; it is read
  // as a credential nowhere (authentication reads `vend_session` only)
  const clearHome = (req: Request, res: Response) => setCookie(req, res, HOME_COOKIE, '', 0);

  /** The form's fields once its `_csrf` is the current session's token; null when refused (403 sent). */
  async function checked(req: Request, res: Response): Promise<{ fields: Record<string, string>; current: string } | null> {
    const form = await readForm(req, { maxFileBytes: 0 });
    const current = readCookies(req).get(SESSION_COOKIE);
    if (!current || !deps.sessionCsrf.matches(current, form.fields['_csrf'])) {
      sendPage(res, 403, csrfRefusedPage());
      return null;
    }
    return { fields: form.fields, current };
  }

  /** The person behind this browser: their own sign-in session (never an access, API-key or OAuth token). */
  async function person(token: string | undefined): Promise<Principal | null> {
    const p = token ? await deps.auth.fromBearer(token) : null;
    return p && p.authMethod === 'session' ? p : null;
  }

  const toSignIn = (req: Request, res: Response) => {
    clearHome(req, res);
    setCookie(req, res, SESSION_COOKIE, '', 0);
    res.set('Cache-Control', 'no-store').redirect(303, '/signin?next=%2Fconsole%2Faccess');
  };

  r.post(`${SWITCH_PATH}/switch`, async (req, res) => {
    const form = await checked(req, res);
    if (!form) return;
    const home = readCookies(req).get(HOME_COOKIE);
    // switched already: the person is the kept session; otherwise the current one
    const ownToken = home && (await person(home)) ? home : form.current;
    const p = await person(ownToken);
    if (!p) return toSignIn(req, res);
    const groupId = (form.fields['groupId'] ?? '').trim().slice(0, 64);
    const grant = (await deps.access.me(p)).grants.find((g) => g.groupId === groupId);
    if (!grant) {
      return sendPage(
        res,
        404,
        messagePage('No such access group', 'You hold no access group with that id, so nothing changed.', [{ href: SWITCH_PATH, label: 'Your access groups' }]),
      );
    }
    let session;
    try {
      session = await deps.access.openSession(p, { operatorEmail: grant.operatorEmail.toLowerCase() });
    } catch (e) {
      if (!(e instanceof AppError) || e.status >= 500) throw e;
      return sendPage(res, e.status, messagePage('The switch was refused', e.message, [{ href: SWITCH_PATH, label: 'Your access groups' }]));
    }
    if (ownToken !== form.current) await deps.access.closeSession(p, form.current);
    setCookie(req, res, SESSION_COOKIE, session.token, session.expiresIn);
    setCookie(req, res, HOME_COOKIE, ownToken, deps.config.sessionTtlSeconds);
    res.redirect(303, '/console/');
  });

  r.post(`${SWITCH_PATH}/back`, async (req, res) => {
    const form = await checked(req, res);
    if (!form) return;
    const home = readCookies(req).get(HOME_COOKIE);
    const p = await person(home);
    if (!p || !home) {
      const current = await deps.auth.fromBearer(form.current);
      // not switched: already on the own fleet, nothing changes
      if (current?.authMethod === 'session') return res.redirect(303, SWITCH_PATH);
      // switched, but the own session is gone (expired, signed out elsewhere): the fenced one ends too
      if (current?.authMethod === 'access') await deps.access.closeSession(current, form.current);
      return toSignIn(req, res);
    }
    if (home !== form.current) await deps.access.closeSession(p, form.current);
    setCookie(req, res, SESSION_COOKIE, home, deps.config.sessionTtlSeconds);
    clearHome(req, res);
    res.redirect(303, SWITCH_PATH);
  });

  r.post(`${SWITCH_PATH}/signout`, async (req, res) => {
    const form = await checked(req, res);
    if (!form) return;
    const home = readCookies(req).get(HOME_COOKIE);
    const p = (await person(home)) ?? (await person(form.current)) ?? (await deps.auth.fromBearer(form.current));
    if (p) await deps.access.closeSession(p, form.current);
    await deps.signIn.signOut(form.current);
    if (home) await deps.signIn.signOut(home);
    clearHome(req, res);
    setCookie(req, res, SESSION_COOKIE, '', 0);
    res.set('Cache-Control', 'no-store').redirect(303, '/signin');
  });

  return r;
}
