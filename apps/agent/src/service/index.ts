import type { Clock } from '@vend/protocol';
import type { AgentConfig } from '../config.ts';
import type { StateDir } from '../state/state-dir.ts';
import { ServiceGate } from './gate.ts';
import type { GateVerdict } from './gate.ts';

export { ServiceGate, codeMatches, controlVerdict, describeVerdict, hashCode } from './gate.ts';
export type { GateStatus, GateVerdict } from './gate.ts';

export interface GateLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * The cabinet's gate on its state directory: the hash is the last configuration block's (kept in
 * `config-block.json`, read at each check so a rotation applies at the next configuration refresh),
 * else the locally configured `serviceCodeHash`.
 */
export function serviceGate(state: StateDir, config: Pick<AgentConfig, 'serviceCodeHash'>, clock: Clock, log: GateLogger): ServiceGate {
  return new ServiceGate({
    file: state.path('serviceCode'),
    clock,
    hash: () => {
      const fromCloud = state.readCachedConfig()?.config.serviceCode;
      if (fromCloud) return { hash: fromCloud, source: 'cloud' };
      return config.serviceCodeHash ? { hash: config.serviceCodeHash, source: 'local' } : null;
    },
    log: (attempt, verdict: GateVerdict) => {
      const line = { serviceAttempt: attempt.id, action: attempt.action, result: attempt.result, source: attempt.source };
      if (verdict.result === 'ok') log.info(line, 'service code accepted');
      else log.warn({ ...line, ...(verdict.result === 'wrong' ? { remaining: verdict.remaining } : {}) }, `service code attempt refused: ${verdict.result}`);
    },
  });
}
