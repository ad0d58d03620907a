import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, parseDex } from '@vend/protocol';
import { startControlServer } from './control-http.ts';
import type { ControlServer } from './control-http.ts';
import { MockSerialLink } from './fronts/mock.ts';
import { seededRandom } from './rng.ts';
import { VmcSimulator } from './simulator.ts';

let server: ControlServer | null = null;
let sim: VmcSimulator | null = null;

async function up(): Promise<{ url: string; sim: VmcSimulator }> {
  sim = new VmcSimulator({ front: new MockSerialLink(), clock: new ManualClock(0), random: seededRandom(1), pace: 'off' });
  await sim.start();
  server = await startControlServer(sim, 0);
  return { url: server.url, sim };
}

afterEach(async () => {
  await server?.close();
  await sim?.stop();
  server = null;
  sim = null;
});

const post = (url: string, body: string) => fetch(`${url}/actions`, { method: 'POST', body });

describe('control port', () => {
  it('listens on loopback only', async () => {
    const { url } = await up();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('applies one action or a list, in order, and shows the result in /state', async () => {
    const { url, sim } = await up();
    const res = await post(
      url,
      JSON.stringify([
        { do: 'jam', aisle: 4 },
        { do: 'empty', aisle: 5 },
        { do: 'dropAcks', count: 2 },
        { do: 'delayAcks', ms: 900, count: 3 },
      ]),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, applied: 4 });
    expect(sim.board.lane(4).jammed).toBe(true);
    const state = (await (await fetch(`${url}/state`)).json()) as { lanes: { aisle: number; stock: number }[]; linkFaults: Record<string, unknown> };
    expect(state.lanes.find((l) => l.aisle === 5)?.stock).toBe(0);
    expect(state.linkFaults).toMatchObject({ dropAcks: 2, delayAcksMs: 900, delayAcksCount: 3 });
    expect(await (await post(url, JSON.stringify({ do: 'clearFaults' }))).json()).toMatchObject({ ok: true });
    expect(sim.board.lane(4).jammed).toBe(false);
    expect(sim.faults.dropAcks).toBe(0);
  });

  it('unplugs and re-plugs the device', async () => {
    const { url, sim } = await up();
    await post(url, JSON.stringify({ do: 'unplug' }));
    expect(sim.snapshot().plugged).toBe(false);
    await post(url, JSON.stringify({ do: 'replug' }));
    expect(sim.snapshot().plugged).toBe(true);
  });

  it('refuses bad input with 400 and a reason, applying nothing from a bad list', async () => {
    const { url, sim } = await up();
    const cases: [string, RegExp][] = [
      ['not json', /body must be JSON/],
      [JSON.stringify({ do: 'explode' }), /unknown action "explode"; known: jam/],
      [JSON.stringify({ do: 'jam' }), /jam: aisle/],
      [JSON.stringify({ do: 'jam', aisle: 61 }), /aisle 61 is outside this machine \(1\.\.60\)/],
      [JSON.stringify([{ do: 'jam', aisle: 1 }, { do: 'nope' }]), /action 1: unknown action "nope"/],
      [JSON.stringify([]), /send 1\.\.100 actions/],
    ];
    for (const [body, why] of cases) {
      const res = await post(url, body);
      expect(res.status, body).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(why);
    }
    expect(sim.board.lane(1).jammed).toBe(false);
    expect((await fetch(`${url}/actions`)).status).toBe(405);
    expect((await fetch(`${url}/nowhere`)).status).toBe(404);
    expect(await (await fetch(`${url}/`)).text()).toMatch(/POST \/actions/);
  });

  it('serves the motor log', async () => {
    const { url } = await up();
    expect(await (await fetch(`${url}/motor-log`)).json()).toEqual([]);
  });
});

describe('control port: DEX read', () => {
  it('GET /dex answers the board audit as a DEX file whose CRC and segment count check out', async () => {
    const { url } = await up();
    const res = await fetch(`${url}/dex`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const parsed = parseDex(Buffer.from(await res.arrayBuffer()).toString('latin1'));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.segments.filter((s) => s.id === 'PA1')).toHaveLength(60);
  });
});
