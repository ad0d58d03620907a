import type { Insertable, Kysely } from 'kysely';
import type { CreativeRow, CreativesTable, DB } from '../../db/schema.ts';

/** Ids looked up per statement (well under every dialect's bound-parameter limit). */
const IDS_PER_QUERY = 500;

/** SQL for creatives: the only writer of `creatives`. The files themselves live in the MediaStore. */
export class CreativesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<CreativesTable>): Promise<void> {
    await this.db.insertInto('creatives').values(row).execute();
  }

  byId(id: string): Promise<CreativeRow | undefined> {
    return this.db.selectFrom('creatives').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The creatives of these ids that exist, in no particular order. */
  async byIds(ids: readonly string[]): Promise<CreativeRow[]> {
    const unique = [...new Set(ids)];
    const rows: CreativeRow[] = [];
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
      const part = unique.slice(i, i + IDS_PER_QUERY);
      rows.push(...(await this.db.selectFrom('creatives').selectAll().where('id', 'in', part).execute()));
    }
    return rows;
  }
}
