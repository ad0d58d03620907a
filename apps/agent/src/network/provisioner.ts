import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { NETWORK_LIMITS, NETWORK_SWITCH_OUTCOMES, networkLabel } from '@vend/protocol';
import type { Clock, ControlNetworkStatus, ControlNetworkToken, NetworkRequest } from '@vend/protocol';
import { readJsonIfValid, writeFileAtomic } from '../state/fs-atomic.ts';
import type { NetworkBackend } from './backend.ts';

const Remembered = z.object({ id: z.string(), label: z.string(), addedAt: z.number() });
const Switch = z.object({
  target: z.string(),
  label: z.string(),
  previous: z.string().nullable(),
  phase: z.enum(['applying', 'verifying', 'reverting']),
  startedAt: z.number(),
});
const Outcome = z.object({ label: z.string(), outcome: z.enum(NETWORK_SWITCH_OUTCOMES), reason: z.string(), at: z.number() });

/**
 * The journal (`network.json`, 0600): written before every step, so a restart at any point finds
 * what was under way. `forget` holds profiles still to delete once a switch committed.
 */
const NetworkFile = z.object({
  nextId: z.number().int().min(1),
  remembered: z.array(Remembered),
  switch: Switch.nullable(),
  forget: z.array(z.string()),
  last: Outcome.nullable(),
  /** Live provisioning tokens, SHA-256 only. */
  tokens: z.array(z.object({ hash: z.string(), expiresAt: z.number() })),
});
type NetworkFile = z.infer<typeof NetworkFile>;
type Outcome = z.infer<typeof Outcome>;

const EMPTY: NetworkFile = { nextId: 1, remembered: [], switch: null, forget: [], last: null, tokens: [] };
const LATE = Symbol('late');
/** Tokens kept at once: a technician pressing "new token" again does not grow the file. */
const LIVE_TOKENS = 4;

export class NetworkRefused extends Error {
  constructor(
    readonly code: 'token' | 'busy' | 'unavailable',
    message: string,
  ) {
    super(message);
  }
}

export interface NetworkLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface NetworkProvisionerOptions {
  /** The journal (the state directory's `network.json`). */
  file: string;
  backend: NetworkBackend;
  clock: Clock;
  /** Random bytes for tokens (crypto's in the daemon, seeded in tests). */
  random: (bytes: number) => Buffer;
  /** One probe of the cloud: true once it answered (any HTTP answer counts). */
  reachable: () => Promise<boolean>;
  log: NetworkLogger;
}

export interface SwitchStarted {
  id: string;
  label: string;
  /** Settles when the switch committed or went back. */
  done: Promise<Outcome>;
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Network provisioning (spec 2 §8; docs/decisions/network.md): a technician holding a provisioning
 * token (600 s, one use, minted after the service code) gives the cabinet a network; it is applied
 * through the backend, the cloud probed every 3 s, and without an answer within 90 s the previous
 * connection comes back and the new profile goes. At most 5 networks are kept (oldest forgotten).
 * Every step is journaled before it is taken; `recover()` at start goes back from a switch a restart
 * interrupted, so a reboot mid-switch lands on the network last proven to reach the cloud.
 */
export class NetworkProvisioner {
  private running: Promise<Outcome> | null = null;
  /** Between the busy check and the journal's `applying` (an await apart): a second apply is busy too. */
  private starting = false;
  private closed = false;
  private timer: unknown = null;
  private wake: (() => void) | null = null;

  constructor(private readonly opts: NetworkProvisionerOptions) {}

  private read(): NetworkFile {
    const file = readJsonIfValid(this.opts.file, NetworkFile) ?? structuredClone(EMPTY);
    const now = this.opts.clock.now();
    file.tokens = file.tokens.filter((t) => t.expiresAt > now);
    return file;
  }

  private write(file: NetworkFile): void {
    writeFileAtomic(this.opts.file, JSON.stringify(file) + '\n', { mode: 0o600 });
  }

  /** A provisioning token valid 600 s, for one switch. The caller has checked the service code. */
  issueToken(): ControlNetworkToken {
    const token = `np_${this.opts.random(24).toString('base64url')}`;
    const expiresAt = this.opts.clock.now() + NETWORK_LIMITS.tokenSeconds * 1000;
    const file = this.read();
    file.tokens.push({ hash: digest(token).toString('hex'), expiresAt });
    file.tokens = file.tokens.slice(-LIVE_TOKENS);
    this.write(file);
    return { token, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** Takes the token out of the journal when it is live; false for one unknown, used or expired. */
  private redeem(file: NetworkFile, token: string): boolean {
    const presented = digest(token);
    const index = file.tokens.findIndex((t) => timingSafeEqual(Buffer.from(t.hash, 'hex'), presented));
    if (index < 0) return false;
    file.tokens.splice(index, 1);
    return true;
  }

  /** Starts a switch to `req`; NetworkRefused without a live token or while another switch runs. */
  async apply(token: string, req: NetworkRequest): Promise<SwitchStarted> {
    if (this.running || this.starting) throw new NetworkRefused('busy', 'a network switch is under way: wait for it to connect or go back');
    this.starting = true;
    let file: NetworkFile;
    try {
      let previous: string | null;
      try {
        previous = await this.opts.backend.active();
      } catch (e) {
        // the token is kept: the technician can try again once NetworkManager answers
        throw new NetworkRefused('unavailable', `the network stack does not answer: ${(e as Error).message}`);
      }
      file = this.read();
      // a switch the last start could not undo (NetworkManager was down) stays first in line
      if (file.switch)
        throw new NetworkRefused('busy', `an interrupted switch to ${file.switch.label} is still to be undone: restart the agent once NetworkManager runs`);
      if (!this.redeem(file, token))
        throw new NetworkRefused('token', 'the provisioning token is unknown, used or expired (a token lasts 600 s and serves one switch)');
      const id = `vend-${file.nextId}`;
      file.nextId += 1;
      file.switch = { target: id, label: networkLabel(req), previous, phase: 'applying', startedAt: this.opts.clock.now() };
      this.write(file);
    } finally {
      this.starting = false;
    }
    const { target: id, label } = file.switch;
    this.opts.log.info({ network: label, connection: id, previous: file.switch.previous }, 'network switch: applying');
    // nobody may be waiting for the end (the control channel answers at once): it never rejects
    const done = this.run(file, req).catch((e: unknown): Outcome => {
      const reason = `the switch failed: ${(e as Error).message}; the next start finishes going back`;
      this.opts.log.warn({ network: label, connection: id, reason }, 'network switch: failed');
      return { label, outcome: 'interrupted', reason, at: this.opts.clock.now() };
    });
    this.running = done;
    void done.then(() => {
      this.running = null;
    });
    return { id, label, done };
  }

  private async run(file: NetworkFile, req: NetworkRequest): Promise<Outcome> {
    const sw = file.switch!;
    const deadline = sw.startedAt + NETWORK_LIMITS.verifySeconds * 1000;
    try {
      await this.opts.backend.add(sw.target, req);
      if ((await this.beforeDeadline(this.opts.backend.up(sw.target), deadline)) === LATE)
        return await this.revert(`the connection did not come up within ${NETWORK_LIMITS.verifySeconds} s`, 'reverted');
    } catch (e) {
      return await this.revert(`the connection did not come up: ${(e as Error).message}`, 'reverted');
    }
    this.step('verifying');
    for (;;) {
      if (this.closed) return { label: sw.label, outcome: 'interrupted', reason: 'the agent stopped mid-switch', at: this.opts.clock.now() };
      // a probe still in flight at the deadline does not hold the revert back (an HTTP timeout is 8 s)
      const answered = await this.beforeDeadline(
        this.opts.reachable().catch(() => false),
        deadline,
      );
      if (answered === true) return this.commit();
      const left = deadline - this.opts.clock.now();
      if (answered === LATE || left <= 0) return await this.revert(`the cloud was not reached within ${NETWORK_LIMITS.verifySeconds} s`, 'reverted');
      await this.sleep(Math.min(NETWORK_LIMITS.pollSeconds * 1000, left));
    }
  }

  /** What `work` gave when it settled before the deadline (its rejection passes through); LATE when the deadline came first. */
  private async beforeDeadline<T>(work: Promise<T>, deadline: number): Promise<T | typeof LATE> {
    let timer: unknown = null;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = this.opts.clock.setTimeout(() => resolve(LATE), Math.max(0, deadline - this.opts.clock.now()));
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      this.opts.clock.clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = this.opts.clock.setTimeout(resolve, ms);
    });
  }

  private step(phase: 'verifying' | 'reverting'): NetworkFile {
    const file = this.read();
    file.switch!.phase = phase;
    this.write(file);
    return file;
  }

  private async commit(): Promise<Outcome> {
    const file = this.read();
    const sw = file.switch!;
    const now = this.opts.clock.now();
    // the same SSID (or port) given again replaces its older profile
    const replaced = file.remembered.filter((r) => r.label === sw.label).map((r) => r.id);
    file.remembered = file.remembered.filter((r) => r.label !== sw.label);
    file.remembered.push({ id: sw.target, label: sw.label, addedAt: now });
    while (file.remembered.length > NETWORK_LIMITS.remembered) replaced.push(file.remembered.shift()!.id);
    file.forget.push(...replaced);
    file.switch = null;
    file.last = { label: sw.label, outcome: 'connected', reason: 'the cloud answered', at: now };
    this.write(file);
    this.opts.log.info({ network: sw.label, connection: sw.target, forgotten: replaced }, 'network switch: connected');
    await this.forgetPending();
    return file.last;
  }

  /** Deletes the profiles the journal says to forget, each taken off the list once gone. */
  private async forgetPending(): Promise<void> {
    for (const id of this.read().forget) {
      try {
        await this.opts.backend.remove(id);
      } catch (e) {
        this.opts.log.warn({ connection: id, error: (e as Error).message }, 'network: could not delete a forgotten profile; retried at the next start');
        continue;
      }
      const file = this.read();
      file.forget = file.forget.filter((f) => f !== id);
      this.write(file);
    }
  }

  private async revert(reason: string, outcome: 'reverted' | 'interrupted'): Promise<Outcome> {
    const sw = this.step('reverting').switch!;
    this.opts.log.warn({ network: sw.label, connection: sw.target, previous: sw.previous, reason }, 'network switch: going back');
    if (sw.previous !== null) {
      try {
        await this.opts.backend.up(sw.previous);
      } catch (e) {
        this.opts.log.warn({ connection: sw.previous, error: (e as Error).message }, 'network: the previous connection did not come back up');
      }
    }
    await this.opts.backend.remove(sw.target);
    const file = this.read();
    file.switch = null;
    file.last = { label: sw.label, outcome, reason, at: this.opts.clock.now() };
    this.write(file);
    return file.last;
  }

  /** At start: goes back from a switch a restart cut short, and deletes what a committed switch still had to forget. */
  async recover(): Promise<Outcome | null> {
    const file = this.read();
    let outcome: Outcome | null = null;
    if (file.switch) outcome = await this.revert(`the agent restarted while the switch was ${file.switch.phase}`, 'interrupted');
    await this.forgetPending();
    return outcome;
  }

  async status(): Promise<ControlNetworkStatus> {
    const file = this.read();
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      active: await this.opts.backend.active().catch(() => null),
      remembered: file.remembered.map((r) => ({ id: r.id, label: r.label, addedAt: iso(r.addedAt) })),
      switching: file.switch && { ...file.switch, startedAt: iso(file.switch.startedAt) },
      last: file.last && { ...file.last, at: iso(file.last.at) },
    };
  }

  /** Stops probing (daemon shutdown): the journal keeps the switch, and the next start goes back from it. */
  close(): void {
    this.closed = true;
    this.opts.clock.clearTimeout(this.timer);
    this.wake?.();
  }
}
