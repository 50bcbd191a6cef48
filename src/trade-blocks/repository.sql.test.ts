/**
 * The trade block detail read (compiled once per dialect, src/db/prepared.ts) and a rebalance
 * chunk's read of live blocks: their SQL is checked in beside this file (`__sql__/`), so a change
 * to a query shows in the diff. After an intended change, update the files with:
 *
 *   npx vitest run src/trade-blocks/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { detailWithDateOption, TradeBlockRepository } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('prepared trade block reads [%s]', (dialect) => {
  it('a trade block with the firm’s date option', async () => {
    await expect(sqlText(detailWithDateOption.compile(compilerOf(dialect), 2))).toMatchFileSnapshot(`__sql__/detail-with-date-option.${dialect}.sql`);
  });
  it('the live blocks of a rebalance chunk’s accounts and registrations', async () => {
    await expect(sqlText(new TradeBlockRepository(compilerOf(dialect)).liveBlocksQuery(1, [10, 11], [20]))).toMatchFileSnapshot(`__sql__/live-blocks-on-entities.${dialect}.sql`);
  });
});
