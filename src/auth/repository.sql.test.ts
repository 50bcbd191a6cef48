/**
 * The token lookup of every secured request is compiled once per dialect (src/db/prepared.ts); its
 * SQL is checked in beside this file (`__sql__/`), so a change to the query shows in the diff.
 * After an intended change, update the files with:
 *
 *   npx vitest run src/auth/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { compilerOf, sqlText } from '../../test/support/sql-snapshot.js';
import { liveToken } from './repository.js';

describe.each(['sqlite', 'postgres'] as const)('prepared auth reads [%s]', (dialect) => {
  it('a live token, its user and privileges', async () => {
    await expect(sqlText(liveToken.compile(compilerOf(dialect), 3))).toMatchFileSnapshot(`__sql__/live-token.${dialect}.sql`);
  });
});
