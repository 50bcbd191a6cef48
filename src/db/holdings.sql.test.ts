/**
 * The packed holdings read is built as SQL text per dialect; its compiled SQL is checked in beside
 * this file (`__sql__/`), so a change to the query shows in the diff. After an intended change,
 * update the files with:
 *
 *   npx vitest run src/db/holdings.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { pricedHoldingsQuery } from './holdings.js';

describe.each(['sqlite', 'postgres'] as const)('packed holdings read [%s]', (dialect) => {
  it('priced holdings, one row an account', async () => {
    await expect(sqlText(pricedHoldingsQuery(compilerOf(dialect), 1, [10, 11]))).toMatchFileSnapshot(`__sql__/priced-holdings.${dialect}.sql`);
  });
});
