import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { insertFirm } from '../seed/repository.js';
import { copyRows, copyText, copyValue } from './copy-rows.js';
import type { Db } from './database.js';

const AUDIT = '2026-01-01T00:00:00.000Z';
const MODEL_CONSTANTS = (firmId: number): Parameters<typeof copyRows<'models'>>[3] => [
  ['firm_id', 'int4', firmId],
  ['created_at', 'text', AUDIT],
  ['created_by', 'text', 'tab\there\\ and\nline'],
  ['edited_at', 'text', AUDIT],
  ['edited_by', 'text', 'test'],
];

// Text COPY's format gives a meaning to (tab, newline, carriage return, backslash, the \N of NULL)
// and text that merely looks like it; PostgreSQL text holds no NUL and no lone surrogate.
const AWKWARD = fc.oneof(
  fc.string({ unit: fc.constantFrom('\\', '\t', '\n', '\r', 'N', '.', ' ', '"', ',', '\\N', '\\.', 'é', '✓', '𝄞') }),
  fc.string({ unit: 'grapheme' }),
);

describeEachDatabase('copyRows', (database) => {
  let target: { db: Db; drop(): Promise<void> };
  let firmId: number;
  let round = 0;

  beforeAll(async () => {
    target = await database.open();
    firmId = await insertFirm(target.db.kysely, { name: 'Copy', code: 'COPY', created_at: AUDIT });
  });
  afterAll(() => target?.drop());

  const stored = (prefix: string) =>
    target.db.kysely.selectFrom('models').select(['name', 'description', 'cash_target_pct', 'created_by']).where('firm_id', '=', firmId).where('name', 'like', `${prefix}%`).orderBy('id').execute();

  it('round-trips awkward text, nulls and floats unchanged, in row order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(AWKWARD, fc.option(AWKWARD), fc.double({ noNaN: true, noDefaultInfinity: true })), { minLength: 1, maxLength: 60 }), async (values) => {
        const prefix = `r${round++}:`;
        const rows = values.map(([name, description, pct], i) => [`${prefix}${i}:${name}`, description, pct]);
        await copyRows(target.db.kysely, 'models', [['name', 'text'], ['description', 'text'], ['cash_target_pct', 'float8']], MODEL_CONSTANTS(firmId), rows);
        expect(await stored(prefix)).toEqual(rows.map(([name, description, pct]) => ({ name, description, cash_target_pct: Object.is(pct, -0) ? 0 : pct, created_by: 'tab\there\\ and\nline' })));
      }),
      { numRuns: 40 },
    );
  });

  it('writes in the caller transaction: rolled back with it, nothing left behind', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => [`rollback:${i}`, null, i]);
    await expect(
      target.db.kysely.transaction().execute(async (trx) => {
        await copyRows(trx, 'models', [['name', 'text'], ['description', 'text'], ['cash_target_pct', 'float8']], MODEL_CONSTANTS(firmId), rows);
        expect(await trx.selectFrom('models').select('id').where('name', 'like', 'rollback:%').execute()).toHaveLength(100);
        throw new Error('abort the chunk');
      }),
    ).rejects.toThrow('abort the chunk');
    expect(await stored('rollback:')).toEqual([]);
  });

  it('fails the statement on a bad row, and the connection stays usable', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => [`bad:${i}`, null, i]);
    rows[30]![0] = null; // name is not null
    await expect(copyRows(target.db.kysely, 'models', [['name', 'text'], ['description', 'text'], ['cash_target_pct', 'float8']], MODEL_CONSTANTS(firmId), rows)).rejects.toThrow();
    expect(await stored('bad:')).toEqual([]);
    await copyRows(target.db.kysely, 'models', [['name', 'text'], ['description', 'text'], ['cash_target_pct', 'float8']], MODEL_CONSTANTS(firmId), rows.slice(0, 20));
    expect(await stored('bad:')).toHaveLength(20);
  });
});

it('writes COPY text: tabs between columns, escapes, \\N for null, constants ending each row', () => {
  expect(copyText([['a\tb', null, 1.5], ['c\\d\ne\rf', undefined, -0]], 3, [7, 'x\ty']).toString('utf8')).toBe('a\\tb\t\\N\t1.5\t7\tx\\ty\nc\\\\d\\ne\\rf\t\\N\t0\t7\tx\\ty\n');
  // UTF-8 bytes, as COPY reads them, constants included; big and negative integers as String() prints them.
  expect(copyText([['Zoë € 😀', -9_007_199_254_740_991, 12_345_678_901]], 3, ['Ångström']).toString('utf8')).toBe('Zoë € 😀\t-9007199254740991\t12345678901\tÅngström\n');
  expect(copyValue('\\N')).toBe('\\\\N');
  expect(copyValue(true)).toBe('t');
  expect(() => copyValue({})).toThrow(TypeError);
});
