/**
 * The performance read packs each account's history into one text per dialect; its compiled SQL is
 * checked in beside this file (`__sql__/`), so a change to the query shows in the diff. After an
 * intended change, update the files with:
 *
 *   npx vitest run src/performance/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { membersWithHistoriesQuery, unpackHistory } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('packed performance read [%s]', (dialect) => {
  const db = compilerOf(dialect);
  it("an account's history, one row an account", async () => {
    await expect(sqlText(membersWithHistoriesQuery(db, 1, 'Accounts', [10], '2026-09-30'))).toMatchFileSnapshot(`__sql__/members-with-histories.${dialect}.sql`);
  });
  it("a household's accounts with their histories", async () => {
    await expect(sqlText(membersWithHistoriesQuery(db, 1, 'Clients', [3, 4]))).toMatchFileSnapshot(`__sql__/household-members-with-histories.${dialect}.sql`);
  });
});

describe('unpackHistory', () => {
  it('reads dates, an empty value as none, and signed money', () => {
    expect(unpackHistory('2026-01-01,100000,0,0,0;2026-01-02,,-5000,25,3')).toEqual([
      { day: Date.UTC(2026, 0, 1) / 86_400_000, value: 100_000, flow: 0, fee: 0, income: 0 },
      { day: Date.UTC(2026, 0, 2) / 86_400_000, value: null, flow: -5000, fee: 25, income: 3 },
    ]);
    expect(unpackHistory(null)).toEqual([]);
  });
});
