/**
 * The daily valuation writes a date's account values in bulk, built as SQL text per dialect; what
 * it sends is checked in beside this file (`__sql__/`), so a change to the write shows in the
 * diff. After an intended change, update the files with:
 *
 *   npx vitest run src/performance/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { bulkWriteText } from '../../test/support/sql-snapshot.js';
import { accountValuesWrite } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('valuation writes [%s]', (dialect) => {
  it("one date's account values", async () => {
    const rows = [{ accountId: 10, cents: 1_000_00, flow: 0, fee: -25, income: 12 }];
    await expect(bulkWriteText(dialect, accountValuesWrite(1, '2026-11-26', rows))).toMatchFileSnapshot(`__sql__/insert-account-values.${dialect}.sql`);
  });
});
