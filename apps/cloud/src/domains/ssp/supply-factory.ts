import type { Config } from '../../config.ts';
import { HttpSupply } from './http-supply.ts';
import { InProcessSupply } from './in-process-supply.ts';
import type { MockSspService } from './mock-ssp.service.ts';
import { NoSupply, type SupplyAdapter, type SupplyLogger } from './supply.ts';

/**
 * The supply adapter of this deployment, chosen once at start: an outside SSP when `SSP_URL` is set
 * (in either mode), else the built-in mock in sandbox mode, else none (production without an SSP
 * fills nothing; the loop pads with house content).
 */
export function supplyFor(config: Pick<Config, 'mode' | 'ssp'>, mock: MockSspService | null, logger: SupplyLogger): SupplyAdapter {
  if (config.ssp) return new HttpSupply(config.ssp, logger);
  if (config.mode === 'sandbox' && mock) return new InProcessSupply(mock, logger);
  return new NoSupply();
}
