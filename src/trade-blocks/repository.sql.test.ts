/**
 * The trade block detail read is compiled once per dialect (src/db/prepared.ts); its SQL is
 * checked in beside this file (`__sql__/`), so a change to the query shows in the diff. After an
 * intended change, update the files with:
 *
 *   npx vitest run src/trade-blocks/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { detailWithDateOption } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('prepared trade block reads [%s]', (dialect) => {
  it('a trade block with the firm’s date option', async () => {
    await expect(sqlText(detailWithDateOption.compile(compilerOf(dialect), 2))).toMatchFileSnapshot(`__sql__/detail-with-date-option.${dialect}.sql`);
  });
});
