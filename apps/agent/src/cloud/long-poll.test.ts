import { describe, expect, it } from 'vitest';
import { ManualClock } from '@vend/protocol';
import { CloudClient, CloudError } from './client.ts';
import { MemoryCredentialStore } from './credentials.ts';
import type { HttpRequest, HttpResponse } from './http.ts';
import { PendingPoller } from './long-poll.ts';

const KEY = `dk_${'1'.repeat(16)}:${'a'.repeat(43)}`;
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
const POLL_MS = 3_000;
const cmd = (id: string) => ({ commandId: id, aisleNo: 4, reason: 'promo', externalRef: null, createdAt: '2026-11-20T12:00:00.000+0000' });

type Answer = { commands?: ReturnType<typeof cmd>[]; status?: number; headers?: Record<string, string>; heldMs?: number };

/** A client over a scripted cloud; `heldMs` moves the clock as a cloud holding the answer would. */
function setup(script: (req: HttpRequest, n: number) => Answer | Promise<Answer>) {
  const clock = new ManualClock(1_000_000);
  const requests: HttpRequest[] = [];
  const transport = async (req: HttpRequest): Promise<HttpResponse> => {
    requests.push(req);
    const a = await script(req, requests.length);
    if (a.heldMs) clock.advance(a.heldMs);
    const status = a.status ?? 200;
    const data = req.url.includes('/cabinet/pending') ? { commands: a.commands ?? [] } : { status: 'online', serverTime: '2026-11-22T12:00:00.000+0000' };
    return { status, headers: a.headers ?? {}, body: JSON.stringify({ code: status, message: status < 300 ? 'success' : 'refused', data }) };
  };
  const client = new CloudClient({
    baseUrl: 'http://cloud.test',
    equipmentNo: 'SBX-ALICE-0001',
    credentials: new MemoryCredentialStore(KEY),
    transport,
    clock,
    random: () => 0.5,
    timeoutMs: 8_000,
    backoff: { baseMs: 1_000, capMs: 60_000 },
    log: quiet,
  });
  const known = new Set<string>();
  const poller = new PendingPoller({
    client,
    clock,
    offer: (commands) => commands.filter((c) => !known.has(c.commandId) && known.add(c.commandId)).length,
  });
  return { clock, requests, client, poller };
}

describe('pending long poll (agent)', () => {
  it('asks with wait=25 and a deadline of the wait plus the usual 8 s, for that call only', async () => {
    const { requests, client, poller } = setup(() => ({ heldMs: 25_000 }));
    await poller.poll();
    expect(new URL(requests[0]!.url).searchParams.get('wait')).toBe('25');
    expect(requests[0]!.timeoutMs).toBe(33_000);
    await client.pending({ attempts: 1 });
    expect(new URL(requests[1]!.url).searchParams.has('wait')).toBe(false);
    expect(requests[1]!.timeoutMs).toBe(8_000);
  });

  it('after a held empty answer or new commands it polls again at once', async () => {
    const { poller } = setup((_r, n) => (n === 1 ? { heldMs: 25_000 } : { heldMs: 120, commands: [cmd('cmd_1')] }));
    expect((await poller.poll()).held).toBe(true);
    expect(poller.delayMs(POLL_MS)).toBe(0);
    expect((await poller.poll()).added).toBe(1);
    expect(poller.delayMs(POLL_MS)).toBe(0);
  });

  it('falls back to the poll interval against a cloud that ignores wait (answers empty at once)', async () => {
    const { poller } = setup(() => ({ heldMs: 40 }));
    for (let i = 0; i < 3; i++) {
      expect((await poller.poll()).held).toBe(false);
      expect(poller.delayMs(POLL_MS)).toBe(POLL_MS);
    }
  });

  it('an answer repeating only commands already in hand (a dispense under way) waits the poll interval: no spin', async () => {
    const { poller } = setup(() => ({ commands: [cmd('cmd_1')] }));
    await poller.poll();
    expect(poller.delayMs(POLL_MS)).toBe(0);
    await poller.poll();
    expect(poller.delayMs(POLL_MS)).toBe(POLL_MS);
  });

  it('an error waits the poll interval as before', async () => {
    const { poller } = setup((_r, n) => (n === 1 ? { heldMs: 25_000 } : { status: 503 }));
    await poller.poll();
    expect(poller.delayMs(POLL_MS)).toBe(0);
    await expect(poller.poll()).rejects.toBeInstanceOf(CloudError);
    expect(poller.delayMs(POLL_MS)).toBe(POLL_MS);
  });

  it('a long-held poll answered after newer calls does not replace their witness token', async () => {
    let release!: (a: Answer) => void;
    const { requests, client, poller } = setup((req, n) => {
      if (req.url.includes('/cabinet/pending') && n === 1) return new Promise<Answer>((r) => (release = r));
      return { headers: { 'x-device-witness': `n1.t${n}` } };
    });
    const held = poller.poll(); // sent first, held by the cloud
    await client.heartbeat({});
    await client.heartbeat({});
    release({ heldMs: 25_000, headers: { 'x-device-witness': 'n1.t1' } });
    await held;
    await client.heartbeat({});
    expect(requests.map((r) => r.headers['x-device-witness'])).toEqual([undefined, undefined, 'n1.t2', 'n1.t3']);
  });
});
