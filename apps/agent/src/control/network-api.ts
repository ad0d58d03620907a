import type { Clock } from '@vend/protocol';
import type { NetworkProvisioner } from '../network/provisioner.ts';
import { controlVerdict } from '../service/index.ts';
import type { ServiceGate } from '../service/index.ts';
import type { ControlApi } from './server.ts';

/** The control channel's network routes: a token only once the service code was right for `network`. */
export function networkControl(network: NetworkProvisioner, gate: ServiceGate, clock: Clock): NonNullable<ControlApi['network']> {
  return {
    status: () => network.status(),
    token: async (code) => {
      const verdict = await gate.check(code, 'network', 'control');
      return verdict.result === 'ok' ? network.issueToken() : controlVerdict(verdict, clock);
    },
    apply: async (token, req) => {
      const { id, label } = await network.apply(token, req);
      return { id, label };
    },
  };
}
