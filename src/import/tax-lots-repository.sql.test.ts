/**
 * An import writes its tax lots in bulk, built as SQL text per dialect; what it sends is checked
 * in beside this file (`__sql__/`), so a change to the write shows in the diff. After an intended
 * change, update the files with:
 *
 *   npx vitest run src/import/tax-lots-repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { bulkWriteText } from '../../test/support/sql-snapshot.js';
import { taxLotsWrite } from './tax-lots-repository.js';

describe.each(['sqlite', 'postgres'] as const)('import writes [%s]', (dialect) => {
  it('tax lots', async () => {
    const lots = [{ positionId: 30, shares: 2_000_000, cost: 180_00, acquired: '2024-03-01' }];
    await expect(bulkWriteText(dialect, taxLotsWrite(1, lots))).toMatchFileSnapshot(`__sql__/insert-tax-lots.${dialect}.sql`);
  });
});
