/**
 * The performance repository's SQL built per dialect is checked in beside this file (`__sql__/`):
 * the daily valuation's bulk write of a date's account values, and the read that packs each
 * account's history into one text. A change to either shows in the diff. After an intended change,
 * update the files with:
 *
 *   npx vitest run src/performance/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { bulkWriteText, compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { accountValuesWrite, membersWithHistoriesQuery } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('valuation writes [%s]', (dialect) => {
  it("one date's account values", async () => {
    const rows = [{ accountId: 10, cents: 1_000_00, flow: 0, fee: -25, income: 12 }];
    await expect(bulkWriteText(dialect, accountValuesWrite(1, '2026-11-26', rows))).toMatchFileSnapshot(`__sql__/insert-account-values.${dialect}.sql`);
  });
});

describe.each(['sqlite', 'postgres'] as const)('packed performance read [%s]', (dialect) => {
  const db = compilerOf(dialect);
  it("an account's history, one row an account", async () => {
    await expect(sqlText(membersWithHistoriesQuery(db, 1, 'Accounts', [10], '2026-09-30'))).toMatchFileSnapshot(`__sql__/members-with-histories.${dialect}.sql`);
  });
  it("a household's accounts with their histories", async () => {
    await expect(sqlText(membersWithHistoriesQuery(db, 1, 'Clients', [3, 4]))).toMatchFileSnapshot(`__sql__/household-members-with-histories.${dialect}.sql`);
  });
});
