import type { ControlStatus } from '@vend/protocol';
import type { Reachability } from './client.ts';

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The status view's `cloud` block from the client's reachability. While calls get no answer the
 * cloud is not reachable, and `lastAnswerAt` is when it was last heard: the kiosk is offline since
 * then (`vend-agent status` prints "offline since"). One answer of any status ends it.
 */
export function cloudStatusOf(url: string, reach: Reachability, registeredAt: number | null): ControlStatus['cloud'] {
  return {
    url,
    reachable: reach.lastAnswerAt !== null && reach.consecutiveFailures === 0,
    lastAnswerAt: iso(reach.lastAnswerAt),
    lastSuccessAt: iso(reach.lastSuccessAt),
    registeredAt: iso(registeredAt),
    lastError: reach.lastError ? { ...reach.lastError, at: iso(reach.lastError.at) } : null,
  };
}
