/**
 * An import on PostgreSQL draws the ids of its next write while the one in hand runs: a take gives
 * each row its own id from the table's sequence, those drawn ahead first, and draws what is missing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import type { Tables } from '../seed/repository.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { IdsAhead } from './ids-ahead-repository.js';

const rows = (clients: number, lots = 0): Tables => ({ clients: new Array<object>(clients).fill({}), tax_lots: new Array<object>(lots).fill({}) });

describeEachDatabase('ids drawn a write ahead', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await database.open()));
  afterAll(() => drop());
  const lastDrawn = async () => Number((await sql<{ id: string }>`select last_value as id from clients_id_seq`.execute(db.kysely)).rows[0]!.id);

  it.skipIf(database.name !== 'postgres')('gives each numbered row an id of its own, drawn ahead where it can, and draws only what is missing', async () => {
    const ahead = new IdsAhead(db.kysely);
    const first = await ahead.take(rows(4, 3));
    // Lots are numbered by the database as they are written: nothing is drawn for them.
    expect(Object.keys(first)).toEqual(['clients']);
    const start = first.clients![0]!;
    expect(first.clients).toEqual([start, start + 1, start + 2, start + 3]);

    // A write of four draws five ahead (a quarter more); the next write takes them without a draw.
    ahead.drawAhead(rows(4));
    await ahead.settled();
    expect(await lastDrawn()).toBe(start + 8);
    expect((await ahead.take(rows(5))).clients).toEqual([start + 4, start + 5, start + 6, start + 7, start + 8]);
    expect(await lastDrawn()).toBe(start + 8);

    // Two are drawn ahead, three more are needed: those are drawn then.
    ahead.drawAhead(rows(1));
    await ahead.settled();
    expect((await ahead.take(rows(5))).clients).toEqual([start + 9, start + 10, start + 11, start + 12, start + 13]);
    expect(await lastDrawn()).toBe(start + 13);
  });
});
