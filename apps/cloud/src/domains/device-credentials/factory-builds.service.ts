import type { Clock } from '@vend/protocol';
import type { AuditLog } from '../../http/audit.ts';
import type { AppStore } from '../../repos.ts';
import { AppError, conflict } from '../../http/errors.ts';
import { offsetOf, type Page, type Paging } from '../../http/paging.ts';
import type { Principal } from '../../http/principal.ts';
import { buildView } from './credential-views.ts';
import type { BuildInput, BuildPatch, BuildView } from './device-credentials.schemas.ts';

export interface FactoryBuildsDeps {
  store: AppStore;
  clock: Clock;
  audit: AuditLog;
}

/** Factory build records (spec 2 §5): a plant records the cabinets it built, their QA sign-off and shipping. */
export class FactoryBuildsService {
  constructor(private readonly deps: FactoryBuildsDeps) {}

  private plantOf(p: Principal, requested: string | undefined): string {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    if (p.admin) {
      if (requested === undefined) throw new AppError('bad_request', 'plant is required for admin credentials');
      return requested;
    }
    if (p.plant === null) throw new AppError('forbidden', 'This factory key names no plant');
    return p.plant;
  }

  async createBuild(p: Principal, input: BuildInput): Promise<BuildView> {
    const plant = this.plantOf(p, input.plant);
    const now = this.deps.clock.now();
    const builtAt = input.builtAt !== undefined ? Date.parse(input.builtAt) : now;
    const row = await this.deps.store.transaction(async (tx) => {
      const existing = await tx.deviceCredentials.buildRecord(input.machineNo);
      if (existing) throw conflict(existing.plant === plant ? `A build record for ${input.machineNo} exists` : `${input.machineNo} was built at another plant`);
      const machine = await tx.machines.machineByNo(input.machineNo);
      // Spec 2 §5 rule 6: a cabinet already registered to an operator is not a factory build.
      if (machine && machine.operator_id !== null) throw conflict(`${input.machineNo} is already registered to an operator`);
      const r = {
        machine_no: input.machineNo,
        plant,
        built_at: builtAt,
        qa_passed_at: null,
        shipped_at: null,
        recorded_by_key: p.credentialId,
        created_at: now,
        updated_at: now,
      };
      await tx.deviceCredentials.insertBuildRecord(r);
      await this.deps.audit.record(tx, p, 'factory.build', `machine:${input.machineNo} plant:${plant}`);
      return r;
    });
    return buildView(row);
  }

  async updateBuild(p: Principal, machineNo: string, patch: BuildPatch): Promise<BuildView> {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    if (!patch.qaPassed && !patch.shipped) throw new AppError('bad_request', 'Send qaPassed: true and/or shipped: true');
    const now = this.deps.clock.now();
    return this.deps.store.transaction(async (tx) => {
      const b = await tx.deviceCredentials.buildRecord(machineNo);
      if (!b || (!p.admin && b.plant !== p.plant)) throw new AppError('not_found', 'Build record not found');
      const qa = b.qa_passed_at ?? (patch.qaPassed ? now : null);
      if (patch.shipped && qa === null) throw conflict('A cabinet ships only after it passed QA');
      const shipped = b.shipped_at ?? (patch.shipped ? now : null);
      await tx.deviceCredentials.updateBuildRecord(machineNo, { qa_passed_at: qa, shipped_at: shipped, updated_at: now });
      await this.deps.audit.record(tx, p, patch.shipped ? 'factory.ship' : 'factory.qa', `machine:${machineNo}`);
      return buildView({ ...b, qa_passed_at: qa, shipped_at: shipped });
    });
  }

  async builds(p: Principal, q: Paging): Promise<Page<BuildView>> {
    if (!p.scopes.has('machines:build')) throw new AppError('forbidden');
    // A build key names its plant; a non-admin holding the scope without one sees no plant's records.
    if (!p.admin && !p.plant) return { page: q.page, size: q.size, total: 0, records: [] };
    const { total, rows } = await this.deps.store.repos.deviceCredentials.buildRecords(p.admin ? null : p.plant!, q.size, offsetOf(q));
    return { page: q.page, size: q.size, total, records: rows.map(buildView) };
  }
}
