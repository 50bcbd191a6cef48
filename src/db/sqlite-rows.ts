import type SqliteDatabase from 'better-sqlite3';

/** What Kysely's SQLite driver uses of a statement, plus `busy` for the statement cache. */
export interface RowStatement {
  readonly reader: boolean;
  readonly busy: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SqliteDatabase.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type RowMaker = (values: unknown[]) => unknown;

/** A function that makes one row object of a statement's values, compiled for its column names. */
function rowMaker(statement: SqliteDatabase.Statement): { width: number; row: RowMaker } | undefined {
  const names = statement.columns().map((column) => column.name);
  // A literal `"__proto__": …` would set the prototype instead of a property: leave such a
  // statement to the driver.
  if (names.includes('__proto__')) return undefined;
  // The names come from SQL text, but JSON.stringify makes any name a safe string literal.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const row = new Function('r', `return { ${names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ')} };`) as RowMaker;
  return { width: names.length, row };
}

/**
 * A reading statement whose rows are built in JavaScript. better-sqlite3 builds each row object
 * through V8's C++ API one property at a time; read as arrays and built by a function compiled
 * once per statement (object literals of one shape, which V8 also reads faster later), a page of
 * wide rows is built in about half the time. The rows are the same objects:
 * the same keys in the same order, a name given twice keeps its first place and its last value.
 */
export function objectRows(statement: SqliteDatabase.Statement): RowStatement {
  if (!statement.reader) return statement;
  let maker = rowMaker(statement);
  if (!maker) return statement;
  statement.raw(true);
  // SQLite prepares a statement again by itself when the schema changes (a migration adding a
  // column to a `select *`): rows of another width are made by a maker of the new columns. A
  // change that keeps the width (a rename) is not seen; migrations run before a process reads, so
  // only a process running old code against a newer schema meets one, and that code is wrong anyway.
  const rowsOf = (values: unknown[][]) => {
    if (values.length > 0 && values[0]!.length !== maker!.width) maker = rowMaker(statement) ?? maker;
    return values.map(maker!.row);
  };
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all: (parameters) => rowsOf(statement.all(parameters) as unknown[][]),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowsOf([values])[0];
    },
  };
}
