import type { AppContext } from './context.ts';
import { openBroadcast, type Broadcast } from './db/broadcast.ts';
import type { Geocoder } from './domains/machines/geocoder.ts';
import { NominatimGeocoder } from './domains/machines/nominatim.ts';
import { DeviceRuntime } from './domains/device-credentials/runtime.ts';
import { PendingNotifier } from './domains/commands/pending-notifier.ts';
import type { CommandsRepo } from './domains/commands/commands.repo.ts';

/**
 * What this process holds for the fleet beyond the store: the held `GET /cabinet/pending` calls, the
 * verified device-key cache, the cross-replica pushes that wake and forget them, the geocoder. Part of
 * the composition root (the kernel's context knows no domain): built once beside the services, its
 * pushes opened by `connect()` once the process serves, closed in the order a graceful stop needs.
 */
export class FleetRuntime {
  /** Address geocoder for machine placement; null without GEOCODER_URL (every geocode is `skipped`). */
  readonly geocoder: Geocoder | null;
  /** Per-process state of the cabinet gateway: verified device-key cache, witness tokens, write throttles. */
  readonly devices: DeviceRuntime;
  /** Long-polling `GET /cabinet/pending` calls held by this process, woken when a command is enqueued here. */
  readonly pendingNotifier: PendingNotifier;
  /** Cross-replica push of enqueued commands (Redis pub/sub or PostgreSQL LISTEN/NOTIFY); null on SQLite or with PENDING_PUSH=false. */
  broadcast: Broadcast | null = null;
  /** Cross-replica push of device-credential changes (revocation, rotation, reset), same transport; null on SQLite without Redis. */
  credentialPush: Broadcast | null = null;

  constructor(
    private readonly ctx: AppContext,
    commands: Pick<CommandsRepo, 'machinesWithPending'>,
    /** A stand-in geocoder (tests); otherwise built from the config. */
    geocoder?: Geocoder | null,
  ) {
    const { config, clock, logger, database } = ctx;
    this.geocoder = geocoder !== undefined ? geocoder : config.geocoder ? new NominatimGeocoder(config.geocoder) : null;
    // One process per SQLite file: every enqueue is signalled in-process, so held calls need no look at the
    // store. Replicas share PostgreSQL: every 2 s one query probes all machines held here for commands
    // another replica enqueued.
    this.pendingNotifier = new PendingNotifier(
      clock,
      database.dialect === 'postgres'
        ? {
            probe: (ids) => commands.machinesWithPending(ids),
            onProbeError: (err) => logger.warn({ err: (err as Error).message }, 'pending probe failed'),
            onPublishError: (err) => logger.warn({ err: (err as Error).message }, 'pending wake publish failed'),
          }
        : {},
    );
    this.devices = new DeviceRuntime(clock);
  }

  /**
   * Replicas sharing a store tell each other at once (docs/decisions/scale-out.md); Redis pub/sub, else
   * LISTEN/NOTIFY, else (SQLite: one process) nothing. Each push has a slower safety net for a message lost
   * while a listener reconnects: the pending probe, the credential change feed.
   */
  async connect(): Promise<void> {
    const { config, database, redis, logger } = this.ctx;
    const shared = redis || database.dialect === 'postgres';
    if (!shared) return;
    const push = (channel: string, what: string, onMessage: (machineId: string) => void) =>
      openBroadcast(
        { database, redis, redisKeyPrefix: config.redisKeyPrefix },
        { channel, onMessage, onError: (err, doing) => logger.warn({ err: (err as Error).message }, `${what}: ${doing}`) },
      );
    if (config.pendingPush) {
      const broadcast = await push('vend_pending_wake', 'pending wake', (machineId) => this.pendingNotifier.wake(machineId));
      if (broadcast) this.pendingNotifier.connect({ publish: (machineId) => broadcast.publish(machineId) });
      this.broadcast = broadcast;
    }
    const credentialPush = await push('vend_credential_change', 'credential push', (machineId) => this.devices.forgetMachine(machineId));
    if (credentialPush) {
      this.devices.connect({
        publish: (machineId) => credentialPush.publish(machineId),
        onError: (err) => logger.warn({ err: (err as Error).message }, 'credential push: publish failed'),
      });
    }
    this.credentialPush = credentialPush;
  }

  /** Held pending calls answer with what they have, and none starts: first thing in a stop, before the store goes. */
  releaseHeld(): void {
    this.pendingNotifier.close();
  }

  /** Closes the pushes (after the background loops stopped). */
  async disconnect(): Promise<void> {
    await this.broadcast?.close();
    await this.credentialPush?.close();
  }
}
