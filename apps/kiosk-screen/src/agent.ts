import type { ControlAdLoop, ControlAdPlay, KioskCheckout, KioskScreen, KioskServiceAnswer } from '@vend/protocol';

/** A refusal from the agent: its `{error, message}` and status (0: the agent did not answer). */
export class AgentError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const TIMEOUT_MS = 10_000;

async function call<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? 'GET',
      headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
      body: init.body === undefined ? null : JSON.stringify(init.body),
      cache: 'no-store',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new AgentError(0, 'agent-unreachable', 'The machine is starting up');
  }
  const body = (res.status === 204 ? null : await res.json().catch(() => null)) as unknown;
  if (!res.ok && res.status !== 403 && res.status !== 423 && res.status !== 409) {
    const e = (body ?? {}) as { error?: string; message?: string };
    throw new AgentError(res.status, e.error ?? 'error', e.message ?? `HTTP ${res.status}`);
  }
  return { status: res.status, body: body as T };
}

/** The agent's kiosk routes on this page's own origin (the control channel, 127.0.0.1:8770): no token, nothing secret. */
export const agent = {
  screen: async () => (await call<KioskScreen>('/v1/kiosk/screen')).body,
  loop: async () => (await call<ControlAdLoop>('/v1/ads/loop')).body,
  plays: async (plays: ControlAdPlay[]) => {
    await call('/v1/ads/plays', { method: 'POST', body: { plays } });
  },
  startCheckout: async (aisleNo: number) => {
    const r = await call<KioskCheckout | { error: string; message: string }>('/v1/kiosk/checkouts', { method: 'POST', body: { aisleNo } });
    if (r.status !== 201) {
      const e = r.body as { error: string; message: string };
      throw new AgentError(r.status, e.error, e.message);
    }
    return r.body as KioskCheckout;
  },
  /** The purchase under way; null when there is none (any longer). */
  checkout: async (): Promise<KioskCheckout | null> => (await call<KioskCheckout | null>('/v1/kiosk/checkouts/current')).body,
  cancelCheckout: async () => {
    await call('/v1/kiosk/checkouts/current/cancel', { method: 'POST', body: {} }).catch(() => undefined);
  },
  service: async (code: string) => (await call<KioskServiceAnswer>('/v1/kiosk/service', { method: 'POST', body: { code } })).body,
};
