import {
  VMC_LANES_PER_PAGE,
  VMC_PROTOCOL_VERSION,
  VMC_U14_MAX,
  aisleCount,
  encodeBoardMessage,
  encodeVmcFrame,
  isValidAisle,
  parseHostFrame,
  rowColumnOf,
} from '@vend/protocol';
import type { Clock, DexAudit, VmcBoardInfo, VmcBoardMessage, VmcBoardStateName, VmcFrame, VmcHostMessage, VmcModule, VmcResultName } from '@vend/protocol';
import type { Random } from './rng.ts';

export interface BoardConfig {
  module: VmcModule;
  rows: number;
  columnsPerRow: number;
  /** Dotted major.minor.patch, each part 0..127. */
  vmcVersion: string;
  /** Products loaded per lane at power-up. */
  stock: number;
  /** Time the lane motor runs for one vend (one spring turn). */
  motorMs: number;
  /** Lift travel time per row (module SH_YAxis only). */
  liftMsPerRow: number;
  /** Time from the end of the motor run (or the lift's return) until the drop sensor sees the product. */
  dropMs: number;
}

export const DEFAULT_BOARD_CONFIG: Readonly<BoardConfig> = Object.freeze({
  module: 'SH_YAxis',
  rows: 6,
  columnsPerRow: 10,
  vmcVersion: '2.4.1',
  stock: 5,
  motorMs: 1200,
  liftMsPerRow: 400,
  dropMs: 300,
});

export interface Lane {
  aisle: number;
  stock: number;
  motor: boolean;
  jammed: boolean;
}

/** One run of a lane motor: the record QA and the fault campaign audit. */
export interface MotorRun {
  /** Clock time the motor started. */
  at: number;
  seq: number;
  aisle: number;
  row: number;
  column: number;
  bootId: number;
  /** Dispense requests the board had accepted before this one, since it was created. */
  request: number;
  jammed: boolean;
}

/** A frame the board transmits. `kind` lets the link layer treat ACK-class frames and results apart. */
export interface BoardOutput {
  kind: 'reply' | 'result' | 'nak';
  seq: number;
  message: VmcBoardMessage;
  bytes: Uint8Array;
}

interface Job {
  seq: number;
  aisle: number;
  startedAt: number;
  estimateMs: number;
  timers: unknown[];
  /** Set when finished. */
  result?: { message: VmcBoardMessage & { kind: 'result' }; bytes: Uint8Array; withheld: boolean };
}

interface LastFrame {
  seq: number;
  raw: Uint8Array;
  /** Stored reply for queries; for dispense the ACK is rebuilt (disposition duplicate). */
  reply: BoardOutput;
  job?: Job;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The VMC board: lanes, motors, the lift, the drop sensor and the protocol rules, driven only by
 * the frames it is given and the injected clock. It never touches a port; the simulator wires it
 * to one.
 *
 * The rule everything rests on: the board remembers its last sequenced frame, and the last dispense it
 * started. The same frame again (same sequence number, same bytes) is a retransmission: it is
 * acknowledged again and the stored result re-sent, and the motor never runs twice.
 */
export class VmcBoard {
  /** Replaced only at a power-up, when QA flashes other firmware (`reboot({ vmcVersion })`). */
  config: Readonly<BoardConfig>;
  private lanes: Lane[] = [];
  private bootIdValue = 1;
  private last: LastFrame | null = null;
  /** The last DISPENSE the board started (motor or lift), kept until it starts another (docs/vmc-protocol.md §6.3). */
  private kept: LastFrame | null = null;
  private job: Job | null = null;
  private lastDispense: Job | null = null;
  private liftRowNow = 0;
  /** The lift's way home after a jam or a lift fault: it outlives the dispense (docs/vmc-protocol.md §5.1). */
  private liftHome: unknown = null;
  private dropsCounted = 0;
  private busyUntil = 0;
  private requests = 0;
  private liftFaulty = false;
  private sensorHealthy = true;
  private missDropsLeft = 0;
  private withholdLeft = 0;
  /** The audit counters a DEX read reports: vends per lane and failed vends, since creation and since power-up. */
  private readonly vendsSinceInit: number[] = [];
  private vendsSinceBoot: number[] = [];
  private failedSinceInit = 0;
  private failedSinceBoot = 0;
  /** Every motor run since the board object was created (survives reboots: it is QA's record). */
  readonly motorLog: MotorRun[] = [];
  /** Retransmissions recognised (acknowledged again without running anything). */
  retransmissions = 0;
  output: (out: BoardOutput) => void = () => {};

  constructor(
    config: Partial<BoardConfig>,
    private readonly clock: Clock,
    private readonly random: Random,
  ) {
    this.config = Object.freeze({ ...DEFAULT_BOARD_CONFIG, ...config });
    const n = aisleCount(this.config);
    for (let aisle = 1; aisle <= n; aisle++) this.lanes.push({ aisle, stock: this.config.stock, motor: true, jammed: false });
    this.vendsSinceInit.push(...this.lanes.map(() => 0));
    encodeBoardMessage(0, this.infoMessage()); // validates version and geometry up front
    this.powerUp();
  }

  get bootId(): number {
    return this.bootIdValue;
  }

  /**
   * Power cycle: forgets the last frame, aborts a running vend, homes the lift. Lanes keep their stock.
   * `firmware` flashes another version first (the board restarts in place with it).
   */
  reboot(firmware: { vmcVersion?: string } = {}): void {
    if (firmware.vmcVersion !== undefined) {
      const next = Object.freeze({ ...this.config, vmcVersion: firmware.vmcVersion });
      encodeBoardMessage(0, { ...this.infoMessage(), vmcVersion: next.vmcVersion }); // validates before anything changes
      this.config = next;
    }
    if (this.job) for (const t of this.job.timers) this.clock.clearTimeout(t);
    this.cancelLiftHome();
    this.job = null;
    this.last = null;
    this.kept = null;
    this.lastDispense = null;
    this.liftRowNow = 0;
    this.busyUntil = 0;
    this.powerUp();
  }

  private powerUp(): void {
    let id = 1 + this.random.int(VMC_U14_MAX);
    if (id === this.bootIdValue) id = (id % VMC_U14_MAX) + 1;
    this.bootIdValue = id;
    this.dropsCounted = 0;
    this.vendsSinceBoot = this.lanes.map(() => 0);
    this.failedSinceBoot = 0;
  }

  // --- QA controls --------------------------------------------------------------------------

  lane(aisle: number): Lane {
    const l = this.lanes[aisle - 1];
    if (!l) throw new RangeError(`aisle must be 1..${this.lanes.length}, got ${aisle}`);
    return l;
  }
  lanesSnapshot(): Lane[] {
    return this.lanes.map((l) => ({ ...l }));
  }
  setLiftFault(on: boolean): void {
    this.liftFaulty = on;
  }
  setDropSensorHealthy(on: boolean): void {
    this.sensorHealthy = on;
  }
  /** The next `n` vends deliver nothing to the sensor (product caught on the spring). */
  missDrops(n: number): void {
    this.missDropsLeft = n;
  }
  /** The next `n` dispenses never report a result, even when asked again. */
  withholdResults(n: number): void {
    this.withholdLeft = n;
  }
  /** Reports busy (service in progress) for `ms`. */
  busyFor(ms: number): void {
    this.busyUntil = this.clock.now() + ms;
  }
  clearFaults(): void {
    this.liftFaulty = false;
    this.sensorHealthy = true;
    this.missDropsLeft = 0;
    this.withholdLeft = 0;
    this.busyUntil = 0;
    for (const l of this.lanes) l.jammed = false;
  }
  faultsSnapshot(): { liftFault: boolean; dropSensorHealthy: boolean; missDrops: number; withholdResults: number; busyForMs: number } {
    return {
      liftFault: this.liftFaulty,
      dropSensorHealthy: this.sensorHealthy,
      missDrops: this.missDropsLeft,
      withholdResults: this.withholdLeft,
      busyForMs: Math.max(0, this.busyUntil - this.clock.now()),
    };
  }
  /** Dispense requests accepted as new (not retransmissions), since creation. */
  /**
   * What a DEX read of the board reports (docs/dex.md): vends per selection since the board was created
   * ("since initialisation") and since its last power-up ("since reset"), and failed vends. The board
   * knows no prices or payments: values are 0 and every vend is counted as paid.
   */
  dexAudit(now: number): DexAudit {
    const tally = (count: number) => ({ count, cents: 0 });
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const total = { sinceInit: tally(sum(this.vendsSinceInit)), inPeriod: tally(sum(this.vendsSinceBoot)) };
    return {
      sender: 'VMCSIM',
      machineNo: `VMCSIM-${this.bootIdValue}`,
      model: this.config.module,
      agentVersion: this.config.vmcVersion,
      at: now,
      paid: total,
      cash: { sinceInit: tally(0), inPeriod: tally(0) },
      cashless: { sinceInit: tally(0), inPeriod: tally(0) },
      free: { sinceInit: tally(0), inPeriod: tally(0) },
      products: this.lanes.map((l, i) => ({
        selection: l.aisle,
        priceCents: 0,
        productId: '',
        sinceInit: tally(this.vendsSinceInit[i]!),
        inPeriod: tally(this.vendsSinceBoot[i]!),
      })),
      failedVends: tally(this.failedSinceInit),
      failedInPeriod: tally(this.failedSinceBoot),
    };
  }

  /** The seqs STATUS reports: the last frame's and the kept dispense's (0 = none since power-up). */
  get seqs(): { lastSeq: number; keptSeq: number } {
    return { lastSeq: this.last?.seq ?? 0, keptSeq: this.kept?.seq ?? 0 };
  }

  get dispenseRequests(): number {
    return this.requests;
  }
  get state(): VmcBoardStateName {
    if (this.job) return 'dispensing';
    if (this.busyUntil > this.clock.now()) return 'busy';
    if (this.liftFaulty) return 'fault';
    return 'idle';
  }

  // --- the protocol -------------------------------------------------------------------------

  /** Handles one checked host frame (the serial front has already verified its CRC). */
  receive(frame: VmcFrame): void {
    const parsed = parseHostFrame(frame);
    if (!parsed.ok) {
      this.send('nak', frame.seq, { kind: 'nak', reason: parsed.error === 'unknown-command' ? 'unknownCommand' : 'badArgument', command: frame.command });
      return;
    }
    const { seq, message } = parsed;
    if (seq === 0) {
      if (message.kind === 'dispense') this.send('nak', 0, { kind: 'nak', reason: 'sequenceZero', command: frame.command });
      else this.send('reply', 0, this.query(message));
      return;
    }
    if (message.kind === 'dispense' && message.bootId !== this.bootIdValue) {
      // meant for an earlier power-up: whatever that boot did with it, this one must not run it
      this.send('nak', seq, { kind: 'nak', reason: 'bootMismatch', command: frame.command });
      return;
    }
    const raw = encodeVmcFrame(frame);
    // The dispense the board last started is recognised whatever came after it (a refused dispense, a
    // query): evicting it would let a late retransmission of it run the motor a second time.
    const stored = this.last && this.last.seq === seq ? this.last : this.kept && this.kept.seq === seq && sameBytes(this.kept.raw, raw) ? this.kept : null;
    if (stored) {
      if (!sameBytes(stored.raw, raw)) {
        this.send('nak', seq, { kind: 'nak', reason: 'sequenceConflict', command: frame.command });
        return;
      }
      this.retransmissions++;
      const job = stored.job;
      if (job) {
        this.send('reply', seq, { kind: 'dispenseAck', disposition: 'duplicate', aisle: job.aisle, estimateMs: this.remaining(job) });
        if (job.result && !job.result.withheld) this.emit({ kind: 'result', seq, message: job.result.message, bytes: job.result.bytes });
      } else {
        this.emit(stored.reply);
      }
      return;
    }
    if (message.kind === 'dispense') {
      const job = this.dispense(seq, message.aisle);
      this.last = { seq, raw, reply: this.ackOf(job, 'accepted'), job };
      // refused at once (busy, unknown aisle, no motor, lane empty: its RESULT goes with the ACK) it is
      // only the last frame; started, it is also the kept dispense
      if (!job.result) this.kept = this.last;
      this.emit(this.last.reply);
      if (job.result) this.emit({ kind: 'result', seq, message: job.result.message, bytes: job.result.bytes });
      return;
    }
    const reply = this.build('reply', seq, this.query(message));
    this.last = { seq, raw, reply };
    this.emit(reply);
  }

  /** Time until the job's result, rounded up to the protocol's 10 ms resolution. */
  private remaining(job: Job): number {
    const ms = job.result ? 0 : Math.max(0, job.startedAt + job.estimateMs - this.clock.now());
    return Math.ceil(ms / 10) * 10;
  }

  private ackOf(job: Job, disposition: 'accepted' | 'duplicate'): BoardOutput {
    return this.build('reply', job.seq, { kind: 'dispenseAck', disposition, aisle: job.aisle, estimateMs: this.remaining(job) });
  }

  private query(m: Exclude<VmcHostMessage, { kind: 'dispense' }>): VmcBoardMessage {
    switch (m.kind) {
      case 'info':
        return this.infoMessage();
      case 'status':
        return {
          kind: 'status',
          state: this.state,
          bootId: this.bootIdValue,
          lastSeq: this.last?.seq ?? 0,
          keptSeq: this.kept?.seq ?? 0,
          lastResult: !this.lastDispense ? 'none' : this.lastDispense.result ? this.lastDispense.result.message.code : 'pending',
          liftRow: this.liftRowNow,
          faults: { lift: this.liftFaulty, dropSensor: !this.sensorHealthy, jammedLanes: this.lanes.some((l) => l.jammed) },
        };
      case 'laneScan': {
        const pages = Math.ceil(this.lanes.length / VMC_LANES_PER_PAGE);
        if (m.page >= pages) return { kind: 'nak', reason: 'badArgument', command: 0x04 };
        const slice = this.lanes.slice(m.page * VMC_LANES_PER_PAGE, (m.page + 1) * VMC_LANES_PER_PAGE);
        return {
          kind: 'laneScan',
          page: m.page,
          pages,
          firstAisle: m.page * VMC_LANES_PER_PAGE + 1,
          motors: slice.map((l) => l.motor),
          jams: slice.map((l) => l.motor && l.jammed),
        };
      }
      case 'dropSensor':
        return {
          kind: 'dropSensor',
          blocked: false,
          healthy: this.sensorHealthy,
          level: this.sensorHealthy ? 900 + this.random.int(80) : this.random.int(40),
          drops: this.dropsCounted % (VMC_U14_MAX + 1),
        };
    }
  }

  private infoMessage(): VmcBoardInfo {
    return {
      kind: 'info',
      vmcVersion: this.config.vmcVersion,
      module: this.config.module,
      rows: this.config.rows,
      columnsPerRow: this.config.columnsPerRow,
      bootId: this.bootIdValue,
      protocolVersion: VMC_PROTOCOL_VERSION,
    };
  }

  /** Starts (or immediately refuses) a new dispense. */
  private dispense(seq: number, aisle: number): Job {
    const now = this.clock.now();
    const job: Job = { seq, aisle, startedAt: now, estimateMs: 0, timers: [] };
    const refuse = (code: VmcResultName): Job => {
      this.finish(job, code, 0, false, this.liftRowNow);
      return job;
    };
    if (this.job || this.busyUntil > now) return refuse('busy');
    this.requests++;
    this.lastDispense = job;
    if (!isValidAisle(aisle, this.config)) return refuse('unknownAisle');
    const lane = this.lane(aisle);
    if (!lane.motor) return refuse('noMotor');
    if (lane.stock <= 0) return refuse('laneEmpty');

    const { row, column } = rowColumnOf(aisle, this.config);
    const lift = this.config.module === 'SH_YAxis';
    const travel = lift ? row * this.config.liftMsPerRow : 0;
    const { motorMs, dropMs } = this.config;
    this.job = job;
    const at = (ms: number, fn: () => void): void => {
      job.timers.push(this.clock.setTimeout(fn, ms));
    };
    // the estimate is a vend's whatever comes of it: the board cannot know the lane will stall or the lift fail
    job.estimateMs = travel + motorMs + travel + dropMs;
    if (lift) {
      this.cancelLiftHome();
      this.liftRowNow = row;
    }
    if (lift && this.liftFaulty) {
      // the lift never reaches the row: the board gives up at twice the travel time, and the lift is back home
      at(2 * travel, () => {
        this.liftRowNow = 0;
        this.finish(job, 'liftFault', 0, false, 0);
      });
      return job;
    }
    const jammed = lane.jammed;
    const request = this.requests - 1;
    at(travel, () => {
      this.motorLog.push({ at: this.clock.now(), seq, aisle, row, column, bootId: this.bootIdValue, request, jammed });
    });
    if (jammed) {
      // the RESULT goes at the stall and the dispense is over; the lift makes its way home on its own
      at(travel + motorMs, () => {
        if (lift) this.liftHome = this.clock.setTimeout(() => this.cancelLiftHome(), travel);
        this.finish(job, 'motorJam', motorMs, false, lift ? row : 0);
      });
      return job;
    }
    lane.stock--;
    at(job.estimateMs, () => {
      this.liftRowNow = 0;
      const seen = this.sensorHealthy && this.missDropsLeft === 0;
      if (this.missDropsLeft > 0) this.missDropsLeft--;
      if (seen) this.dropsCounted++;
      this.finish(job, seen ? 'success' : 'dropNotDetected', motorMs, seen, lift ? row : 0);
    });
    return job;
  }

  /** The lift is home (or sent elsewhere before it got there). */
  private cancelLiftHome(): void {
    if (this.liftHome !== null) this.clock.clearTimeout(this.liftHome);
    this.liftHome = null;
    this.liftRowNow = 0;
  }

  private finish(job: Job, code: VmcResultName, motorMs: number, dropDetected: boolean, liftRow: number): void {
    if (code === 'success') {
      this.vendsSinceInit[job.aisle - 1]!++;
      this.vendsSinceBoot[job.aisle - 1]!++;
    } else if (code !== 'busy') {
      this.failedSinceInit++;
      this.failedSinceBoot++;
    }
    const message = { kind: 'result' as const, aisle: job.aisle, code, motorMs, dropDetected, liftRow };
    const withheld = code !== 'busy' && this.withholdLeft > 0;
    if (withheld) this.withholdLeft--;
    job.result = { message, bytes: encodeBoardMessage(job.seq, message), withheld };
    job.timers = [];
    if (this.job === job) {
      this.job = null;
      // a result finished while the job ran (not an immediate refusal) is sent unsolicited now
      if (!withheld) this.emit({ kind: 'result', seq: job.seq, message, bytes: job.result.bytes });
    }
  }

  private build(kind: BoardOutput['kind'], seq: number, message: VmcBoardMessage): BoardOutput {
    return { kind: message.kind === 'nak' ? 'nak' : kind, seq, message, bytes: encodeBoardMessage(seq, message) };
  }

  private send(kind: BoardOutput['kind'], seq: number, message: VmcBoardMessage): void {
    this.emit(this.build(kind, seq, message));
  }

  private emit(out: BoardOutput): void {
    this.output(out);
  }
}
