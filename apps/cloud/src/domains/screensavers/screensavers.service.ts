import type { Clock } from '@vend/protocol';
import { newId } from '../../crypto/ids.ts';
import type { CreativeRow } from '../../db/schema.ts';
import type { AuditLog } from '../../http/audit.ts';
import { ownerFilter, requireOwned } from '../../http/authenticate.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import { offsetOf, type Page } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { formatTimestamp } from '../../http/time-format.ts';
import type { AppStore, Repos } from '../../repos.ts';
import type { CreativeMaker } from '../campaigns/campaigns.service.ts';
import type { ScreensaverWithOwner } from './screensavers.repo.ts';
import type { CreateScreensaverBody, Screensaver, ScreensaverListQuery } from './screensavers.schemas.ts';

export interface ScreensaversDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
  creatives: Pick<CreativeMaker, 'measureUpload' | 'row' | 'view'>;
}

/**
 * An operator's own attract-loop content (spec 2 §4.2 layer 2): uploaded `pending`, shown once
 * `approved` (by the owner — the publish step — or an admin), taken off air by `retire`.
 */
export class ScreensaversService {
  constructor(private readonly deps: ScreensaversDeps) {}

  async create(p: Principal, body: CreateScreensaverBody): Promise<Screensaver> {
    const now = this.deps.clock.now();
    const machineNos = body.machineNos ? [...new Set(body.machineNos)] : null;
    if (machineNos) {
      const fleet = new Set((await this.deps.store.repos.campaigns.fleetScreens(p.operatorId)).map((m) => m.machine_no));
      const outside = machineNos.filter((no) => !fleet.has(no));
      if (outside.length > 0) throw badRequest(undefined, [{ path: 'machineNos', message: `not in your fleet: ${outside.slice(0, 20).join(', ')}` }]);
    }
    const media = await this.deps.creatives.measureUpload(body);
    const id = newId('scr', now);
    await this.deps.store.transaction(async (tx) => {
      const creative = this.deps.creatives.row(p.operatorId, media, 'upload', null, now);
      await tx.creatives.insert(creative);
      await tx.screensavers.insert({
        id,
        operator_id: p.operatorId,
        name: body.name,
        creative_id: creative.id,
        machines_json: machineNos ? JSON.stringify(machineNos) : null,
        status: 'pending',
        created_at: now,
        updated_at: now,
      });
      await this.deps.audit.record(tx, p, 'screensavers.create', `screensaver:${id}`);
    });
    return this.get(p, id);
  }

  async list(p: Principal, q: ScreensaverListQuery): Promise<Page<Screensaver>> {
    const repos = this.deps.store.repos;
    const { total, rows } = await repos.screensavers.page({ operatorId: ownerFilter(p), status: q.status }, q.size, offsetOf(q));
    const creatives = new Map((await repos.creatives.byIds(rows.map((r) => r.creative_id))).map((c) => [c.id, c]));
    return { page: q.page, size: q.size, total, records: rows.map((r) => this.view(p, r, creatives)) };
  }

  async get(p: Principal, id: string): Promise<Screensaver> {
    const repos = this.deps.store.repos;
    const row = await this.visible(repos, p, id);
    const creatives = new Map((await repos.creatives.byIds([row.creative_id])).map((c) => [c.id, c]));
    return this.view(p, row, creatives);
  }

  /** approve: pending → approved; retire: pending or approved → retired (final). */
  async review(p: Principal, id: string, action: 'approve' | 'retire'): Promise<Screensaver> {
    const now = this.deps.clock.now();
    const from = action === 'approve' ? ['pending'] : ['pending', 'approved'];
    await this.deps.store.transaction(async (tx) => {
      const row = await this.visible(tx, p, id);
      const patch = { status: action === 'approve' ? 'approved' : 'retired', reviewed_at: now, updated_at: now };
      if (!(await tx.screensavers.update(id, patch, from)))
        throw conflict(`Cannot ${action} a screensaver that is ${row.status} (${action} accepts ${from.join(' or ')})`);
      await this.deps.audit.record(tx, p, `screensavers.${action}`, `screensaver:${id}`);
    });
    return this.get(p, id);
  }

  private async visible(tx: Repos, p: Principal, id: string): Promise<ScreensaverWithOwner> {
    return requireOwned(p, await tx.screensavers.byId(id), () => notFound('Screensaver'));
  }

  private view(p: Principal, r: ScreensaverWithOwner, creatives: Map<string, CreativeRow>): Screensaver {
    return {
      id: r.id,
      name: r.name,
      status: r.status as Screensaver['status'],
      machineNos: r.machines_json === null ? null : (JSON.parse(r.machines_json) as string[]),
      creative: this.deps.creatives.view(creatives.get(r.creative_id)!),
      reviewedAt: formatTimestamp(r.reviewed_at),
      createdAt: formatTimestamp(r.created_at)!,
      ...(p.admin ? { operatorEmail: r.operator_email } : {}),
    };
  }
}
