import { afterEach, describe, expect, it } from 'vitest';
import { VmcDriver, serialportTransport } from '@vend/agent';
import type { DispenseBinding, SerialConnection, SerialTransport } from '@vend/agent';
import { mockRig } from './support/vmc-rig.ts';

// What the agent's crash journal relies on from the driver, against the simulated board over
// serialport's mock binding: the binding of a dispense is handed over before its frame goes on
// the wire, and after a "crash" (the driver dropped, a new one opened) the fate of that frame is
// read back from the board — never by sending a new request.

type Rig = Awaited<ReturnType<typeof mockRig>>;
let rig: Rig | null = null;
const extra: VmcDriver[] = [];
afterEach(async () => {
  for (const d of extra.splice(0)) await d.close();
  await rig?.close();
  rig = null;
});

async function start(): Promise<Rig> {
  rig = await mockRig({ board: { module: 'SH', motorMs: 1200, dropMs: 300 } });
  return rig;
}

/** The agent after a restart: a new driver on the same port. */
function restarted(r: Rig): VmcDriver {
  const d = new VmcDriver({ transport: serialportTransport({ binding: r.link.binding }), path: r.link.hostPath, clock: r.clock });
  extra.push(d);
  return d;
}

/** A transport whose process can be "killed": its port closes and it never opens one again. */
function killable(inner: SerialTransport): { transport: SerialTransport; kill(): Promise<void> } {
  let dead = false;
  let conn: SerialConnection | null = null;
  return {
    transport: {
      list: () => inner.list(),
      open: async (path, events) => {
        if (dead) throw new Error('this process is dead');
        conn = await inner.open(path, { data: (c) => !dead && events.data(c), closed: (e) => !dead && events.closed(e) });
        return { write: (b) => (dead ? Promise.reject(new Error('dead')) : conn!.write(b)), close: () => conn!.close() };
      },
    },
    kill: async () => {
      dead = true;
      await conn?.close();
    },
  };
}

describe('driver: the binding reaches the journal before the board', () => {
  it('onRequest gets the seq and boot id the frame carries and the board’s last seq, before the board has seen anything', async () => {
    const r = await start();
    await r.run(r.driver.connect());
    const seen: { b: DispenseBinding; requestsAtThatMoment: number }[] = [];
    const rep = await r.run(
      r.driver.dispense(7, {
        onRequest: async (b) => {
          seen.push({ b, requestsAtThatMoment: r.sim.board.dispenseRequests });
        },
      }),
    );
    expect(rep.outcome).toBe('success');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.requestsAtThatMoment).toBe(0);
    expect(seen[0]!.b).toMatchObject({ aisle: 7, bootId: r.sim.board.bootId, seq: rep.seq });
    expect(seen[0]!.b.boardLastSeq).not.toBe(rep.seq);
    expect(r.sim.motorLog.map((m) => m.seq)).toEqual([rep.seq]);
  });

  it('a failure to journal sends nothing', async () => {
    const r = await start();
    await expect(
      r.run(
        r.driver.dispense(7, {
          onRequest: async () => {
            throw new Error('ENOSPC');
          },
        }),
      ),
    ).rejects.toThrow('ENOSPC');
    expect(r.sim.board.dispenseRequests).toBe(0);
  });
});

describe('driver: resolving an interrupted dispense after a restart', () => {
  it('the board finished it: the identical frame is sent again and the stored result comes back; the motor ran once', async () => {
    const r = await start();
    let binding: DispenseBinding | null = null;
    await r.run(r.driver.dispense(9, { onRequest: async (b) => void (binding = b) }));
    await r.driver.close(); // the agent dies before its outcome reached the journal
    const d = restarted(r);
    const res = await r.run(d.resolveDispense(binding!));
    expect(res).toMatchObject({ state: 'resolved', report: { outcome: 'success', motorRan: 'yes', aisle: 9 } });
    expect(r.sim.motorLog).toHaveLength(1);
    expect(r.sim.board.dispenseRequests).toBe(1);
    expect(r.sim.board.retransmissions).toBe(1);
  });

  it('the board was still vending it: the agent waits for that result, and the motor runs once', async () => {
    const r = await start();
    const k = killable(serialportTransport({ binding: r.link.binding }));
    const doomed = new VmcDriver({ transport: k.transport, path: r.link.hostPath, clock: r.clock, timings: { openAttempts: 1 } });
    let binding: DispenseBinding | null = null;
    void doomed.dispense(9, { onRequest: async (b) => void (binding = b) }).catch(() => {});
    await r.clock.pass(300); // the ACK is in, the motor is running
    expect(r.sim.board.dispenseRequests).toBe(1);
    expect(r.sim.board.state).toBe('dispensing');
    await k.kill(); // SIGKILL: its port closes, it sends nothing more
    const d = restarted(r);
    const res = await r.run(d.resolveDispense(binding!));
    expect(res).toMatchObject({ state: 'resolved', report: { outcome: 'success' } });
    expect(r.sim.motorLog).toHaveLength(1);
  });

  it('the frame never reached the board: not sent, and nothing is sent now', async () => {
    const r = await start();
    let binding: DispenseBinding | null = null;
    await expect(
      r.run(
        r.driver.dispense(9, {
          onRequest: async (b) => {
            binding = b;
            throw new Error('killed between the journal and the wire');
          },
        }),
      ),
    ).rejects.toThrow();
    await r.driver.close();
    const d = restarted(r);
    const res = await r.run(d.resolveDispense(binding!));
    expect(res.state).toBe('not-sent');
    expect(r.sim.board.dispenseRequests).toBe(0);
    expect(r.sim.motorLog).toHaveLength(0);
  });

  it('the board restarted since: undecided (the motor may have run), and no frame is sent', async () => {
    const r = await start();
    let binding: DispenseBinding | null = null;
    await r.run(r.driver.dispense(9, { onRequest: async (b) => void (binding = b) }));
    await r.driver.close();
    await r.sim.apply({ do: 'reboot' });
    const d = restarted(r);
    const res = await r.run(d.resolveDispense(binding!));
    expect(res).toMatchObject({ state: 'resolved', report: { outcome: 'no_result', motorRan: 'unknown' } });
    expect(res.state === 'resolved' && res.report.detail).toMatch(/restarted.*check the machine/);
    expect(r.sim.board.dispenseRequests).toBe(1);
    expect(r.sim.board.retransmissions).toBe(0);
  });

  it('another frame followed it (someone used the board meanwhile): undecided, nothing sent', async () => {
    const r = await start();
    let binding: DispenseBinding | null = null;
    await r.run(r.driver.dispense(9, { onRequest: async (b) => void (binding = b) }));
    await r.run(r.driver.info()); // a sequenced query after the dispense
    await r.driver.close();
    const d = restarted(r);
    const res = await r.run(d.resolveDispense(binding!));
    expect(res).toMatchObject({ state: 'resolved', report: { outcome: 'no_result', motorRan: 'unknown' } });
    expect(r.sim.board.dispenseRequests).toBe(1);
  });

  it('a new dispense after a restart never reuses the seq the board remembers', async () => {
    const r = await start();
    const first = await r.run(r.driver.dispense(3, { onRequest: async () => {} }));
    await r.driver.close();
    const d = restarted(r);
    const second = await r.run(d.dispense(4, { onRequest: async () => {} }));
    expect(second.outcome).toBe('success');
    expect(second.seq).not.toBe(first.seq);
    expect(r.sim.motorLog.map((m) => m.aisle)).toEqual([3, 4]);
  });
});
