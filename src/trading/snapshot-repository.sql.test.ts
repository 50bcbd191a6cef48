/**
 * The packed reads of a rebalance are built as SQL text per dialect; their compiled SQL is checked
 * in beside this file (`__sql__/`), so a change to a query shows in the diff. After an intended
 * change, update the files with:
 *
 *   npx vitest run src/trading/snapshot-repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { accountLotsQuery, recentLotsQuery } from '../db/position-lots.js';
import { packedPositionsQuery } from './snapshot-repository.js';

describe.each(['sqlite', 'postgres'] as const)('packed rebalance reads [%s]', (dialect) => {
  const db = compilerOf(dialect);
  it('positions, one row an account', async () => {
    await expect(sqlText(packedPositionsQuery(db, 1, [10, 11]))).toMatchFileSnapshot(`__sql__/packed-positions.${dialect}.sql`);
  });
  it('lots, one row an account', async () => {
    await expect(sqlText(accountLotsQuery(db, 1, [10, 11]))).toMatchFileSnapshot(`__sql__/account-lots.${dialect}.sql`);
  });
  it("lots of the positions with a lot in the window, one row an account (a household's recent buys)", async () => {
    await expect(sqlText(recentLotsQuery(db, 1, [10, 11], '2026-10-27'))).toMatchFileSnapshot(`__sql__/recent-lots.${dialect}.sql`);
  });
});
