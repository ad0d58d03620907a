import { request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { AgentFleetData, AgentUnpinData, MachineAgentData, ReleaseList, ReleasePublishData, RolloutData } from '@vend/protocol';
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

export interface RolloutInput {
  targetVersion: string;
  phase?: string;
  canary?: string[];
  percent?: number;
  allowDowngrade?: boolean;
  note?: string;
}

/** The pages `fleet` walks at most (100 machines each): 100,000 cabinets. */
const MAX_FLEET_PAGES = 1000;

/** The cloud's admin API for releases, rollouts and pins, over undici. */
export class CloudClient {
  private readonly base: URL;
  private readonly timeoutMs: number;
  private readonly progress: Progress;

  constructor(private readonly opts: CloudOptions) {
    let base: URL;
    try {
      base = new URL(opts.url);
    } catch {
      throw new CliError(EXIT_CODES.usage, `--cloud ${opts.url} is not a URL`);
    }
    if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new CliError(EXIT_CODES.usage, `--cloud ${opts.url} must be an http(s) URL`);
    if (!base.pathname.endsWith('/')) base.pathname += '/';
    this.base = base;
    this.timeoutMs = (opts.timeoutSeconds ?? 30) * 1000;
    this.progress = opts.progress ?? silentProgress;
  }

  /** One call; its `data` is parsed with `schema` (the cloud's own, from @vend/protocol): a mismatch is an error, never a guess. */
  async call<S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: S,
    body?: unknown,
    label = `${method} ${path}`,
  ): Promise<z.output<S>> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const send = async () => {
      try {
        const res = await request(url, {
          method,
          headers: { 'x-api-key': this.opts.apiKey, accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
          ...(this.opts.dispatcher ? { dispatcher: this.opts.dispatcher } : {}),
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
      const data = schema.safeParse(envelope.data);
      if (!data.success) {
        const issues = data.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(data)'}: ${i.message}`);
        const more = data.error.issues.length > 5 ? `; and ${data.error.issues.length - 5} more` : '';
        throw new CliError(
          EXIT_CODES.unavailable,
          `${method} ${path}: the cloud answered ${status} with data vendctl does not understand (${issues.join('; ')}${more})`,
        );
      }
      return data.data;
    }
    const message = envelope?.message ?? (text.slice(0, 200) || 'no message');
    throw new CliError(exitCodeForStatus(status), `${method} ${path} → ${status}: ${message}`);
  }

  publish(manifest: ReleaseManifest): Promise<ReleasePublishData> {
    return this.call('POST', '/api/v1/agent/releases', ReleasePublishData, manifest, 'publishing');
  }

  releases(): Promise<ReleaseList> {
    return this.call('GET', '/api/v1/agent/releases', ReleaseList);
  }

  rollout(): Promise<RolloutData | null> {
    return this.call('GET', '/api/v1/agent/rollout', RolloutData.nullable());
  }

  setRollout(body: RolloutInput): Promise<RolloutData> {
    return this.call('PUT', '/api/v1/agent/rollout', RolloutData, body);
  }

  hold(reason: string): Promise<RolloutData> {
    return this.call('POST', '/api/v1/agent/rollout/hold', RolloutData, { reason });
  }

  resume(): Promise<RolloutData> {
    return this.call('POST', '/api/v1/agent/rollout/resume', RolloutData, {});
  }

  pin(machineNo: string, version: string, reason: string): Promise<MachineAgentData> {
    return this.call('POST', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent/pin`, MachineAgentData, { version, reason });
  }

  unpin(machineNo: string): Promise<AgentUnpinData> {
    return this.call('DELETE', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent/pin`, AgentUnpinData);
  }

  machineAgent(machineNo: string): Promise<MachineAgentData> {
    return this.call('GET', `/api/v1/machines/${encodeURIComponent(machineNo)}/agent`, MachineAgentData);
  }

  /** The whole fleet view: counts from the first page, machines from every page. */
  async fleet(): Promise<AgentFleetData> {
    const size = 100;
    const first = await this.call('GET', `/api/v1/agent/fleet?page=1&size=${size}`, AgentFleetData, undefined, 'reading the fleet');
    const machines = [...first.machines];
    for (let page = 2; machines.length < first.total && page <= MAX_FLEET_PAGES; page++) {
      const next = await this.call('GET', `/api/v1/agent/fleet?page=${page}&size=${size}`, AgentFleetData, undefined, 'reading the fleet');
      if (next.machines.length === 0) break;
      machines.push(...next.machines);
    }
    return { ...first, machines };
  }
}
