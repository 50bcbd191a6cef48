import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, type Kysely } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { type BulkColumn, type BulkConstant, type BulkWrite, bulkInsert, columnList } from './bulk-insert.js';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';
import { TextBytes } from './text-bytes.js';

/**
 * Many rows at `COPY` speed on PostgreSQL, in the caller's transaction; SQLite (and PostgreSQL
 * for a handful of rows) goes through bulkInsert. `COPY … FROM STDIN` skips the planner and the
 * per-row executor work of `insert … select from unnest`, about half of a worker's write time.
 *
 * The stream must run on the connection that holds the transaction, so that a chunk's rows commit
 * or roll back with the rest of it. Kysely does not expose that connection's pg client, but it
 * hands its query text straight to `client.query`, and pg runs any object with a `submit` method
 * in the client's queue as it runs a query: the copy stream is given as the query, on the
 * connection Kysely provides for `conn` (the transaction's own when `conn` is a transaction).
 */
export async function copyRows<T extends keyof Database>(
  conn: Kysely<Database>,
  table: T,
  columns: BulkColumn<T>[],
  constants: BulkConstant<T>[],
  rows: unknown[][],
): Promise<void> {
  if (!copies(conn, rows)) return bulkInsert(conn, table, columns, constants, rows);
  const text = copyText(rows, columns.length, constants.map(([, , v]) => v));
  const stream = copyFrom(copyStatement(table, columns, constants));
  await conn.getExecutor().provideConnection(async (connection) => {
    const submitted = connection.executeQuery({ ...CompiledQuery.raw(''), sql: stream as unknown as string });
    await Promise.all([submitted, pipeline(Readable.from([text]), stream)]);
  });
}

export const copyWrite = <T extends keyof Database>(conn: Kysely<Database>, write: BulkWrite<T>) => copyRows(conn, write.table, write.columns, write.constants, write.rows);

/** Below this many rows one `insert … unnest` statement costs no more than a COPY round trip. */
const COPY_MIN_ROWS = 16;

/** Whether copyRows streams these rows with COPY; otherwise it inserts them with bulkInsert. */
export const copies = (conn: Kysely<Database>, rows: readonly unknown[][]): boolean => rows.length >= COPY_MIN_ROWS && isPostgres(conn);

/** The COPY statement copyRows streams the rows into, naming the columns as bulkInsert does. */
export function copyStatement<T extends keyof Database>(table: T, columns: BulkColumn<T>[], constants: BulkConstant<T>[]): string {
  return `copy "${table}" (${columnList(columns, constants)}) from stdin`;
}

/**
 * The rows in COPY's text format, as the UTF-8 bytes COPY reads: columns split by tabs, rows ended
 * by newlines, NULL as `\N`, and in values the backslash, tab, newline and carriage return escaped
 * with a backslash (the only characters COPY text gives a meaning to). `constants` end every row.
 * Written straight into bytes (text-bytes.ts): no string is made for a row or a number.
 */
export function copyText(rows: readonly unknown[][], width: number, constants: readonly unknown[] = []): Buffer {
  const suffix = constants.length === 0 ? '\n' : `\t${constants.map(copyValue).join('\t')}\n`;
  // About 16 bytes a value: grown (doubled) at most a few times.
  const text = new TextBytes(rows.length * (width * 16 + suffix.length));
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let c = 0; c < width; c++) {
      if (c > 0) text.byte(TAB);
      const value = row[c];
      if (typeof value === 'number') text.number(value);
      else if (typeof value === 'string') text.utf8(SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (ch) => ESCAPES[ch]!) : value);
      else text.ascii(copyValue(value));
    }
    text.utf8(suffix);
  }
  return text.bytes();
}

const TAB = 9;

export function copyValue(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'string') return SPECIAL.test(value) ? value.replace(SPECIAL_ALL, (ch) => ESCAPES[ch]!) : value;
  throw new TypeError(`COPY cannot write a ${typeof value} value`);
}

const SPECIAL = /[\\\t\n\r]/;
const SPECIAL_ALL = /[\\\t\n\r]/g;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
