/**
 * The bulk writer builds each position's lots text from the lots written with it
 * (db/position-lots.ts): a lot it cannot place among the write's positions would leave some
 * position's text out of step, so it refuses the write before sending a row.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { inWriteTransaction, writeTables } from './repository.js';

const AUDIT = { at: '2026-01-01T00:00:00.000Z', by: 'test' };
const lot = (position_id: number) => ({ position_id, shares_micros: 1_000_000, cost_cents: 100, acquired_date: '2026-01-02' });
const position = { account_id: 0, product_id: 0, shares_micros: 1_000_000, cost_cents: 100 };
// Ids of rows the write names but never reaches: it is refused before its first statement.
const known = { accounts: [1], products: [1] };

describeEachDatabase('the bulk writer of seeds and imports', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => ({ db, drop } = await database.open()));
  afterAll(() => drop());

  it('refuses lots written without their positions', async () => {
    const write = inWriteTransaction(db, (conn) => writeTables(conn, db.dialect, 1, { tax_lots: [lot(0)] }, known, AUDIT));
    await expect(write).rejects.toThrow('tax_lots: lots written without their positions');
  });

  it('refuses a lot naming a position outside the write, and writes nothing', async () => {
    const write = inWriteTransaction(db, (conn) => writeTables(conn, db.dialect, 1, { positions: [position], tax_lots: [lot(0), lot(1)] }, known, AUDIT));
    await expect(write).rejects.toThrow('tax_lots: a lot of position 1 written apart from its position');
    expect(await db.kysely.selectFrom('positions').select('id').execute()).toEqual([]);
  });
});
