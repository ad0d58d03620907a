import type { KioskCheckout, KioskItem, KioskScreen } from '@vend/protocol';
import { AgentError, agent } from './agent.ts';
import { FINAL_STEPS, countdownText, qrImage, renderCheckout, stepOf } from './checkout-view.ts';
import type { Step } from './checkout-view.ts';
import { focusHeading, h } from './dom.ts';
import { LoopPlayer } from './loop-player.ts';
import { renderService } from './service-view.ts';
import { renderStorefront } from './storefront-view.ts';

/** The screen polls the agent this often for goods and states, and this often for a purchase under way. */
const SCREEN_POLL_MS = 3_000;
const CHECKOUT_POLL_MS = 1_000;
/** Back to the loop after this long without a touch in the storefront, and this long after a purchase ended. */
const SHOP_IDLE_MS = 45_000;
const FINISHED_SHOWN_MS = 10_000;

type Mode = 'loop' | 'shop' | 'checkout' | 'service';

const params = new URLSearchParams(location.search);
const speed = Math.min(600, Math.max(1, Number(params.get('speed')) || 1));

const stage = h('div', { class: 'stage' });
const caption = h('p', { class: 'caption' });
const touchHint = h('p', { class: 'touch-hint', hidden: true }, 'Touch the screen to shop');
const loopLayer = h('div', { class: 'loop', 'aria-hidden': 'false' }, stage, caption, touchHint);
const ribbon = h('p', { class: 'ribbon', role: 'status', 'aria-live': 'polite', hidden: true });
const view = h('main', { class: 'views', id: 'view', hidden: true });
const corner = h('button', { type: 'button', class: 'service-corner', 'aria-label': 'Service (technicians only)', tabindex: -1 });
document.body.append(h('h1', { class: 'visually-hidden', id: 'screen-title' }, 'Vending machine screen'), loopLayer, ribbon, view, corner);

const player = new LoopPlayer({ stage, caption, fetchLoop: agent.loop, sendPlays: agent.plays, speed });

let mode: Mode = 'loop';
let screen: KioskScreen | null = null;
let shopKey = '';
let idleTimer: ReturnType<typeof setTimeout> | null = null;
let checkoutTimer: ReturnType<typeof setInterval> | null = null;
let shownStep: Step | null = null;
let qr: HTMLImageElement | null = null;
let qrFor = '';
let secondsLeft = 0;
let finishedTimer: ReturnType<typeof setTimeout> | null = null;

// the page's state for tests and the technician (nothing secret: what the screen shows)
Object.assign(window, {
  kioskScreen: {
    get mode() {
      return mode;
    },
    player,
  },
});
document.body.dataset['mode'] = mode;

function setMode(next: Mode): void {
  mode = next;
  document.body.dataset['mode'] = next;
  if (idleTimer) clearTimeout(idleTimer);
  if (finishedTimer) clearTimeout(finishedTimer);
  if (checkoutTimer) clearInterval(checkoutTimer);
  idleTimer = finishedTimer = checkoutTimer = null;
  if (next === 'loop') {
    view.hidden = true;
    view.replaceChildren();
    loopLayer.setAttribute('aria-hidden', 'false');
    player.start();
  } else {
    player.stop();
    loopLayer.setAttribute('aria-hidden', 'true');
    view.hidden = false;
  }
}

function storefrontOn(): boolean {
  return screen?.features['htmlStorefront'] === true;
}

function ribbonText(s: KioskScreen): string | null {
  if (s.retired) return 'This machine is out of service.';
  if (!s.cloud.reachable) return 'Offline: paying by phone is unavailable for now.';
  // the agent's own verdict on the board (a jammed lane alone does not stop the others)
  return s.payByPhone ? null : s.payByPhoneReason;
}

async function pollScreen(): Promise<void> {
  try {
    screen = await agent.screen();
  } catch {
    screen = null;
  }
  const text = screen ? ribbonText(screen) : 'Starting up…';
  ribbon.hidden = text === null;
  ribbon.textContent = text ?? '';
  touchHint.hidden = !storefrontOn() || screen?.retired === true;
  if (mode === 'shop' && screen) showShop(false);
}

// --- the storefront ---------------------------------------------------------------------------------

function armIdle(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => setMode('loop'), SHOP_IDLE_MS);
}

function showShop(entering: boolean, notice?: string): void {
  if (!screen) return;
  const key = JSON.stringify([screen.items, screen.payByPhone, screen.payByPhoneReason, screen.busy, screen.currency, notice]);
  if (!entering && key === shopKey) return;
  shopKey = key;
  const focusedAisle = (document.activeElement as HTMLElement | null)?.dataset['aisle'];
  if (entering) setMode('shop');
  const section = renderStorefront(
    screen,
    (item) => void choose(item),
    () => setMode('loop'),
  );
  if (notice) section.querySelector('h1')!.after(h('p', { class: 'notice', role: 'alert' }, notice));
  view.replaceChildren(section);
  if (entering) focusHeading(section);
  else if (focusedAisle) section.querySelector<HTMLElement>(`[data-aisle="${focusedAisle}"]`)?.focus();
  armIdle();
}

async function choose(item: KioskItem): Promise<void> {
  try {
    const checkout = await agent.startCheckout(item.aisleNo);
    await showCheckout(checkout);
  } catch (e) {
    const message = e instanceof AgentError ? e.message : 'Something went wrong; please try again';
    await pollScreen();
    showShop(true, message);
  }
}

// --- the purchase -----------------------------------------------------------------------------------

async function showCheckout(c: KioskCheckout): Promise<void> {
  if (mode !== 'checkout') {
    setMode('checkout');
    shownStep = null;
    checkoutTimer = setInterval(() => void followCheckout(), CHECKOUT_POLL_MS);
  }
  const step = stepOf(c);
  if (step === 'pay' && qrFor !== c.payUrl) {
    qr = await qrImage(c.payUrl);
    qrFor = c.payUrl;
  }
  secondsLeft = c.secondsLeft;
  if (step === shownStep) {
    // the same step: only the countdown moves (the view stays, and with it the keyboard's focus)
    const countdown = view.querySelector('.countdown');
    if (countdown) countdown.textContent = countdownText(secondsLeft);
    return;
  }
  shownStep = step;
  const section = renderCheckout(
    c,
    step,
    qr,
    secondsLeft,
    () => void cancel(),
    () => setMode('loop'),
  );
  view.replaceChildren(section);
  focusHeading(section);
  if (FINAL_STEPS.includes(step) && !finishedTimer) finishedTimer = setTimeout(() => setMode('loop'), FINISHED_SHOWN_MS);
}

async function followCheckout(): Promise<void> {
  if (mode !== 'checkout') return;
  try {
    const c = await agent.checkout();
    if (mode !== 'checkout') return;
    if (c === null) return setMode('loop');
    await showCheckout(c);
  } catch {
    // the agent restarts: keep showing the last step; the next poll tries again
  }
}

async function cancel(): Promise<void> {
  await agent.cancelCheckout();
  await followCheckout();
}

// --- service mode ------------------------------------------------------------------------------------

let taps: number[] = [];
function openService(): void {
  setMode('service');
  const section = renderService(agent.service, () => setMode('loop'));
  view.replaceChildren(section);
  focusHeading(section);
}
corner.addEventListener('click', () => {
  const now = Date.now();
  taps = [...taps.filter((t) => now - t < 4_000), now];
  if (taps.length >= 5) {
    taps = [];
    openService();
  }
});

// --- input ---------------------------------------------------------------------------------------------

function wake(): void {
  if (mode === 'loop' && storefrontOn() && screen && !screen.retired) showShop(true);
  else if (mode === 'shop') armIdle();
}
loopLayer.addEventListener('click', wake);
document.addEventListener('keydown', (e) => {
  if (e.ctrlKey && e.shiftKey && e.key.toLowerCase() === 's') {
    e.preventDefault();
    openService();
    return;
  }
  if (mode === 'loop' && (e.key === 'Enter' || e.key === ' ')) {
    e.preventDefault();
    wake();
  } else if (mode === 'shop') armIdle();
  if (e.key === 'Escape' && mode === 'shop') setMode('loop');
});
document.addEventListener('pointerdown', () => mode === 'shop' && armIdle());

// --- start ---------------------------------------------------------------------------------------------

async function boot(): Promise<void> {
  await pollScreen();
  setInterval(() => void pollScreen(), SCREEN_POLL_MS);
  // a reload during a purchase picks it up again
  const current = await agent.checkout().catch(() => null);
  if (current && !FINAL_STEPS.includes(stepOf(current))) await showCheckout(current);
  else if (mode === 'loop') player.start(); // (a shopper may have touched the screen meanwhile)
}
void boot();
