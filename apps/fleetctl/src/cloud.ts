import { request, type Dispatcher } from 'undici';
import type { ReleaseManifest } from '@vend/protocol';
import { CliError, EXIT_CODES, exitCodeForStatus } from './errors.ts';
import { silentProgress, type Progress } from './progress.ts';

export interface CloudOptions {
  /** Base URL of the cloud (http in a local sandbox, https otherwise). */
  url: string;
  /** A full-admin API key (`X-API-Key`); operators may only read the fleet view of their own cabinets. */
  apiKey: string;
  timeoutSeconds?: number;
  progress?: Progress;
  dispatcher?: Dispatcher;
}

export interface ReleaseRecord {
  version: string;
  sha256: string;
  size: number;
  url: string;
  migration: boolean;
  minFrom: string | null;
  sequence: number;
  publishedAt: string;
  offered: boolean;
  created?: boolean;
}

export interface Rollout {
  targetVersion: string;
  phase: 'rolling' | 'held' | 'complete';
  canary: string[];
  percent: number;
  allowDowngrade: boolean;
  note: string;
  holdReason: string | null;
  heldAt: string | null;
  setAt: string;
  updatedAt: string;
}

export interface RolloutInput {
  targetVersion: string;
  phase?: string;
  canary?: string[];
  percent?: number;
  allowDowngrade?: boolean;
  note?: string;
}

export interface FleetMachine {
  machineNo: string;
  agentVersion: string | null;
  lastSeen: string | null;
  pin: { version: string; reason: string } | null;
  target: string | null;
  inCohort: boolean;
  offerVersion: string | null;
  isFinalStep: boolean | null;
  offerReason: string;
  deferring: { version: string; count: number; seconds: number; reason: string; firstReportedAt: string } | null;
  blocked: { version: string; minFrom: string; count: number; firstReportedAt: string } | null;
}

export interface Fleet {
  target: string | null;
  rollout: Rollout | null;
  total: number;
  eligible: number;
  onTarget: number;
  pinned: number;
  deferring: number;
  blocked: number;
  byVersion: Record<string, number>;
  machines: FleetMachine[];
}

export interface MachineAgent {
  machineNo: string;
  agentVersion: string | null;
  pin: { version: string; reason: string } | null;
  target: string | null;
  offer: { version: string; isFinalStep: boolean } | null;
  offerReason: string;
}

/** The pages `fleet` walks at most (100 machines each): 100,000 cabinets. */
const MAX_FLEET_PAGES = 1000;

/** The cloud's admin API for releases, rollouts and pins, over undici. */
export class CloudClient {
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly progress: Progress;

  constructor(private readonly o: CloudOptions) {
    let base: URL;
    try {
      base = new URL(o.url);
    } catch {
      throw new CliError(EXIT_CODES.usage, `--cloud ${o.url} is not a URL`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new CliError(EXIT_CODES.usage, `--cloud ${o.url} must be an http(s) URL`);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.base = base;
    this.timeoutMs = (o.timeoutSeconds ?? 30) * 1000;
    this.progress = o.progress ?? silentProgress;
  }

  async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, label = `${method} ${path}`): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const send = async () => {
      try {
        const res = await request(url, {
          method,
          headers: { 'x-api-key': this.o.apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          ...(this.o.dispatcher ? { dispatcher: this.o.dispatcher } : {}),
        });
        return { status: res.statusCode, text: await res.body.text() };
      } catch (err) {
        const code = (err as { code?: string }).code ?? (err as Error).message;
        throw new CliError(EXIT_CODES.unavailable, `cannot reach ${this.base.origin}: ${code}`);
      }
    };
    const { status, text } = await this.progress.wait(label, send(), Math.ceil(this.timeoutMs / 1000));
    type Envelope = { code?: number; message?: string; data?: unknown };
    let envelope: Envelope | null;
    try {
      const v: unknown = JSON.parse(text);
      envelope = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Envelope) : null;
    } catch {
      envelope = null;
    }
    if (status >= 200 && status < 300) {
      if (!envelope || !('data' in envelope))
        throw new CliError(EXIT_CODES.unavailable, `${method} ${path}: the cloud answered ${status} without a JSON envelope`);
      return envelope.data as T;
    }
    const message = envelope?.message ?? (text.slice(0, 200) || 'no message');
    throw new CliError(exitCodeForStatus(status), `${method} ${path} → ${status}: ${message}`);
  }

  publish(manifest: ReleaseManifest): Promise<ReleaseRecord> {
    return this.call('POST', '/api/v1/agent/releases', manifest, 'publishing');
  }

  releases(): Promise<{ total: number; records: ReleaseRecord[] }> {
    return this.call('GET', '/api/v1/agent/releases');
  }

  rollout(): Promise<Rollout | null> {
    return this.call('GET', '/api/v1/agent/rollout');
  }

  setRollout(body: RolloutInput): Promise<Rollout> {
    return this.call('PUT', '/api/v1/agent/rollout', body);
  }

  hold(reason: string): Promise<Rollout> {
    return this.call('POST', '/api/v1/agent/rollout/hold', { reason });
  }

  resume(): Promise<Rollout> {
    return this.call('POST', '/api/v1/agent/rollout/resume', {});
  }

  pin(machineNo: string, version: string, reason: string): Promise<MachineAgent> {
    return this.call('POST', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent/pin`, { version, reason });
  }

  unpin(machineNo: string): Promise<{ machineNo: string; removed: boolean }> {
    return this.call('DELETE', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent/pin`);
  }

  machineAgent(machineNo: string): Promise<MachineAgent> {
    return this.call('GET', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent`);
  }

  /** The whole fleet view: counts from the first page, machines from every page. */
  async fleet(): Promise<Fleet> {
    const size = 100;
    const first = await this.call<Fleet>('GET', `/api/v1/agent/fleet?page=1&size=${size}`, undefined, 'reading the fleet');
    const machines = [...first.machines];
    for (let page = 2; machines.length < first.total && page <= MAX_FLEET_PAGES; page++) {
      const next = await this.call<Fleet>('GET', `/api/v1/agent/fleet?page=${page}&size=${size}`, undefined, 'reading the fleet');
      if (next.machines.length === 0) break;
      machines.push(...next.machines);
    }
    return { ...first, machines };
  }
}
