/**
 * The tax loader's packed read of recent lots is built as SQL text per dialect; its compiled SQL
 * is checked in beside this file (`__sql__/`), so a change to the query shows in the diff. After
 * an intended change, update the files with:
 *
 *   npx vitest run src/trading/tax-inputs-repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { recentLotsQuery } from './tax-inputs-repository.js';

describe.each(['sqlite', 'postgres'] as const)('packed tax reads [%s]', (dialect) => {
  it("recent lots of the household's other accounts, one row an account", async () => {
    await expect(sqlText(recentLotsQuery(compilerOf(dialect), 1, [10, 11], '2026-10-27'))).toMatchFileSnapshot(`__sql__/packed-recent-lots.${dialect}.sql`);
  });
});
