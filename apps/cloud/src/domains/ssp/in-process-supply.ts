import { AppError } from '../../http/errors.ts';
import { MOCK_SSP, type MockSspService } from './mock-ssp.service.ts';
import {
  SupplyCounters,
  SupplyPopError,
  type PopTarget,
  type SupplyAdapter,
  type SupplyFill,
  type SupplyLogger,
  type SupplyRequest,
  type SupplyStats,
} from './supply.ts';
import { readAnswer, toWireRequest, WireGetAdRequest } from './vistar-wire.ts';

/**
 * The sandbox's supply: the built-in mock SSP, called in process (no HTTP hop on the getAd path) with
 * the same wire request and the same reading of its answer as `HttpSupply`. Its URLs are paths on
 * this service (`/ssp/mock/creative/1.png`, `/ssp/mock/pop/<leaseId>`), like the house poster's.
 */
export class InProcessSupply implements SupplyAdapter {
  readonly name = 'mock';
  readonly #counters = new SupplyCounters();

  constructor(
    private readonly mock: MockSspService,
    private readonly logger: SupplyLogger,
  ) {}

  async fill(req: SupplyRequest): Promise<SupplyFill[]> {
    if (!(req.maxFills >= 1)) return [];
    this.#counters.asked();
    try {
      // what the route would refuse (a serial the wire format cannot carry) is refused here too
      const wire = WireGetAdRequest.safeParse(toWireRequest(req, MOCK_SSP));
      if (!wire.success) return this.#failed(req, `request not valid for the SSP: ${wire.error.issues[0]?.message ?? 'invalid'}`);
      const read = readAnswer(await this.mock.getAd(wire.data, null), { maxFills: req.maxFills, now: req.now, base: null });
      if (!read.ok) return this.#failed(req, read.reason);
      this.#counters.answered(read.fills.length, read.dropped);
      return read.fills;
    } catch (err) {
      return this.#failed(req, `mock SSP failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** Pops the lease in the mock's book; "already popped" (409) counts as done. */
  async firePop(fill: PopTarget): Promise<void> {
    try {
      await this.mock.pop(fill.leaseId);
    } catch (err) {
      if (err instanceof AppError) {
        if (err.status === 409) return;
        throw new SupplyPopError(`mock SSP refused the PoP of ${fill.leaseId}: ${err.message}`, err.status < 500, err.status);
      }
      throw new SupplyPopError(`mock SSP failed on the PoP of ${fill.leaseId}: ${err instanceof Error ? err.message : String(err)}`, false);
    }
  }

  stats(): SupplyStats {
    return this.#counters.snapshot();
  }

  #failed(req: SupplyRequest, reason: string): SupplyFill[] {
    this.#counters.fail(reason, req.now);
    this.logger.warn({ provider: this.name, machineNo: req.machineNo, reason }, 'programmatic fill failed; the loop goes on without it');
    return [];
  }
}
