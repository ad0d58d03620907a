import fs from 'node:fs';
import path from 'node:path';
import type { Dispatcher } from 'undici';
import { systemClock } from '@vend/protocol';
import type { BlockedReport, DeferralReport } from '@vend/protocol';
import { UpgradeManager, undiciArtifactFetch } from '@vend/agent';
import type { BootOutcome, CheckOutcome, UpgradeHost } from '@vend/agent';
import { checkedFetch } from '@vend/cloud/testing/contract';

/**
 * A simulated cabinet for the upgrade end-to-end suite: a real install root on disk, a real device
 * credential enrolled at the real cloud, and the real UpgradeManager talking to the real cloud
 * (`/cabinet/upgrade`, `/cabinet/heartbeat`) and the real HTTPS artifact server. A "restart" is what
 * systemd would do: a fresh manager (a new process) whose boot guard and onBoot run first.
 *
 * A release tree that carries `lib/broken-network` stands for a build whose cloud calls all fail:
 * while it runs, the cabinet's cloudReachable() answers false (its heartbeats never leave).
 */
export const FLEET_SECRET = 'sbx-fleet-secret-4b2d';
export const ADMIN_KEY = 'vk_5bada0000000a001.sbx-admin-key-2f9c1e7d';
export const SANDBOX_PUBLIC_KEY = 'wHg6OmqNGbjsECQcM5ejBHwcKpxd2XBfOWRyIfHzd+E=';

async function cloudCall<T>(url: string, init: RequestInit): Promise<{ status: number; data: T; message: string }> {
  const res = await checkedFetch(url, { ...init, signal: AbortSignal.timeout(8_000) });
  const body = (await res.json()) as { data: T; message: string };
  return { status: res.status, data: body.data, message: body.message };
}

export class SimCabinet implements UpgradeHost {
  key = '';
  manager: UpgradeManager;
  /** How often the pipeline asked the agent to exit (for the service manager to start it again). */
  restarts = 0;
  deferring: DeferralReport | null = null;
  blocked: BlockedReport | null = null;
  /** Changes the offer between the cloud and the pipeline (a man in the middle). */
  tamper: ((offer: Record<string, unknown>) => Record<string, unknown>) | null = null;
  /**
   * The architecture this cabinet's agent runs on and reports (heartbeat, upgrade query), as `process.arch`
   * names it; null: an agent from before architectures were reported (it reports none, its pipeline is x64).
   * Takes effect for the pipeline at the next `reboot()`.
   */
  arch: string | null = null;

  constructor(
    readonly code: string,
    readonly root: string,
    private readonly o: { cloud: string; artifactPrefix: string; dispatcher: () => Dispatcher; healthTimeoutMs: number },
  ) {
    this.manager = this.newManager();
  }

  private newManager(): UpgradeManager {
    return new UpgradeManager({
      root: this.root,
      host: this,
      clock: systemClock,
      releasePublicKey: SANDBOX_PUBLIC_KEY,
      artifactPrefix: this.o.artifactPrefix,
      fetch: undiciArtifactFetch({ dispatcher: this.o.dispatcher() }),
      arch: this.arch ?? 'x64',
      limits: { healthTimeoutMs: this.o.healthTimeoutMs, healthPollMs: 100 },
    });
  }

  /** A fresh install root running `version` (a minimal tree whose launcher answers --version). */
  static install(root: string, version: string): void {
    fs.mkdirSync(path.join(root, 'current/bin'), { recursive: true });
    fs.writeFileSync(path.join(root, 'current/VERSION'), `${version}\n`);
    fs.writeFileSync(path.join(root, 'current/bin/vend-agent'), `#!/bin/sh\necho ${version}\n`, { mode: 0o755 });
  }

  /** register + arm + enrol, as a technician does at installation. */
  async enrol(): Promise<void> {
    const json = { 'content-type': 'application/json' };
    const deviceId = `device-${this.code.toLowerCase()}`;
    const reg = await cloudCall(`${this.o.cloud}/cabinet/register`, {
      method: 'POST',
      headers: { ...json, secret: FLEET_SECRET },
      body: JSON.stringify({ equipmentNo: this.code, agentVersion: this.runningVersion(), deviceId }),
    });
    if (reg.status !== 200) throw new Error(`register ${this.code}: ${reg.status} ${reg.message}`);
    const arm = await cloudCall(`${this.o.cloud}/api/v1/machines/${this.code}/device-credential/arm`, {
      method: 'POST',
      headers: { ...json, 'x-api-key': ADMIN_KEY },
      body: JSON.stringify({ reason: 'upgrade e2e' }),
    });
    if (arm.status !== 200) throw new Error(`arm ${this.code}: ${arm.status} ${arm.message}`);
    const en = await cloudCall<{ keyId: string; deviceKey: string }>(`${this.o.cloud}/cabinet/enrol`, {
      method: 'POST',
      headers: { ...json, secret: FLEET_SECRET },
      body: JSON.stringify({ equipmentNo: this.code, deviceId }),
    });
    if (en.status !== 200) throw new Error(`enrol ${this.code}: ${en.status} ${en.message}`);
    this.key = `${en.data.keyId}:${en.data.deviceKey}`;
    if (!(await this.heartbeat())) throw new Error(`first heartbeat of ${this.code} failed`);
  }

  /** What systemd does after the agent exited: the boot guard, then the daemon's onBoot. */
  async reboot(): Promise<BootOutcome> {
    this.manager.stop();
    this.manager = this.newManager();
    return this.manager.onBoot();
  }

  check(): Promise<CheckOutcome> {
    return this.manager.checkNow();
  }

  async heartbeat(): Promise<boolean> {
    if (this.networkBroken()) return false;
    const r = await cloudCall(`${this.o.cloud}/cabinet/heartbeat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-key': this.key },
      body: JSON.stringify({
        equipmentNo: this.code,
        agentVersion: this.runningVersion(),
        ...(this.arch !== null ? { arch: this.arch } : {}),
        deferring: this.deferring,
        blocked: this.blocked,
      }),
    });
    return r.status === 200;
  }

  private networkBroken(): boolean {
    return fs.existsSync(path.join(this.root, 'current/lib/broken-network'));
  }

  // --- UpgradeHost ---------------------------------------------------------------------------

  runningVersion(): string {
    return fs.readFileSync(path.join(this.root, 'current/VERSION'), 'utf8').trim();
  }
  quiet() {
    return { vendLockFree: true, leased: 0, spoolDepth: 0, secondsSinceActivity: 3600 };
  }
  holdVendLock() {
    return { release: () => {} };
  }
  async fetchOffer(): Promise<unknown> {
    if (this.networkBroken()) throw new Error('network unreachable');
    const query = `agentVersion=${this.runningVersion()}${this.arch !== null ? `&arch=${this.arch}` : ''}`;
    const r = await cloudCall<Record<string, unknown> | null>(`${this.o.cloud}/cabinet/upgrade?${query}`, {
      headers: { 'x-device-key': this.key },
    });
    if (r.status !== 200) throw new Error(`/cabinet/upgrade answered ${r.status}`);
    return r.data && this.tamper ? this.tamper(r.data) : r.data;
  }
  reportDeferral(r: DeferralReport): void {
    this.deferring = r;
    this.blocked = null;
  }
  reportBlocked(r: BlockedReport): void {
    this.blocked = r;
    this.deferring = null;
  }
  clearReports(): void {
    this.deferring = this.blocked = null;
  }
  cloudReachable(): Promise<boolean> {
    return this.heartbeat();
  }
  /** The pipeline asks the agent to exit; the test plays systemd and calls reboot(). */
  restart(): void {
    this.restarts++;
  }
}
