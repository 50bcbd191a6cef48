import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { insertFirm } from '../seed/repository.js';
import { arrayLiteral, bulkInsert } from './bulk-insert.js';
import type { Db } from './database.js';

// Text that an array literal must carry through unchanged: quotes, backslashes, the literal's own
// separators and braces, the word NULL, the empty string, spaces at the ends, line breaks, unicode.
const NAMES = ['plain', 'with "quotes"', 'back\\slash \\" both', 'comma, {braces}', 'NULL', '', '  spaced  ', 'line\nbreak\ttab', 'ünïcødé ✓'];
const PERCENTS = [0.1, 1e-7, 12.5, -0, 100 / 3, 123456789.125, 0, 7, 1e21];

describeEachDatabase('bulkInsert', (database) => {
  let target: { db: Db; drop(): Promise<void> };
  let firmId: number;

  beforeAll(async () => {
    target = await database.open();
    firmId = await insertFirm(target.db.kysely, { name: 'Bulk', code: 'BULK', created_at: '2026-01-01T00:00:00.000Z' });
  });
  afterAll(() => target?.drop());

  it('writes every value as given: text with quotes, backslashes and separators, nulls, floats', async () => {
    const rows = NAMES.map((name, i) => [name, i % 3 === 0 ? null : i % 3 === 1 ? undefined : `note ${name}`, PERCENTS[i]]);
    const audit = '2026-01-01T00:00:00.000Z';
    await bulkInsert(
      target.db.kysely,
      'models',
      [['name', 'text'], ['description', 'text'], ['cash_target_pct', 'float8']],
      [['firm_id', 'int4', firmId], ['created_at', 'text', audit], ['created_by', 'text', 'test'], ['edited_at', 'text', audit], ['edited_by', 'text', 'test']],
      rows,
    );
    const stored = await target.db.kysely.selectFrom('models').select(['name', 'description', 'cash_target_pct']).where('firm_id', '=', firmId).orderBy('id').execute();
    expect(stored).toEqual(rows.map(([name, description, pct]) => ({ name, description: description ?? null, cash_target_pct: Object.is(pct, -0) ? 0 : pct })));
  });
});

it('gives PostgreSQL the array text pg would, without quoting numbers, and leaves other values to pg', () => {
  expect(arrayLiteral([[1], [null], [undefined], [-2.5], [1e21]], 0)).toBe('{1,NULL,NULL,-2.5,1e+21}');
  expect(arrayLiteral([['a"b'], ['c\\d'], ['NULL'], ['']], 0)).toBe('{"a\\"b","c\\\\d","NULL",""}');
  const date = new Date(0);
  expect(arrayLiteral([[1], [date]], 0)).toEqual([1, date]);
});
