/**
 * PostgreSQL draws the ids of rows written in bulk ahead of the write (imports, the demo seed).
 * The database sends the ends of the run it drew; when the run is broken (another session drew
 * from the same sequence meanwhile), those ids are left unused and every id of a second draw is
 * read instead. A sequence stepping by more than one breaks every run, so it stands in for that
 * other session here.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { allocateTableIds, type Tables } from './repository.js';

const rows = (count: number): Tables => ({ tax_lots: new Array<object>(count).fill({}) });

describeEachDatabase('ids drawn ahead of a bulk write', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await database.open()));
  afterAll(() => drop());
  const sequence = sql`(select pg_get_serial_sequence('tax_lots', 'id'))::regclass`;

  it.skipIf(database.name !== 'postgres')('are one run, after every id drawn before', async () => {
    const first = (await allocateTableIds(db.kysely, rows(1_000))).tax_lots!;
    const second = (await allocateTableIds(db.kysely, rows(3))).tax_lots!;
    expect(first).toHaveLength(1_000);
    expect(first.every((id, i) => id === first[0]! + i)).toBe(true);
    expect(second).toEqual([first[999]! + 1, first[999]! + 2, first[999]! + 3]);
    const { rows: last } = await sql<{ id: string }>`select nextval(${sequence}) as id`.execute(db.kysely);
    expect(Number(last[0]!.id)).toBe(second[2]! + 1);
  });

  it.skipIf(database.name !== 'postgres')('are read one by one when the run is broken, none of them given twice', async () => {
    const { rows: before } = await sql<{ id: string }>`select nextval(${sequence}) as id`.execute(db.kysely);
    await sql`alter sequence ${sql.raw(`tax_lots_id_seq`)} increment by 3`.execute(db.kysely);
    try {
      const ids = (await allocateTableIds(db.kysely, rows(5))).tax_lots!;
      // The first draw took 5 ids stepping by 3 and left them; the second gave these.
      const start = Number(before[0]!.id) + 3 * 5 + 3;
      expect(ids).toEqual([start, start + 3, start + 6, start + 9, start + 12]);
    } finally {
      await sql`alter sequence ${sql.raw(`tax_lots_id_seq`)} increment by 1`.execute(db.kysely);
    }
  });
});
