/**
 * The demo seed writes every generated table through one bulk write built from its spec
 * (table-specs.ts); the statement of each table, for both dialects, is checked in beside this file
 * (`__sql__/`), so a change to a spec or to the write shows in the diff. After an intended change,
 * update the files with:
 *
 *   npx vitest run src/seed/repository.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { bulkWriteText } from '../../test/support/sql-snapshot.js';
import { seedTableWrite } from './repository.js';
import { SPECS, WRITE_ORDER } from './table-specs.js';

const AUDIT = { at: '2026-01-01T00:00:00.000Z', by: 'seed' };

describe.each(['sqlite', 'postgres'] as const)('the demo seed writes [%s]', (dialect) => {
  it('one statement a generated table, in the order they are written', async () => {
    const text = WRITE_ORDER.map((table) => {
      const spec = SPECS[table];
      // As the demo seed writes them: PostgreSQL draws every id ahead (leaf rows included);
      // SQLite numbers all but the leaves, which the database numbers.
      const withId = !spec.noId && (dialect === 'postgres' || !spec.leaf);
      const width = (withId ? 1 : 0) + Object.keys(spec.columns).length;
      // Written through copyRows: on PostgreSQL a COPY from 16 rows, the insert below that.
      return `-- ${table}\n${bulkWriteText(dialect, seedTableWrite(table, withId, 1, AUDIT, [new Array(width).fill(null)]), 'copy')}`;
    }).join('\n');
    await expect(text).toMatchFileSnapshot(`__sql__/seed-tables.${dialect}.sql`);
  });
});
