import { startControlServer } from './server.ts';
import type { ControlApi, ControlServer } from './server.ts';

const unused = (): Promise<never> => Promise.reject(new Error('unused in this test'));

/** A control channel on a free loopback port with bearer `tok`, serving only the parts of the API a test gives. */
export function startTestControl(api: Partial<ControlApi>): Promise<ControlServer> {
  return startControlServer({
    host: '127.0.0.1',
    port: 0,
    token: () => 'tok',
    log: { info: () => {}, warn: () => {} },
    api: {
      status: () => {
        throw new Error('unused in this test');
      },
      planogram: unused,
      walkUp: unused,
      vends: () => [],
      enrolNow: unused,
      upgradeCheck: unused,
      ...api,
    },
  });
}
