import { describe, expect, it } from 'vitest';
import {
  CloudClient,
  DispenseBook,
  HttpTransportError,
  JournalRecord,
  MemoryCredentialStore,
  MemoryJsonlJournal,
  cloudStatusOf,
  dispenseIdForCommand,
  formatStatus,
} from '@vend/agent';
import type { HttpRequest, HttpResponse, PendingCommand } from '@vend/agent';
import { FakeBoard, FakeCloud, cabinetParts, until } from './support/cabinet-parts.ts';
import { VirtualClock } from './support/virtual-clock.ts';

// The cabinet's link to the cloud cut for an hour (docs/decisions/outages.md, "The cabinet"), on the agent's
// injected clock so the hour passes in milliseconds: the report spool's retries stay on the capped backoff (no
// hot loop, no give-up), the spool's bound refuses the next vend rather than dropping a report, the status says
// offline since the last answer, and when the link returns every report reaches the cloud exactly once.

const KEY = `dk_0000000000000001:${'a'.repeat(43)}`;
const HOUR = 3_600_000;
const BACKOFF = { baseMs: 1_000, capMs: 60_000 }; // the agent's defaults (config.ts)

/** The agent's real HTTP client over a transport that is the fake cloud, or nothing while the link is cut. */
function linkedClient(clock: VirtualClock, cloud: FakeCloud) {
  const link = { cut: false, calls: [] as { leg: string; at: number; answered: boolean }[] };
  const envelope = (data: unknown): HttpResponse => ({ status: 200, headers: {}, body: JSON.stringify({ code: 0, message: 'ok', data }) });
  const transport = async (req: HttpRequest): Promise<HttpResponse> => {
    const leg = new URL(req.url).pathname.split('/').pop() ?? '';
    link.calls.push({ leg, at: clock.now(), answered: !link.cut });
    if (link.cut) throw new HttpTransportError('network', 'connect ECONNREFUSED', true);
    const body = JSON.parse(req.body ?? '{}') as { dispenseId: string; aisleNo: number };
    if (leg === 'report') return envelope(await cloud.report(body));
    if (leg === 'createOrder') return envelope(await cloud.createOrder(body));
    return { status: 404, headers: {}, body: '{}' };
  };
  const client = new CloudClient({
    baseUrl: 'http://cloud.test',
    equipmentNo: 'M1',
    credentials: new MemoryCredentialStore(KEY),
    transport,
    clock,
    random: () => 0.5,
    timeoutMs: 8_000,
    backoff: BACKOFF,
    log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
  });
  return { client, link };
}

describe('the cabinet offline for an hour', () => {
  it('backs off within bounds, keeps the bound without dropping, shows offline since, delivers each report once', async () => {
    const clock = new VirtualClock();
    const cloud = new FakeCloud(clock);
    const { client, link } = linkedClient(clock, cloud);
    const book = new DispenseBook(new MemoryJsonlJournal(JournalRecord), clock);
    const board = new FakeBoard();
    const spoolMax = 25;
    const { spool, dispenser } = cabinetParts({
      book,
      board,
      cloud: { report: (b: { dispenseId: string }) => client.report(b as never, { attempts: 1 }) } as never,
      clock,
      spoolMax,
      backoff: BACKOFF,
    });
    // walk-ups open their order through the real client too
    (dispenser as unknown as { opts: { client: unknown } }).opts.client = client;
    const abort = new AbortController();
    await dispenser.recover();
    const worker = dispenser.runQueue(abort.signal);

    // 20 sales whose reports have not gone yet, then the link is cut
    for (let i = 0; i < 20; i++) await dispenser.walkUp({ aisle: 1 + (i % 8) });
    const lastHeard = clock.now();
    link.cut = true;
    const cutAt = clock.now();
    // a walk-up cannot open its order: refused before the motor
    await expect(clock.run(dispenser.walkUp({ aisle: 1 }))).rejects.toMatchObject({ code: 'cloud-unreachable' });
    // remote drops the last poll handed over: they need no cloud to run, so they run — up to the bound
    const commands: PendingCommand[] = Array.from({ length: 10 }, (_, i) => ({ commandId: `cmd-${i + 1}`, aisleNo: 10 + i }) as PendingCommand);
    dispenser.offer(commands);
    await clock.run(until(clock, () => dispenser.leased === 0));
    expect(book.depth()).toBe(spoolMax); // 20 + 5 drops; the other 5 refused, not dropped
    expect(board.motorRuns).toBe(spoolMax);
    expect(commands.filter((c) => book.knowsCommand(c.commandId))).toHaveLength(5);
    // past the bound no vend starts, whatever it is
    await expect(dispenser.walkUp({ aisle: 1 })).rejects.toMatchObject({ code: 'spool-full' });

    // the hour
    void spool.start(abort.signal);
    await clock.pass(HOUR);
    const tries = link.calls.filter((c) => c.leg === 'report' && c.at >= cutAt).map((c) => c.at);
    const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(BACKOFF.capMs); // never gives up, never waits past the cap
    expect(Math.min(...gaps.slice(8))).toBeGreaterThanOrEqual(BACKOFF.capMs / 2); // at the cap: no hot loop
    expect(tries.length).toBeLessThanOrEqual(HOUR / (BACKOFF.capMs / 2) + 10);
    expect(cutAt + HOUR - tries.at(-1)!).toBeLessThanOrEqual(BACKOFF.capMs);
    expect(book.depth()).toBe(spoolMax);

    // what the technician and the kiosk are told: not reachable, offline since the last answer
    const view = cloudStatusOf('http://cloud.test', client.reachability, lastHeard);
    expect(view).toMatchObject({ reachable: false, lastAnswerAt: new Date(lastHeard).toISOString() });
    const text = formatStatus(
      {
        cloud: view,
        agent: { version: '1', pid: 1, startedAt: '', uptimeSeconds: 0, stateDir: '', equipmentNo: 'M1', deviceId: '', memory: {} },
        enrolment: { state: 'enrolled', keyId: null } as never,
        board: {
          port: '/dev/x',
          state: 'ok',
          vmcVersion: null,
          module: null,
          rows: null,
          columnsPerRow: null,
          bootId: null,
          problems: [],
          checkedAt: null,
          lastError: null,
        },
        spool: { depth: book.depth(), delivered: 0, duplicates: 0, rejected: [], lastError: null },
        dispensing: { recovered: true, busy: false, current: null, leased: 0, lastActivityAt: null },
        config: { source: 'cache', machineCode: 'M1', pollInterval: 5, heartbeatInterval: 30, dispatchMode: 'x', rows: 6, columnsPerRow: 10, adminPin: null },
        upgrade: { deferring: null, blocked: null, quiet: { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 0 } } as never,
        lastErrors: [],
      },
      clock.now(),
    );
    expect(text).toContain(`NOT REACHABLE (offline since ${new Date(lastHeard).toISOString()})`);

    // the link returns: the spool's next try (within the cap) delivers everything
    link.cut = false;
    const back = clock.now();
    await clock.run(until(clock, () => book.depth() === 0, 50));
    expect(clock.now() - back).toBeLessThanOrEqual(BACKOFF.capMs + 1_000);
    // the next poll lists the drops the bound refused; they run now
    dispenser.offer(commands);
    await clock.run(until(clock, () => dispenser.leased === 0 && book.depth() === 0, 50));

    const expected = [
      ...Array.from({ length: 20 }, (_, i) => `walkup:ORD${String(i + 1).padStart(6, '0')}`),
      ...commands.map((c) => dispenseIdForCommand(c.commandId)),
    ];
    expect([...cloud.kept].sort()).toEqual(expected.sort());
    expect(cloud.received).toHaveLength(30); // exactly once each: nothing resent, nothing lost
    expect(board.motorRuns).toBe(30);
    abort.abort();
    await worker;
  });
});
