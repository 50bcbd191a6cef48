import SqliteDatabase from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { objectRows } from './sqlite-rows.js';

const sqlite = new SqliteDatabase(':memory:');
sqlite.exec(`create table t (id integer primary key, name text, cents bigint, ratio real, blob blob);
  insert into t values (1, 'a', 9007199254740991, 0.5, x'01ff'), (2, null, -3, null, null);`);
afterAll(() => sqlite.close());

/** The rows better-sqlite3 builds itself, for comparison. */
const driverRows = (text: string, parameters: unknown[] = []) => sqlite.prepare(text).all(parameters);

describe('objectRows', () => {
  it('gives the rows the driver gives: keys, order, values and types', () => {
    const text = 'select * from t order by id';
    const rows = objectRows(sqlite.prepare(text)).all([]);
    expect(rows).toEqual(driverRows(text));
    expect(rows.map((r) => Object.keys(r as object))).toEqual(driverRows(text).map((r) => Object.keys(r as object)));
    expect(rows[0]).toEqual({ id: 1, name: 'a', cents: 9007199254740991, ratio: 0.5, blob: Buffer.from([1, 255]) });
  });

  it('keeps a name given twice where the driver keeps it: first place, last value', () => {
    const text = 'select id, name, id + 10 as id from t where id = ?';
    const [row] = objectRows(sqlite.prepare(text)).all([1]);
    expect(row).toEqual(driverRows(text, [1])[0]);
    expect(Object.entries(row as object)).toEqual([['id', 11], ['name', 'a']]);
  });

  it('takes any column name as a property, one that looks like code or __proto__ included', () => {
    const odd = 'select 1 as "a""b", 2 as "x\\ny", 3 as "}; throw 1; ({", 4 as "__proto__"';
    const rows = objectRows(sqlite.prepare(odd)).all([]);
    expect(rows).toEqual(driverRows(odd));
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    const [withoutProto] = objectRows(sqlite.prepare('select 1 as "a""b", 3 as "}; throw 1; ({"')).all([]);
    expect(withoutProto).toEqual({ 'a"b': 1, '}; throw 1; ({': 3 });
  });

  it('streams rows with iterate and leaves writes to the driver', () => {
    const rows = [...objectRows(sqlite.prepare('select id from t order by id')).iterate([])];
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
    const insert = objectRows(sqlite.prepare('insert into t (id, name) values (?, ?)'));
    expect(insert.reader).toBe(false);
    expect(insert.run([3, 'c']).changes).toBe(1);
    const returning = objectRows(sqlite.prepare('insert into t (id, name) values (?, ?) returning id, name'));
    expect(returning.all([4, 'd'])).toEqual([{ id: 4, name: 'd' }]);
    sqlite.exec('delete from t where id > 2');
  });

  it('follows a schema change under a prepared statement (SQLite prepares it again)', () => {
    sqlite.exec('create table s (a integer, b text); insert into s values (1, \'x\')');
    const statement = objectRows(sqlite.prepare('select * from s'));
    expect(statement.all([])).toEqual([{ a: 1, b: 'x' }]);
    sqlite.exec('alter table s add column c real default 2.5');
    expect(statement.all([])).toEqual([{ a: 1, b: 'x', c: 2.5 }]);
    sqlite.exec('alter table s drop column b');
    expect(statement.all([])).toEqual([{ a: 1, c: 2.5 }]);
    expect([...statement.iterate([])]).toEqual([{ a: 1, c: 2.5 }]);
    sqlite.exec('drop table s');
  });

  it('reports a statement still iterating as busy (the statement cache gives such a one a twin)', () => {
    const statement = objectRows(sqlite.prepare('select id from t'));
    const iterator = statement.iterate([]);
    iterator.next();
    expect(statement.busy).toBe(true);
    iterator.return?.();
    expect(statement.busy).toBe(false);
  });

  it('agrees with the driver on generated names and values', () => {
    const name = fc.string({ minLength: 1, maxLength: 12 }).filter((n) => !n.includes('\u0000'));
    const value = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { minLength: 1, maxLength: 8 }), (columns) => {
        const text = `select ${columns.map(([n]) => `? as "${n.replaceAll('"', '""')}"`).join(', ')}`;
        const parameters = columns.map(([, v]) => v);
        const ours = objectRows(sqlite.prepare(text)).all(parameters);
        const theirs = driverRows(text, parameters);
        expect(ours).toEqual(theirs);
        expect(Object.keys(ours[0] as object)).toEqual(Object.keys(theirs[0] as object));
      }),
    );
  });
});
