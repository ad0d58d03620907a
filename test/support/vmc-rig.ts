import { MockSerialLink, VmcSimulator, seededRandom } from '@vend/firmware-sim';
import type { BoardConfig, PaceMode, SerialFront } from '@vend/firmware-sim';
import { VmcDriver, serialportTransport } from '@vend/agent';
import type { DriverLogger, SerialTransport, VmcTimings } from '@vend/agent';
import type { Clock } from '@vend/protocol';
import { VirtualClock } from './virtual-clock.ts';

export interface MockRigOptions {
  board?: Partial<BoardConfig>;
  timings?: Partial<VmcTimings>;
  seed?: number;
  pace?: PaceMode;
  log?: DriverLogger;
}

/** The agent's driver and the simulator joined by serialport's mock binding, on one virtual clock. */
export async function mockRig(opts: MockRigOptions = {}) {
  const clock = new VirtualClock();
  const link = new MockSerialLink();
  const sim = new VmcSimulator({ front: link, clock, random: seededRandom(opts.seed ?? 1), board: opts.board ?? {}, pace: opts.pace ?? 'frame' });
  await sim.start();
  const transport: SerialTransport = serialportTransport({ binding: link.binding });
  const driver = new VmcDriver({ transport, path: link.hostPath, clock, timings: opts.timings ?? {}, ...(opts.log ? { log: opts.log } : {}) });
  return {
    clock,
    link,
    sim,
    driver,
    /** Runs an operation to completion on the virtual clock. */
    run: <T>(p: Promise<T>): Promise<T> => clock.run(p),
    close: async () => {
      await driver.close();
      await sim.stop();
    },
  };
}

/** The driver and a simulator on any front, on a given clock (the real one for pseudo-terminals). */
export function driverFor(front: SerialFront, transport: SerialTransport, clock: Clock, timings: Partial<VmcTimings>): VmcDriver {
  if (!front.hostPath) throw new Error('front has no host path');
  return new VmcDriver({ transport, path: front.hostPath, clock, timings });
}
