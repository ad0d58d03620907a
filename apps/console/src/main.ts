import { switchForm, switchedWords } from './access-view.ts';
import { ApiError, createApi, csrfToken, unwrap } from './api.ts';
import { el, focusHeading } from './dom.ts';
import { notFound } from './machine-view.ts';
import { ROUTES } from './routes.ts';

/** Client-side routes on `location.pathname` (src/routes.ts): the fleet at /console/, each page below it. */
async function route(): Promise<HTMLElement> {
  const api = createApi(csrfToken());
  const path = location.pathname.replace(/\/+$/, '').replace(/^\/console/, '');
  for (const r of ROUTES) {
    const match = r.pattern.exec(path);
    if (!match) continue;
    document.title = `${r.title(match)} · Console`;
    return r.view(api, match);
  }
  return notFound();
}

/** The top navigation: the console's pages, the current one marked for screen readers (aria-current). */
function nav(): HTMLElement {
  const here = location.pathname.replace(/\/+$/, '') || '/console';
  const current = (href: string) => href.replace(/\/+$/, '') === here || (href === '/console/' && here.startsWith('/console/machines/'));
  return el(
    'nav',
    { class: 'pages', 'aria-label': 'Console' },
    el('ul', {}, ...ROUTES.filter((r) => r.nav).map((r) => el('li', {}, el('a', { href: r.href!, 'aria-current': current(r.href!) ? 'page' : null }, r.nav!)))),
  );
}

/** Sign-out: a plain form the cloud answers with the sign-in page (POST /signout with the page's CSRF token). */
function signOutForm(): HTMLFormElement {
  return el(
    'form',
    { method: 'post', action: '/signout', class: 'signout' },
    el('input', { type: 'hidden', name: '_csrf', value: csrfToken() }),
    el('button', { type: 'submit' }, 'Sign out'),
  );
}

/**
 * While switched onto another operator's fleet (an access-group session, GET /api/v1/access/me): a banner on every
 * page with the way back, and the sign-out ends both sessions (the cloud's /console/access/signout).
 */
async function switchedBanner(): Promise<void> {
  let words: string | null;
  try {
    words = switchedWords(unwrap(await createApi(csrfToken()).GET('/api/v1/access/me')));
  } catch {
    return;
  }
  if (!words) return;
  document.querySelector('form.signout')?.setAttribute('action', '/console/access/signout');
  document
    .querySelector('nav.pages')
    ?.after(
      el(
        'div',
        { class: 'switched', role: 'region', 'aria-label': 'Switched fleet' },
        el('p', {}, `${words}.`),
        switchForm('back', 'Back to my fleet', 'Back to my fleet'),
      ),
    );
}

/** A page the API refuses this person (403: a crew member's or an access-group session's limits), in the API's words. */
function notAvailable(words: string): HTMLElement {
  return el(
    'section',
    { class: 'view not-available', 'aria-labelledby': 'na-h' },
    el('h1', { id: 'na-h' }, 'Not available to your account'),
    el('p', { class: 'refusal' }, words),
    el('p', {}, el('a', { href: '/console/runs' }, 'Your restock runs')),
  );
}

async function start(): Promise<void> {
  const top = document.querySelector('header.top');
  top?.append(signOutForm());
  top?.after(nav());
  void switchedBanner();
  const main = document.getElementById('main')!;
  let view: HTMLElement;
  try {
    view = await route();
  } catch (e) {
    view =
      e instanceof ApiError && e.status === 403
        ? notAvailable(e.message)
        : el('section', { class: 'view' }, el('h1', {}, 'Something went wrong'), el('p', { class: 'flash error' }, e instanceof Error ? e.message : String(e)));
  }
  main.replaceChildren(view);
  focusHeading(main);
}

void start();
