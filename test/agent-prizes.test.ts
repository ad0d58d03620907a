import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlPrizeEventsAccepted, ControlPrizeState, ControlStatus } from '@vend/protocol';
import { VEND_AGENT, run } from './support/processes.ts';
import { openStoreReadonly } from './support/sqlite.ts';
import { cleanup, startAgent, startCloud, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentOptions, AgentProc, CloudProc } from './support/cabinet-rig.ts';

// The kiosk prize game on the cabinet, as real processes: the cloud sandbox (SQLite in a temp
// DATA_DIR; Alice's station kiosk runs spinToWin, at most 3.00 a prize, and loyaltyStamp) and
// `vend-agent run` enrolled with the sandbox fleet secret. The kiosk posts its game events to the
// agent's control channel without a token; the cloud's `prize_events` are read from its store.

const MACHINE = 'SBX-ALICE-0001';
const dir = tempDir('agent-prizes-');
let cloud: CloudProc;
let agent: AgentProc;
let cloudPort: number;

const agentOptions = (): AgentOptions => ({
  stateDir: join(dir, 'agent'),
  cloudUrl: cloud.url,
  equipmentNo: MACHINE,
  serialPort: join(dir, 'no-board'),
  env: {
    VEND_AGENT_PRIZE_EVENT_FLUSH_SECONDS: '0',
    VEND_AGENT_VMC_OPEN_ATTEMPTS: '1',
    VEND_AGENT_VMC_OPEN_BACKOFF_MS: '10',
  },
});

const kiosk = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(agent.control + path, {
    method,
    headers: body !== undefined ? { 'content-type': 'application/json' } : {},
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
};
const post = async (events: object[]): Promise<ControlPrizeEventsAccepted> => {
  const r = await kiosk<ControlPrizeEventsAccepted>('POST', '/v1/prizes/events', { events });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body;
};
const prizeState = async (): Promise<ControlPrizeState> => {
  const r = await kiosk<ControlPrizeState>('GET', '/v1/prizes/state');
  expect(r.status).toBe(200);
  return r.body;
};
const cli = (...args: string[]) => run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, ...args]);
const prizesStatus = async (): Promise<NonNullable<ControlStatus['prizes']>> => {
  const r = await cli('status', '--json');
  return (JSON.parse(r.stdout) as ControlStatus).prizes!;
};

/** The events the agent delivered for the machine (the sandbox seed's aside), by event id: verdict and how many rows. */
function ledger(): Map<string, { refusal: string | null; rows: number }> {
  const db = openStoreReadonly(join(cloud.dataDir, 'vend-sandbox.sqlite'));
  try {
    const rows = db
      .prepare(
        `select e.event_id as eventId, e.refusal as refusal, count(*) as rows from prize_events e join machines m on m.id = e.machine_id
         where m.machine_no = ? and e.event_id like 'kiosk-%' group by e.event_id, e.refusal`,
      )
      .all(MACHINE) as { eventId: string; refusal: string | null; rows: number }[];
    return new Map(rows.map((r) => [r.eventId, { refusal: r.refusal, rows: r.rows }]));
  } finally {
    db.close();
  }
}

const T = Date.now() - 600_000;
/** One shopper's round i: scan, entry, play on spinToWin, and a win of `value` (the cap is 3.00). */
const round = (i: number, value: number) => [
  { eventId: `kiosk-${i}-scan`, kind: 'scan', at: T + i * 1000 },
  { eventId: `kiosk-${i}-entry`, kind: 'entry', mechanic: 'spinToWin', at: new Date(T + i * 1000 + 100).toISOString() },
  { eventId: `kiosk-${i}-play`, kind: 'play', mechanic: 'spinToWin', at: T + i * 1000 + 200 },
  { eventId: `kiosk-${i}-win`, kind: 'win', mechanic: 'spinToWin', at: T + i * 1000 + 300, prizeValue: value },
];

afterAll(async () => {
  await cleanup(dir);
});

beforeAll(async () => {
  cloud = await startCloud({ dataDir: join(dir, 'cloud') });
  cloudPort = cloud.port;
  agent = await startAgent(agentOptions());
}, 120_000);

describe('the kiosk prize game on the cabinet ↔ the real cloud', () => {
  it('serves the cloud’s prize state to the kiosk without a token, fetched with the device key', async () => {
    const s = await waitFor(
      async () => {
        const x = await prizeState();
        return x.source === 'cloud' ? x : undefined;
      },
      30_000,
      'the agent to enrol and fetch the prize state',
    );
    expect(s.state?.mechanics).toMatchObject({
      spinToWin: { enabled: true, maxWinsPerDay: 6, maxPrizeValue: 3 },
      loyaltyStamp: { enabled: true },
      scratchCard: { enabled: false },
    });
    expect(typeof s.state?.budgetLeft).toBe('number');
  });

  it('events the kiosk posts reach the cloud once, a resent POST included; a win over the cap is refused there and still leaves the spool', async () => {
    const events = [...round(0, 1), ...round(1, 5)];
    expect(await post(events)).toMatchObject({ accepted: 8, duplicates: 0 });
    await post(events.slice(6)); // the kiosk resends (its answer was lost)
    await waitFor(async () => (await prizesStatus()).events.backlog === 0 && ledger().size >= 8, 20_000, 'the events to be delivered');
    const l = ledger();
    expect([...l.keys()].sort()).toEqual(events.map((e) => e.eventId).sort());
    for (const e of events) expect(l.get(e.eventId)?.rows, e.eventId).toBe(1);
    for (const id of ['kiosk-0-scan', 'kiosk-0-entry', 'kiosk-0-play', 'kiosk-1-scan']) expect(l.get(id)?.refusal, id).toBeNull();
    expect(l.get('kiosk-1-win')?.refusal).toBe('over_max_prize_value');
    expect((await prizesStatus()).events).toMatchObject({ backlog: 0, dropped: 0, rejected: 0 });
    expect((await prizeState()).source).toBe('cloud');
  });

  it('with the cloud stopped: the state is still served, events survive a SIGKILL of the agent, then reach the cloud once when it returns', async () => {
    const before = await prizeState();
    await cloud.stop();
    const offline = [...round(2, 2), ...round(3, 9)];
    expect(await post(offline)).toMatchObject({ accepted: 8, backlog: 8 });
    await agent.kill(); // a power cut: the events and the state are on disk
    agent = await startAgent(agentOptions());
    const kept = await prizeState();
    expect(kept).toMatchObject({ source: 'disk', state: before.state });
    expect((await prizesStatus()).events.backlog).toBe(8);
    const shown = await cli('status');
    expect(shown.stdout).toMatch(/prize events\s+8 event\(s\) waiting/);

    cloud = await startCloud({ dataDir: join(dir, 'cloud'), port: cloudPort });
    await waitFor(async () => (await prizesStatus()).events.backlog === 0, 30_000, 'the kept events to be delivered');
    const l = ledger();
    expect(l.size).toBe(16);
    for (const e of offline) expect(l.get(e.eventId)?.rows, e.eventId).toBe(1);
    expect(l.get('kiosk-3-win')?.refusal).toBe('over_max_prize_value');
    expect((await prizeState()).source).toBe('cloud');
  });

  it('with the daemon down, status reads the prize spool from the state directory', async () => {
    await agent.stop();
    const st = await cli('status', '--json');
    expect(st.code).toBe(5);
    expect(JSON.parse(st.stdout)).toMatchObject({ daemon: 'not running', prizes: { events: { backlog: 0, delivered: 16 }, state: { source: 'disk' } } });
    const human = await cli('status');
    expect(human.stdout).toMatch(/prize events\s+0 event\(s\) waiting for the cloud/);
  });
});
