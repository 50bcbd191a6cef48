/**
 * The I/O floor of a rebalance, measured with the drivers directly (no Kysely, no engine): read
 * every position of the firm, then insert the trade rows a rebalance wrote (the same rows, in one
 * transaction that is rolled back; on PostgreSQL with one `COPY … FROM STDIN`, the fastest way in). A rebalance cannot be faster than reading its inputs and
 * writing its outputs; the bench prints its time as a ratio to this. A tax-aware run's floor also
 * reads every lot of the taxable accounts and writes the trades' lots and gains.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyText } from '../src/db/copy-rows.js';

export interface Floor {
  readSeconds: number;
  writeSeconds: number;
  positions: number;
  trades: number;
  /** Lots of taxable accounts read (the tax-aware floor only). */
  lots: number;
  /** PostgreSQL: the same rows written with `insert … select from unnest` (the floor before COPY), for comparison. */
  insertSeconds?: number;
}

/**
 * The floor of a tax-aware run also reads the lots of the taxable accounts (`taxable`, set up
 * untimed in a temporary table) and writes the run's trade rows with their lots and gains.
 */
export interface TaxFloorInput {
  taxable: number[];
}

const PLAIN_COLUMNS = ['firm_id', 'trade_instance_id', 'account_id', 'product_id', 'side', 'trade_type', 'shares_micros', 'amount_cents', 'price_micros', 'reason', 'status', 'created_at'];
const TAX_COLUMNS = [...PLAIN_COLUMNS, 'lots', 'short_term_gain_cents', 'long_term_gain_cents'];
const LOTS_OF_TAXABLE = 'select l.id, l.position_id, l.shares_micros, l.cost_cents, l.acquired_date from floor_taxable t join positions p on p.account_id = t.id join tax_lots l on l.position_id = p.id';

/**
 * The SQLite driver alone on `file`, as the app sets it up for writing: foreign keys checked,
 * synchronous NORMAL (the file's WAL mode is kept in the file itself).
 */
export function openSqliteDriver(file: string): SqliteDatabase.Database {
  const db = new SqliteDatabase(file);
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  return db;
}

export function sqliteFloor(file: string, firmId: number, instanceId: number, tax?: TaxFloorInput): Floor {
  const TRADE_COLUMNS = tax ? TAX_COLUMNS : PLAIN_COLUMNS;
  const db = openSqliteDriver(file);
  try {
    const trades = db.prepare(`select ${TRADE_COLUMNS.join(', ')} from trades where trade_instance_id = ?`).raw().all(instanceId) as unknown[][];
    let started = performance.now();
    let positions = 0;
    for (const row of db.prepare('select account_id, product_id, shares_micros, cost_cents from positions where firm_id = ?').raw().iterate(firmId)) if (row) positions++;
    let lots = 0;
    if (tax) {
      const setupStarted = performance.now();
      db.exec('create temp table floor_taxable (id integer primary key)');
      const add = db.prepare('insert into floor_taxable values (?)');
      for (const id of tax.taxable) add.run(id);
      started += performance.now() - setupStarted;
      for (const row of db.prepare(LOTS_OF_TAXABLE).raw().iterate()) if (row) lots++;
    }
    const readSeconds = (performance.now() - started) / 1000;
    const insert = db.prepare(`insert into trades (${TRADE_COLUMNS.join(', ')}) values (${TRADE_COLUMNS.map(() => '?').join(', ')})`);
    started = performance.now();
    db.exec('begin');
    for (const row of trades) insert.run(row);
    const writeSeconds = (performance.now() - started) / 1000;
    db.exec('rollback');
    return { readSeconds, writeSeconds, positions, trades: trades.length, lots };
  } finally {
    db.close();
  }
}

export async function postgresFloor(url: string, firmId: number, instanceId: number, tax?: TaxFloorInput): Promise<Floor> {
  const TRADE_COLUMNS = tax ? TAX_COLUMNS : PLAIN_COLUMNS;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const trades = (await client.query({ text: `select ${TRADE_COLUMNS.join(', ')} from trades where trade_instance_id = $1`, values: [instanceId], rowMode: 'array' })).rows as unknown[][];
    let started = performance.now();
    const positions = (await client.query({ text: 'select account_id, product_id, shares_micros, cost_cents from positions where firm_id = $1', values: [firmId], rowMode: 'array' })).rowCount ?? 0;
    let lots = 0;
    if (tax) {
      const setupStarted = performance.now();
      await client.query('create temp table floor_taxable (id integer primary key)');
      await client.query('insert into floor_taxable select unnest($1::int[])', [tax.taxable]);
      await client.query('analyze floor_taxable');
      started += performance.now() - setupStarted;
      lots = (await client.query({ text: LOTS_OF_TAXABLE, rowMode: 'array' })).rowCount ?? 0;
    }
    const readSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await client.query('begin');
    // COPY in COPY's text format, encoded as the app encodes it, one piece per 50,000 rows so the
    // text of a million trades is never one string.
    const step = 50_000;
    const pieces = (function* () {
      for (let i = 0; i < trades.length; i += step) yield copyText(trades.slice(i, i + step), TRADE_COLUMNS.length);
    })();
    await pipeline(Readable.from(pieces), client.query(copyFrom(`copy trades (${TRADE_COLUMNS.join(', ')}) from stdin`)));
    const writeSeconds = (performance.now() - started) / 1000;
    await client.query('rollback');
    const types = new Map(
      (await client.query<{ column_name: string; data_type: string }>(`select column_name, data_type from information_schema.columns where table_name = 'trades' and table_schema = current_schema()`)).rows.map((r) => [r.column_name, r.data_type]),
    );
    started = performance.now();
    await client.query('begin');
    for (let i = 0; i < trades.length; i += step) {
      const part = trades.slice(i, i + step);
      await client.query(
        `insert into trades (${TRADE_COLUMNS.join(', ')}) select * from unnest(${TRADE_COLUMNS.map((c, k) => `$${k + 1}::${types.get(c)}[]`).join(', ')})`,
        TRADE_COLUMNS.map((_, k) => part.map((r) => r[k])),
      );
    }
    const insertSeconds = (performance.now() - started) / 1000;
    await client.query('rollback');
    return { readSeconds, writeSeconds, positions, trades: trades.length, lots, insertSeconds };
  } finally {
    await client.end();
  }
}
