import type { Insertable, Kysely } from 'kysely';
import type { CreativeRow, CreativesTable, DB } from '../../db/schema.ts';

/** SQL of creatives: the one writer of `creatives`. (Stand-in until the media branch lands.) */
export class CreativesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<CreativesTable>): Promise<void> {
    await this.db.insertInto('creatives').values(row).execute();
  }

  byId(id: string): Promise<CreativeRow | undefined> {
    return this.db.selectFrom('creatives').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async byIds(ids: readonly string[]): Promise<CreativeRow[]> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('creatives').selectAll().where('id', 'in', ids).execute();
  }
}
