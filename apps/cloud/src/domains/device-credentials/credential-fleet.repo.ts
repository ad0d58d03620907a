import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

export type FleetState = 'enrolled' | 'fleet-secret' | 'revoked';

export interface FleetFilter {
  operatorId: string | null;
  state?: FleetState | undefined;
}

/** Reads of the credential fleet view (spec 2 §2.8): machines with their identity, credentials and arms. Writes nothing. */
export class CredentialFleetRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private fleetBase(f: FleetFilter) {
    const state = sql<FleetState>`coalesce(i.cred_state, 'fleet-secret')`;
    return this.db
      .selectFrom('machines as m')
      .leftJoin('device_identities as i', 'i.machine_id', 'm.id')
      .where('m.retired_at', 'is', null)
      .$if(f.operatorId !== null, (q) => q.where('m.operator_id', '=', f.operatorId))
      .$if(f.state !== undefined, (q) => q.where(state, '=', f.state ?? 'enrolled'));
  }

  async fleetCounts(f: FleetFilter, now: number) {
    const base = this.fleetBase({ operatorId: f.operatorId });
    const row = await base
      .leftJoin('cabinet_status as s', 's.machine_id', 'm.id')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(sql`case when coalesce(i.cred_state, 'fleet-secret') = 'fleet-secret' then 1 else 0 end`).as('reachable'),
        eb.fn
          .sum<number>(sql`case when coalesce(i.cred_state, 'fleet-secret') = 'fleet-secret' and s.fleet_secret_seen_at is not null then 1 else 0 end`)
          .as('on_fleet'),
        eb.fn
          .sum<number>(
            sql`case when exists (select 1 from enrolment_arms a where a.machine_id = m.id and a.closed_at is null and a.expires_at > ${now}) then 1 else 0 end`,
          )
          .as('armed'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), reachable: Number(row.reachable ?? 0), onFleet: Number(row.on_fleet ?? 0), armed: Number(row.armed ?? 0) };
  }

  async fleetPage(f: FleetFilter, limit: number, offset: number) {
    const { n } = await this.fleetBase(f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await this.fleetBase(f)
      .select([
        'm.id',
        'm.machine_no',
        'm.operator_id',
        'i.cred_state',
        'i.binding',
        'i.device_id',
        'i.rotation_due_at',
        'i.revoked_at',
        'i.revoked_by',
        'i.revoke_reason',
      ])
      .orderBy('m.machine_no')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total: Number(n), rows };
  }

  activeCredentials(machineIds: string[]) {
    if (machineIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('device_credentials')
      .select(['machine_id', 'key_id', 'generation', 'activated_at', 'created_at'])
      .where('machine_id', 'in', machineIds)
      .where('state', '=', 'active')
      .execute();
  }

  openArms(machineIds: string[], now: number) {
    if (machineIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('enrolment_arms')
      .selectAll()
      .where('machine_id', 'in', machineIds)
      .where('closed_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'asc')
      .execute();
  }
}
