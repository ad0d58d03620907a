import { createApi, csrfToken } from './api.ts';
import { el, focusHeading } from './dom.ts';
import { fleetView } from './fleet-view.ts';
import { MachineView, notFound } from './machine-view.ts';

/** Client-side routes on `location.pathname`: the fleet at /console/, a machine's operator view at /console/machines/<no>. */
async function route(): Promise<HTMLElement> {
  const api = createApi(csrfToken());
  const path = location.pathname.replace(/\/+$/, '');
  const machine = /^\/console\/machines\/([^/]+)$/.exec(path);
  if (machine) {
    const machineNo = decodeURIComponent(machine[1]!);
    document.title = `${machineNo} · Console`;
    return new MachineView(api, machineNo).mount();
  }
  if (path === '/console' || path === '') {
    document.title = 'Machines · Console';
    return fleetView(api);
  }
  return notFound();
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

async function start(): Promise<void> {
  document.querySelector('header.top')?.append(signOutForm());
  const main = document.getElementById('main')!;
  let view: HTMLElement;
  try {
    view = await route();
  } catch (e) {
    view = el(
      'section',
      { class: 'view' },
      el('h1', {}, 'Something went wrong'),
      el('p', { class: 'flash error' }, e instanceof Error ? e.message : String(e)),
    );
  }
  main.replaceChildren(view);
  focusHeading(main);
}

void start();
