import { describe, expect, it } from 'vitest';
import { ManualClock, encodeHostMessage } from '@vend/protocol';
import { parseAction } from './actions.ts';
import { parseScenario, runScenario } from './scenario.ts';
import { VmcSimulator } from './simulator.ts';
import { seededRandom } from './rng.ts';
import type { SerialFront } from './fronts/front.ts';

/** A front the test types into; what the board sends is ignored (these tests look at the board). */
function typedFront(): SerialFront & { type(bytes: Uint8Array): void } {
  let onData: (c: Uint8Array) => void = () => {};
  return {
    hostPath: undefined,
    plugged: true,
    start: async (fn) => {
      onData = fn;
    },
    write: () => {},
    unplug: async () => {},
    replug: async () => {},
    stop: async () => {},
    type: (bytes) => onData(bytes),
  };
}

describe('scenario files', () => {
  it('accepts board settings and timed or counted steps', () => {
    const s = parseScenario({
      board: { module: 'SH', rows: 4, columnsPerRow: 8 },
      seed: 3,
      steps: [
        { at: 0, do: 'jam', aisle: 3 },
        { afterDispenses: 2, do: 'unplug', forMs: 500 },
        { do: 'corrupt', count: 1 },
      ],
    });
    expect(s.board).toEqual({ module: 'SH', rows: 4, columnsPerRow: 8 });
    expect(s.steps).toEqual([
      { at: 0, action: { do: 'jam', aisle: 3 } },
      { afterDispenses: 2, action: { do: 'unplug', forMs: 500 } },
      { action: { do: 'corrupt', count: 1, direction: 'toHost' } },
    ]);
  });

  it('names every problem with its path', () => {
    let message = '';
    try {
      parseScenario({
        board: { module: 'XY', rows: 0 },
        steps: [{ at: -1, do: 'jam', aisle: 1 }, { do: 'fly' }, { at: 1, afterDispenses: 1, do: 'reboot' }],
        extra: 1,
      });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/board\.module/);
    expect(message).toMatch(/board\.rows/);
    expect(message).toMatch(/steps\.0\.at/);
    expect(message).toMatch(/steps\.1: unknown action "fly"; known: jam, unjam/);
    expect(message).toMatch(/steps\.2: give "at" or "afterDispenses", not both/);
    expect(message).toMatch(/extra/);
  });

  it('parses actions strictly', () => {
    expect(parseAction({ do: 'jam', aisle: 2 })).toEqual({ ok: true, action: { do: 'jam', aisle: 2 } });
    expect(parseAction({ do: 'jam', aisle: 2, x: 1 })).toMatchObject({ ok: false });
    expect(parseAction({ do: 'jam' })).toMatchObject({ ok: false, error: expect.stringMatching(/^jam: aisle/) });
    expect(parseAction(null)).toMatchObject({ ok: false, error: expect.stringMatching(/unknown action null/) });
  });

  it('applies steps at their time, and after the Nth dispense request', async () => {
    const clock = new ManualClock(0);
    const front = typedFront();
    const sim = new VmcSimulator({ front, clock, random: seededRandom(1), board: { module: 'SH' }, pace: 'off' });
    await sim.start();
    const steps = parseScenario({
      steps: [
        { at: 1000, do: 'jam', aisle: 5 },
        { afterDispenses: 1, do: 'empty', aisle: 6 },
      ],
    }).steps;
    runScenario(sim, steps, clock);
    clock.advance(999);
    expect(sim.board.lane(5).jammed).toBe(false);
    clock.advance(1);
    await Promise.resolve();
    expect(sim.board.lane(5).jammed).toBe(true);
    expect(sim.board.lane(6).stock).toBe(5);
    front.type(encodeHostMessage(1, { kind: 'dispense', aisle: 2, bootId: sim.board.bootId }));
    await Promise.resolve();
    expect(sim.board.dispenseRequests).toBe(1);
    expect(sim.board.lane(6).stock).toBe(0);
  });
});
