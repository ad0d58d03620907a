import type { Clock, ControlPlanogram, ControlStatus, FeatureFlags, KioskServiceAnswer, ServiceAction } from '@vend/protocol';
import type { CloudClient } from '../cloud/client.ts';
import type { KioskStorefrontApi } from '../control/kiosk-screen.ts';
import type { GateVerdict } from '../service/index.ts';
import { controlVerdict } from '../service/index.ts';
import type { DispenseBook } from '../spool/book.ts';
import { dispenseIdForCommand } from '../spool/dispenser.ts';
import { CheckoutTracker } from './checkout-tracker.ts';
import type { LocalDrop } from './checkout-tracker.ts';
import { storefrontView } from './storefront.ts';

export { CheckoutTracker, KioskRefused, FINISHED_HOLD_MS } from './checkout-tracker.ts';
export { storefrontView, itemOf } from './storefront.ts';

export interface StorefrontParts {
  machineCode: string;
  cloudUrl: string;
  clock: Clock;
  client: Pick<CloudClient, 'createCheckout' | 'checkout' | 'cancelCheckout' | 'reachability'>;
  planogram: (signal: AbortSignal) => Promise<ControlPlanogram>;
  status: () => ControlStatus;
  features: () => FeatureFlags;
  book: Pick<DispenseBook, 'get'>;
  /** The dispense on the wire now (its dispense id), if any. */
  inFlight: () => string | null;
  /** The cabinet's service-code gate (its lockout applies to the screen's keypad too). */
  checkCode: (code: string, action: ServiceAction) => Promise<GateVerdict>;
}

/** The board's view of a command's drop: taken (vending), done, or not yet seen. */
export function localDropOf(book: Pick<DispenseBook, 'get'>, inFlight: () => string | null): LocalDrop {
  return (commandId) => {
    const id = dispenseIdForCommand(commandId);
    const entry = book.get(id);
    if (entry?.outcome) return entry.outcome.success ? 'vended' : 'failed';
    return entry?.intent || inFlight() === id ? 'vending' : null;
  };
}

/** The storefront the kiosk routes serve (docs/kiosk-screen.md), built from the daemon's parts. */
export function storefront(p: StorefrontParts): KioskStorefrontApi & { tracker: CheckoutTracker } {
  const tracker = new CheckoutTracker({ client: p.client, clock: p.clock, localDrop: localDropOf(p.book, p.inFlight) });
  return {
    tracker,
    screen: (signal) =>
      storefrontView(
        {
          machineCode: p.machineCode,
          planogram: p.planogram,
          status: p.status,
          features: p.features,
          retired: () => p.client.reachability.retired,
          checkout: tracker,
          cloudUrl: p.cloudUrl,
        },
        signal,
      ),
    startCheckout: (aisleNo, signal) => tracker.start(aisleNo, signal),
    currentCheckout: (signal) => tracker.current(signal),
    cancelCheckout: (signal) => tracker.cancel(signal),
    service: async (code): Promise<KioskServiceAnswer> => {
      const check = controlVerdict(await p.checkCode(code, 'screen'), p.clock);
      return { check, status: check.result === 'ok' ? p.status() : null };
    },
  };
}
