import type { Db } from '../../db/database.js';

export async function countFirms(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('firms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findFirmIdByCode(db: Db, code: string): Promise<number | undefined> {
  const row = await db.kysely.selectFrom('firms').select('id').where('code', '=', code).executeTakeFirst();
  return row?.id;
}
