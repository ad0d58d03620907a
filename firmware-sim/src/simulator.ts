import { VmcFrameDecoder, vmcHex } from '@vend/protocol';
import type { Clock } from '@vend/protocol';
import { VmcBoard } from './board.ts';
import type { BoardConfig, BoardOutput, Lane, MotorRun } from './board.ts';
import { LinkFaults } from './link-faults.ts';
import type { LinkFaultState, RandomFaults } from './link-faults.ts';
import { WirePacer } from './wire.ts';
import type { PaceMode } from './wire.ts';
import type { Random } from './rng.ts';
import type { SerialFront } from './fronts/front.ts';
import type { SimAction } from './actions.ts';

export interface SimLog {
  (event: string, fields?: Record<string, unknown>): void;
}

export interface SimulatorOptions {
  board?: Partial<BoardConfig>;
  front: SerialFront;
  clock: Clock;
  random: Random;
  /** Wire pacing in both directions (default `byte`: the real 9600 8N1 line). */
  pace?: PaceMode;
  log?: SimLog;
  /** Log every frame in hex. */
  trace?: boolean;
}

export interface SimState {
  plugged: boolean;
  hostPath: string | undefined;
  board: BoardConfig & { bootId: number; state: string; lastSeq: number; keptSeq: number };
  lanes: Lane[];
  boardFaults: ReturnType<VmcBoard['faultsSnapshot']>;
  linkFaults: LinkFaultState;
  counters: {
    dispenseRequests: number;
    motorRuns: number;
    retransmissions: number;
    framesIn: number;
    badFramesIn: number;
    framesOut: number;
    framesDropped: number;
  };
}

/**
 * A VMC board on a serial line: the board model, the line's faults and the wire's pace, wired to a
 * serial front (pty, device, or mock binding).
 *
 *   front -> faults.incoming -> wire (9600 8N1) -> decoder -> board
 *   board -> faults.outgoing -> wire (9600 8N1) -> front
 */
export class VmcSimulator {
  readonly board: VmcBoard;
  readonly faults: LinkFaults;
  private readonly decoder = new VmcFrameDecoder('host');
  private readonly inWire: WirePacer;
  private readonly outWire: WirePacer;
  private readonly log: SimLog;
  private replugTimer: unknown = null;
  private framesOut = 0;
  private framesDropped = 0;
  private readonly dispenseListeners: ((n: number) => void)[] = [];

  constructor(private readonly opts: SimulatorOptions) {
    this.log = opts.log ?? (() => {});
    this.board = new VmcBoard(opts.board ?? {}, opts.clock, opts.random);
    this.faults = new LinkFaults(opts.random);
    const pace = opts.pace ?? 'byte';
    this.outWire = new WirePacer(opts.clock, (chunk) => opts.front.write(chunk), pace);
    this.inWire = new WirePacer(opts.clock, (chunk) => this.receiveBytes(chunk), pace);
    this.board.output = (out) => this.transmit(out);
  }

  get front(): SerialFront {
    return this.opts.front;
  }

  get motorLog(): readonly MotorRun[] {
    return this.board.motorLog;
  }

  async start(): Promise<void> {
    await this.opts.front.start((chunk) => {
      const got = this.faults.incoming(chunk);
      if (got.length) this.inWire.write(got);
    });
  }

  async stop(): Promise<void> {
    if (this.replugTimer !== null) this.opts.clock.clearTimeout(this.replugTimer);
    this.replugTimer = null;
    this.inWire.clear();
    this.outWire.clear();
    await this.opts.front.stop();
  }

  /** Called with the running count each time the board accepts a new dispense (scenario triggers). */
  onDispense(fn: (n: number) => void): void {
    this.dispenseListeners.push(fn);
  }

  /** Random line trouble for a fault campaign (null to stop). */
  setRandomFaults(r: RandomFaults | null): void {
    this.faults.random = r;
  }

  async apply(a: SimAction): Promise<void> {
    this.log('action', { ...a });
    const b = this.board;
    switch (a.do) {
      case 'jam':
        b.lane(a.aisle).jammed = true;
        return;
      case 'unjam':
        b.lane(a.aisle).jammed = false;
        return;
      case 'empty':
        b.lane(a.aisle).stock = 0;
        return;
      case 'stock':
        b.lane(a.aisle).stock = a.count;
        return;
      case 'motor':
        b.lane(a.aisle).motor = a.present;
        return;
      case 'dropAcks':
        this.faults.dropAcks = a.count;
        return;
      case 'delayAcks':
        this.faults.delayAcksMs = a.ms;
        this.faults.delayAcksCount = a.count ?? Number.POSITIVE_INFINITY;
        return;
      case 'corrupt':
        if (a.direction === 'toHost') this.faults.corruptToHost = a.count;
        else this.faults.corruptToBoard = a.count;
        return;
      case 'loseFrames':
        if (a.direction === 'toHost') this.faults.loseToHost = a.count;
        else this.faults.loseToBoard = a.count;
        return;
      case 'withholdResults':
        b.withholdResults(a.count);
        return;
      case 'liftFault':
        b.setLiftFault(a.on);
        return;
      case 'dropSensor':
        b.setDropSensorHealthy(a.healthy);
        return;
      case 'missDrops':
        b.missDrops(a.count);
        return;
      case 'busy':
        b.busyFor(a.ms);
        return;
      case 'unplug':
        await this.unplug(a.forMs);
        return;
      case 'replug':
        await this.replug();
        return;
      case 'reboot':
        b.reboot(a.vmcVersion === undefined ? {} : { vmcVersion: a.vmcVersion });
        this.decoder.reset();
        return;
      case 'clearFaults':
        b.clearFaults();
        this.faults.clear();
        return;
    }
  }

  async unplug(forMs?: number): Promise<void> {
    if (this.replugTimer !== null) this.opts.clock.clearTimeout(this.replugTimer);
    this.replugTimer = null;
    this.inWire.clear();
    this.outWire.clear();
    this.decoder.reset();
    await this.opts.front.unplug();
    if (forMs !== undefined) {
      this.replugTimer = this.opts.clock.setTimeout(() => {
        this.replugTimer = null;
        this.replug().catch((e: unknown) => this.log('replug failed', { error: String(e) }));
      }, forMs);
    }
  }

  async replug(): Promise<void> {
    if (this.replugTimer !== null) this.opts.clock.clearTimeout(this.replugTimer);
    this.replugTimer = null;
    await this.opts.front.replug();
  }

  /** The simulator's clock (the DEX read is stamped with it). */
  now(): number {
    return this.opts.clock.now();
  }

  snapshot(): SimState {
    const b = this.board;
    return {
      plugged: this.opts.front.plugged,
      hostPath: this.opts.front.hostPath,
      board: { ...b.config, bootId: b.bootId, state: b.state, ...b.seqs },
      lanes: b.lanesSnapshot(),
      boardFaults: b.faultsSnapshot(),
      linkFaults: this.faults.snapshot(),
      counters: {
        dispenseRequests: b.dispenseRequests,
        motorRuns: b.motorLog.length,
        retransmissions: b.retransmissions,
        framesIn: this.decoder.stats.frames,
        badFramesIn: this.decoder.stats.badFrames + this.decoder.stats.truncated,
        framesOut: this.framesOut,
        framesDropped: this.framesDropped,
      },
    };
  }

  private receiveBytes(chunk: Uint8Array): void {
    for (const frame of this.decoder.push(chunk)) {
      if (this.opts.trace) this.log('rx', { seq: frame.seq, command: frame.command });
      const before = this.board.dispenseRequests;
      this.board.receive(frame);
      if (this.board.dispenseRequests !== before) for (const fn of this.dispenseListeners) fn(this.board.dispenseRequests);
    }
  }

  private transmit(out: BoardOutput): void {
    if (!this.opts.front.plugged) return;
    const fate = this.faults.outgoing(out);
    if (!fate.deliver) {
      this.framesDropped++;
      if (this.opts.trace) this.log('tx lost', { seq: out.seq, kind: out.message.kind, why: fate.why });
      return;
    }
    this.framesOut++;
    if (this.opts.trace) this.log('tx', { seq: out.seq, kind: out.message.kind, hex: vmcHex(fate.bytes), delayMs: fate.delayMs, why: fate.why });
    this.outWire.write(fate.bytes, this.opts.clock.now() + fate.delayMs);
  }
}
