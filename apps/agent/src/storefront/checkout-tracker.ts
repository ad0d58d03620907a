import { CHECKOUT_FINAL } from '@vend/protocol';
import type { CheckoutData, Clock, KioskCheckout } from '@vend/protocol';
import { CloudError } from '../cloud/client.ts';
import type { CloudClient } from '../cloud/client.ts';
import { elapsedNow } from '../state/monotonic.ts';

/** How often the screen's polls reach the cloud for the purchase under way (the screen polls faster; it gets the last copy). */
const REFRESH_MS = 1_500;
/** A finished purchase is still answered this long (a screen reloaded meanwhile shows how it ended); a new one may start at once. */
export const FINISHED_HOLD_MS = 20_000;

/** A kiosk request the agent refuses: the status and a code the screen shows a message for. */
export class KioskRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'KioskRefused';
  }
}

/** What the board did with the purchase's drop, from the dispense book (null: not taken yet). */
export type LocalDrop = (commandId: string) => 'vending' | 'vended' | 'failed' | null;

export interface CheckoutTrackerDeps {
  client: Pick<CloudClient, 'createCheckout' | 'checkout' | 'cancelCheckout'>;
  clock: Clock;
  localDrop: LocalDrop;
}

interface Active {
  data: CheckoutData;
  /** Monotonic time of the last answer from the cloud. */
  fetched: number;
  stale: boolean;
  /** Monotonic time the cloud's expiry falls at, as of its last answer. */
  deadline: number;
  /** Monotonic time it was first seen finished (null: not finished). */
  finishedAt: number | null;
}

const isFinal = (c: CheckoutData): boolean => CHECKOUT_FINAL.includes(c.status);

/**
 * The one purchase under way on this cabinet (pay by phone, docs/kiosk-screen.md). The cloud makes the
 * checkout, takes the payment and enqueues the drop; this only asks for it, follows it and lays the
 * board's own view over the cloud's (the board knows "vending" and its outcome before the cloud does).
 * One at a time: a second shopper gets `busy` until the first ends and has been shown for a while.
 */
export class CheckoutTracker {
  private active: Active | null = null;
  private starting = false;

  constructor(private readonly d: CheckoutTrackerDeps) {}

  /** A purchase is under way: a new one must wait (a finished one still shown does not hold the next shopper up). */
  get busy(): boolean {
    const a = this.active;
    return this.starting || (a !== null && !this.finished(a) && !this.released(a));
  }

  async start(aisleNo: number, signal: AbortSignal): Promise<KioskCheckout> {
    if (this.busy) throw new KioskRefused(409, 'busy', 'Another purchase is under way on this cabinet; one moment please');
    this.starting = true;
    try {
      const data = await this.d.client.createCheckout(aisleNo, { attempts: 1, signal }).catch((e: unknown) => {
        throw refusalOf(e);
      });
      const now = elapsedNow(this.d.clock);
      this.active = { data, fetched: now, stale: false, deadline: now + data.secondsLeft * 1000, finishedAt: null };
      return this.view(this.active);
    } finally {
      this.starting = false;
    }
  }

  /** The purchase under way (refreshed from the cloud at most every 1.5 s), or null when there is none. */
  async current(signal: AbortSignal): Promise<KioskCheckout | null> {
    const a = this.active;
    if (!a) return null;
    if (this.released(a)) {
      this.active = null;
      return null;
    }
    const now = elapsedNow(this.d.clock);
    if (!isFinal(a.data) && now - a.fetched >= REFRESH_MS) {
      try {
        a.data = await this.d.client.checkout(a.data.checkoutId, { attempts: 1, signal });
        a.stale = false;
        a.deadline = now + a.data.secondsLeft * 1000;
      } catch {
        a.stale = true; // the screen goes on with the last copy, and says so
      }
      a.fetched = now;
    }
    return this.view(a);
  }

  /** The shopper gave up (Back on the screen): an unpaid checkout is cancelled; a paid one goes on. */
  async cancel(signal: AbortSignal): Promise<KioskCheckout | null> {
    const a = this.active;
    if (!a) return null;
    if (a.data.status === 'awaiting_payment') {
      try {
        a.data = await this.d.client.cancelCheckout(a.data.checkoutId, { attempts: 2, signal });
      } catch (e) {
        throw refusalOf(e);
      }
      a.fetched = elapsedNow(this.d.clock);
    }
    return this.view(a);
  }

  private view(a: Active): KioskCheckout {
    this.finished(a);
    return { ...a.data, local: this.local(a), stale: a.stale };
  }

  private local(a: Active): ReturnType<LocalDrop> {
    return a.data.commandId ? this.d.localDrop(a.data.commandId) : null;
  }

  /** Over, by the cloud's word or the board's; notes when it was first seen so. */
  private finished(a: Active): boolean {
    if (a.finishedAt !== null) return true;
    const local = this.local(a);
    if (!isFinal(a.data) && local !== 'vended' && local !== 'failed') return false;
    a.finishedAt = elapsedNow(this.d.clock);
    return true;
  }

  /** Finished and shown long enough, or expired by the cabinet's own clock while the cloud was away. */
  private released(a: Active): boolean {
    const now = elapsedNow(this.d.clock);
    if (a.finishedAt !== null) return now - a.finishedAt >= FINISHED_HOLD_MS;
    // unpaid and past its expiry (the cloud expires it too): free, whatever the cloud says later
    return a.data.status === 'awaiting_payment' && now > a.deadline + REFRESH_MS;
  }
}

/** A failed cloud call as the screen should hear it. */
function refusalOf(e: unknown): KioskRefused {
  if (e instanceof KioskRefused) return e;
  if (e instanceof CloudError) {
    const said = e.message.replace(/^[a-zA-Z]+: (\d{3} )?/, '');
    if (e.kind === 'http' && e.status === 409) return new KioskRefused(409, 'refused', said);
    if (e.kind === 'http' && e.status === 410) return new KioskRefused(410, 'retired', 'This machine is out of service');
    if (e.kind === 'http' && e.status === 503) return new KioskRefused(503, 'pay-by-phone-unavailable', 'Paying by phone is not available on this machine');
    if (e.kind === 'http' && e.status !== null && e.status < 500) return new KioskRefused(e.status === 404 ? 404 : 400, 'refused', said);
    if (e.kind === 'aborted') return new KioskRefused(503, 'stopping', 'The cabinet is restarting');
  }
  return new KioskRefused(503, 'cloud-unreachable', 'Paying by phone is unavailable right now: the machine cannot reach the network');
}
