import { Sealer } from '../../crypto/secrets.ts';

/**
 * The buyer's status token, sealed on its purchase (AES-256-GCM under a key derived from DATA_KEY, its own
 * derivation so no other sealed value opens with it): the receipt e-mail sent later, from the payment webhook or the
 * receipt loop, can carry the status link, and the row never holds the token in clear (its salted hash still
 * authenticates it).
 */
export class StatusTokenSeal {
  private readonly sealer: Sealer;
  constructor(dataKey: string) {
    this.sealer = new Sealer(`purchase-status-token:${dataKey}`);
  }

  seal(token: string): string {
    return this.sealer.seal(token);
  }

  /** The token; null when the value is not one this deployment sealed (another DATA_KEY, damaged). */
  open(sealed: string): string | null {
    try {
      return this.sealer.open(sealed);
    } catch {
      return null;
    }
  }
}
