import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ControlAdLoop, ControlAdPlaysAccepted, ControlStatus } from '@vend/protocol';
import { VEND_AGENT, run } from './support/processes.ts';
import { openStoreReadonly } from './support/sqlite.ts';
import { cleanup, startAgent, startCloud, tempDir, waitFor } from './support/cabinet-rig.ts';
import type { AgentOptions, AgentProc, CloudProc } from './support/cabinet-rig.ts';

// Screen advertising on the cabinet, as real processes: the cloud sandbox (SQLite in a temp
// DATA_DIR) and `vend-agent run` enrolled with the sandbox fleet secret (no board: ads need none).
// The kiosk's side is plain HTTP to the agent's control channel, without a token, as its browser
// would call it. The cloud's play ledger (`ad_play_records`) is read from its store.

const MACHINE = 'SBX-ALICE-0002';
const dir = tempDir('agent-ads-');
let cloud: CloudProc;
let agent: AgentProc;
let cloudPort: number;

const agentOptions = (): AgentOptions => ({
  stateDir: join(dir, 'agent'),
  cloudUrl: cloud.url,
  equipmentNo: MACHINE,
  serialPort: join(dir, 'no-board'),
  env: {
    VEND_AGENT_AD_REFRESH_SECONDS: '1',
    VEND_AGENT_AD_STALE_SECONDS: '3',
    VEND_AGENT_AD_PLAY_FLUSH_SECONDS: '0',
    VEND_AGENT_VMC_OPEN_ATTEMPTS: '1',
    VEND_AGENT_VMC_OPEN_BACKOFF_MS: '10',
  },
});

/** The kiosk's calls: no token, the Host its browser would send. */
const kiosk = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
  const res = await fetch(agent.control + path, {
    method,
    headers: body !== undefined ? { 'content-type': 'application/json' } : {},
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as T };
};
const loop = async (): Promise<ControlAdLoop> => {
  const r = await kiosk<ControlAdLoop>('GET', '/v1/ads/loop');
  expect(r.status).toBe(200);
  return r.body;
};
const post = async (plays: { id: string; source?: string; playedAt: string; durationMs?: number }[]): Promise<ControlAdPlaysAccepted> => {
  const r = await kiosk<ControlAdPlaysAccepted>('POST', '/v1/ads/plays', { plays });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return r.body;
};
const cli = (...args: string[]) => run(VEND_AGENT, ['--state-dir', agent.stateDir, '--control-port', new URL(agent.control).port, ...args]);
const adsStatus = async (): Promise<NonNullable<ControlStatus['ads']>> => {
  const r = await cli('status', '--json');
  return (JSON.parse(r.stdout) as ControlStatus).ads!;
};

/** The plays the agent delivered for the machine (the sandbox seed's week of plays aside), oldest first (read while the cloud runs). */
function ledger(): { entry: string; playedAt: number }[] {
  const db = openStoreReadonly(join(cloud.dataDir, 'vend-sandbox.sqlite'));
  try {
    return db
      .prepare(
        `select p.entry_id as entry, p.played_at as playedAt from ad_play_records p join machines m on m.id = p.machine_id
         where m.machine_no = ? and p.id not like 'ply_sbx_%' order by p.played_at, p.entry_id`,
      )
      .all(MACHINE) as { entry: string; playedAt: number }[];
  } finally {
    db.close();
  }
}

const T = Date.now() - 3_600_000;
const showing = (i: number) => ({ id: `house:poster:${(i % 8) + 1}`, source: 'house', playedAt: new Date(T + i * 15_000).toISOString(), durationMs: 15_000 });

afterAll(async () => {
  await cleanup(dir);
});

beforeAll(async () => {
  cloud = await startCloud({ dataDir: join(dir, 'cloud') });
  cloudPort = cloud.port;
  agent = await startAgent(agentOptions());
}, 120_000);

describe('screen ads on the cabinet ↔ the real cloud', () => {
  it('fetches the attract loop with its device key and serves it to the kiosk without a token, URLs made absolute', async () => {
    const l = await waitFor(
      async () => {
        const x = await loop();
        return x.source === 'cloud' && x.entries.length > 0 ? x : undefined;
      },
      30_000,
      'the agent to enrol and fetch the loop',
    );
    expect(l).toMatchObject({ machineCode: MACHINE, slotSeconds: 15, stale: false });
    // The cloud answers paths (/media/…, /advertise/poster/…, /ssp/mock/…): the agent makes them absolute.
    for (const e of l.entries) {
      expect(e.remoteUrl.startsWith(`${cloud.url}/`), e.remoteUrl).toBe(true);
      expect(e.url).toEqual(e.cached ? expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/v1\/ads\/media\/[0-9a-f]{32}$/) : e.remoteUrl);
    }
    // The sandbox seeds a co-op campaign on every New York kiosk; house posters pad the tail.
    expect(l.entries.filter((e) => e.source === 'direct-sold').map((e) => e.campaignId)).toContain('cmp_sbx_fizz');
    expect(l.entries.at(-1)?.remoteUrl).toBe(`${cloud.url}/advertise/poster/${MACHINE}.png`);
    const shown = await cli('ads', 'show', '--json');
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ loop: { machineCode: MACHINE, stale: false, source: 'cloud' } });
  });

  it('plays the kiosk posts reach the cloud’s ledger exactly once, a resent POST included', async () => {
    const first = [0, 1, 2, 3, 4].map(showing);
    expect(await post(first)).toMatchObject({ accepted: 5, duplicates: 0 });
    await post(first.slice(3)); // the kiosk resends (its answer was lost): at most a duplicate
    await waitFor(async () => (await adsStatus()).plays.backlog === 0 && ledger().length >= 5, 20_000, 'the plays to be delivered');
    expect(ledger()).toEqual(first.map((p) => ({ entry: p.id, playedAt: Date.parse(p.playedAt) })));
    const st = await adsStatus();
    expect(st.plays).toMatchObject({ backlog: 0, dropped: 0, rejected: 0 });
    expect(st.loop).toMatchObject({ machineCode: MACHINE, stale: false });
  });

  it('with the cloud stopped: the loop is still served (stale after its age), plays are kept across an agent restart, then delivered once when the cloud returns', async () => {
    const before = await loop();
    await cloud.stop();
    const kept = await loop();
    expect(kept.entries.map((e) => e.id)).toEqual(before.entries.map((e) => e.id));
    const stale = await waitFor(
      async () => {
        const x = await loop();
        return x.stale ? x : undefined;
      },
      15_000,
      'the loop to turn stale',
    );
    expect(stale.fetchedAt).not.toBeNull();
    expect(stale.entries.length).toBe(before.entries.length);
    expect(stale.error).toMatch(/getAd/);

    const offline = [5, 6, 7].map(showing);
    expect(await post(offline)).toMatchObject({ accepted: 3, backlog: 3 });
    // the agent dies (power cut): the plays and the loop are on disk
    await agent.kill();
    agent = await startAgent(agentOptions());
    const afterRestart = await loop();
    expect(afterRestart).toMatchObject({ source: 'disk', stale: true });
    expect(afterRestart.entries.map((e) => e.id)).toEqual(before.entries.map((e) => e.id));
    expect((await adsStatus()).plays.backlog).toBe(3);
    const shown = await cli('ads', 'show');
    expect(shown.code).toBe(4); // a stale loop needs attention
    expect(shown.stdout).toMatch(/STALE/);
    expect(shown.stdout).toMatch(/3 play\(s\) waiting/);

    cloud = await startCloud({ dataDir: join(dir, 'cloud'), port: cloudPort });
    await waitFor(async () => (await adsStatus()).plays.backlog === 0, 30_000, 'the kept plays to be delivered');
    expect(ledger()).toEqual([...[0, 1, 2, 3, 4], ...[5, 6, 7]].map(showing).map((p) => ({ entry: p.id, playedAt: Date.parse(p.playedAt) })));
    await waitFor(async () => (await loop()).source === 'cloud', 15_000, 'a fresh loop');
    expect((await loop()).stale).toBe(false);
  });

  it('with the daemon down, status and ads show read the kept loop and the spool from the state directory', async () => {
    await post([8].map(showing));
    await agent.stop();
    const st = await cli('status', '--json');
    expect(st.code).toBe(5);
    const offline = JSON.parse(st.stdout) as { ads: { loop: { entries: number }; plays: { backlog: number } } };
    expect(offline.ads.loop.entries).toBeGreaterThan(0);
    expect(offline.ads.plays.backlog).toBeLessThanOrEqual(1);
    const shown = await cli('ads', 'show', '--json');
    expect(shown.code).toBe(5);
    expect(JSON.parse(shown.stdout)).toMatchObject({ daemon: 'not running', loop: { machineCode: MACHINE, source: 'disk' } });
  });
});
