import { CompiledQuery, type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';
import { TextBytes } from './text-bytes.js';

/**
 * Many rows at driver speed on both dialects. PostgreSQL: one statement per call, one typed
 * array per column through unnest, so the bound parameter count stays tiny whatever the row
 * count. SQLite: multi-row `insert … select *, ?… from (values (?,…),(?,…))` statements of a
 * few fixed sizes (the constants bound once, in the select list), so the connection's statement
 * cache (src/db/database.ts) prepares each shape once and every later batch only binds values;
 * binding is cheaper than building and parsing a JSON document for json_each. Kysely's own multi-row insert costs more to build than the rows cost to write.
 */
export type ColumnType = 'int4' | 'int8' | 'text' | 'float8';

/** Rows per SQLite statement: a full batch and power-of-two tails keep the statement shapes few. */
const SQLITE_BATCH_ROWS = 512;
/** SQLite's default SQLITE_MAX_VARIABLE_NUMBER since 3.32. */
const SQLITE_MAX_VARIABLES = 32_766;

/** Statement texts by table, columns and row count: a few per table, built once. */
const statements = new Map<string, string>();

/** A column of `table`, by the names db/schema.ts gives it, with its type on the wire. */
export type Column<T extends keyof Database> = keyof Database[T] & string;
export type BulkColumn<T extends keyof Database> = [Column<T>, ColumnType];

/** A value every row of a write shares (the firm, the batch, the time), bound once per statement. */
export type BulkConstant<T extends keyof Database> = [Column<T>, ColumnType, string | number];

/** The quoted column names of a bulk write, the rows' columns first, then the constants': bulk inserts and COPY name them alike. */
export function columnList<T extends keyof Database>(columns: BulkColumn<T>[], constants: BulkConstant<T>[]): string {
  return [...columns.map(([c]) => c), ...constants.map(([c]) => c)].map((c) => `"${c}"`).join(', ');
}

/** A bulk write not yet run: the table, the rows' columns, the values every row shares, the rows. */
export interface BulkWrite<T extends keyof Database> {
  table: T;
  columns: BulkColumn<T>[];
  constants: BulkConstant<T>[];
  rows: unknown[][];
}

export const bulkWrite = <T extends keyof Database>(conn: Kysely<Database>, write: BulkWrite<T>) => bulkInsert(conn, write.table, write.columns, write.constants, write.rows);

export async function bulkInsert<T extends keyof Database>(
  conn: Kysely<Database>,
  table: T,
  columns: BulkColumn<T>[],
  constants: BulkConstant<T>[],
  rows: unknown[][],
): Promise<void> {
  for (const query of bulkInsertQueries(conn, { table, columns, constants, rows })) await conn.executeQuery(query);
}

/**
 * The statements bulkInsert runs for the rows, compiled for `conn`'s dialect and not run: one on
 * PostgreSQL, one per batch on SQLite. Each is built when the previous one has run, so a large
 * write never holds all its parameters at once.
 */
export function* bulkInsertQueries<T extends keyof Database>(conn: Kysely<Database>, { table, columns, constants, rows }: BulkWrite<T>): Generator<CompiledQuery> {
  if (rows.length === 0) return;
  if (isPostgres(conn)) {
    const arrays = columns.map(([, type], i) => sql`${arrayLiteral(rows, i)}::${sql.raw(type)}[]`);
    const fixed = constants.map(([, type, v]) => sql`${v}::${sql.raw(type)}`);
    yield sql`insert into ${sql.table(table)} (${sql.raw(columnList(columns, constants))})
      select ${sql.join([sql`u.*`, ...fixed])} from unnest(${sql.join(arrays)}) as u`.compile(conn);
    return;
  }
  // The constants are bound once per statement, in the select list, not once per row: binding a
  // value, a text above all, costs more than SQLite copying it (the audit texts and firm id make
  // most of the values of a narrow row).
  const fixed = constants.map(([, , v]) => v);
  const width = columns.length;
  const head = `insert into "${table}" (${columnList(columns, constants)}) select *${fixed.map(() => ', ?').join('')} from (values `;
  const tuple = `(${Array.from({ length: width }, () => '?').join(',')})`;
  const full = Math.min(SQLITE_BATCH_ROWS, 2 ** Math.floor(Math.log2((SQLITE_MAX_VARIABLES - fixed.length) / width)));
  let start = 0;
  while (start < rows.length) {
    const left = rows.length - start;
    // The largest power of two that fits, capped at a full batch: at most log2(full) shapes per table.
    const size = left >= full ? full : 2 ** Math.floor(Math.log2(left));
    const parameters: unknown[] = new Array(fixed.length + size * width);
    let p = 0;
    for (const v of fixed) parameters[p++] = v;
    for (let r = start; r < start + size; r++) {
      const row = rows[r]!;
      for (let c = 0; c < width; c++) parameters[p++] = row[c] ?? null;
    }
    const key = `${head}${size}`;
    let text = statements.get(key);
    if (!text) {
      text = `${head}${Array.from({ length: size }, () => tuple).join(',')})`;
      statements.set(key, text);
    }
    yield CompiledQuery.raw(text, parameters);
    start += size;
  }
}

/**
 * Column `column` of `rows` as the text of a PostgreSQL array, what pg itself would send for the
 * JavaScript array: numbers as they print, text quoted with its backslashes and quotes escaped,
 * null and undefined as NULL. pg quotes and escapes every element, numbers included, with two
 * regular expressions each: a tenth of a worker's or a seed's CPU went there. A column of numbers
 * (and nulls) is written into bytes without a string per value (text-bytes.ts); any other kind of
 * value leaves the column to pg's own conversion.
 */
export function arrayLiteral(rows: readonly unknown[][], column: number): string | unknown[] {
  return numberArrayLiteral(rows, column) ?? textArrayLiteral(rows, column);
}

/** One buffer for every numbers literal: each is copied out as a string before the next is begun. */
const literal = new TextBytes();
const NULL_ELEMENT = 'NULL';

function numberArrayLiteral(rows: readonly unknown[][], column: number): string | null {
  literal.reset();
  literal.byte(OPEN_BRACE);
  for (let r = 0; r < rows.length; r++) {
    const value = (rows[r] as unknown[])[column];
    if (r > 0) literal.byte(COMMA);
    if (value === null || value === undefined) literal.ascii(NULL_ELEMENT);
    else if (typeof value === 'number') literal.number(value);
    else return null;
  }
  literal.byte(CLOSE_BRACE);
  return literal.latin1();
}

function textArrayLiteral(rows: readonly unknown[][], column: number): string | unknown[] {
  const parts = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const value = (rows[r] as unknown[])[column];
    if (value === null || value === undefined) parts[r] = NULL_ELEMENT;
    else if (typeof value === 'number') parts[r] = String(value);
    else if (typeof value === 'string') parts[r] = `"${value.replace(ESCAPED, '\\$&')}"`;
    else return rows.map((row) => row[column]);
  }
  return `{${parts.join(',')}}`;
}

const ESCAPED = /[\\"]/g;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
