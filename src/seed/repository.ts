import { type Kysely, sql } from 'kysely';
import { type BulkConstant, type BulkWrite, type Column, type ColumnType } from '../db/bulk-insert.js';
import { copyWrite } from '../db/copy-rows.js';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { LotsTextBuilder } from '../db/position-lots.js';
import type { Database } from '../db/schema.js';
import type { ChunkRows, FirmRows, TableName } from './rows.js';
import { SPECS, type TableSpec, WRITE_ORDER } from './table-specs.js';

/**
 * Bulk writes of generated (or imported) rows.
 *
 * Id strategy: the repository hands out ids itself, inside the writing transaction, so that a
 * parent and its children go out in one statement per table and nothing is read back.
 * SQLite: `begin immediate` takes the write lock first, then ids continue from max(id)
 * (AUTOINCREMENT keeps later automatic ids above them). PostgreSQL: ids are drawn from the
 * table's own sequence with nextval, so concurrent writers never collide. Tables whose ids no
 * other row needs (prices, pending transactions) let the database number them; lots written with
 * their positions are numbered here too, since each position's `lots` text names its lots' ids.
 *
 * Rows go out through copyRows (src/db/copy-rows.ts): on PostgreSQL a `COPY` a table's batch, on
 * SQLite (and for a handful of rows) statements that carry the rows as one value per column
 * (src/db/bulk-insert.ts), which keeps the statement count and the bound parameter count tiny
 * however many rows a chunk holds. `COPY`'s text needs no quoting, where the insert's text arrays
 * quote every position's lots text: an import took a quarter longer that way.
 */

export type IdMap = Partial<Record<TableName, readonly number[]>>;
export type Tables = Partial<{ [K in TableName]: readonly object[] }>;
type Conn = Kysely<Database>;

const SQLITE_ROWS_PER_STATEMENT = 20_000;
const PG_ROWS_PER_STATEMENT = 50_000;

/**
 * Runs `work` in one transaction holding the write lock from the start.
 *
 * `uncheckedKeys`: rows the seed generator made, every reference resolved by writeTables to a row
 * written before it (resolve throws otherwise), so the database's per-row parent lookups only
 * repeat that: about a tenth of a SQLite seed, and half of a PostgreSQL one (where each key is a
 * trigger fired per row). Pass it only where `mayWriteUncheckedKeys` said yes. The seed's
 * tests look for dangling references on both databases afterwards.
 */
export async function inWriteTransaction<R>(db: Db, work: (conn: Conn) => Promise<R>, options: { uncheckedKeys?: boolean } = {}): Promise<R> {
  if (db.dialect === 'postgres') {
    return db.kysely.transaction().execute(async (trx) => {
      // Replica mode fires no ordinary triggers, foreign keys' included; SET LOCAL ends with the transaction.
      if (options.uncheckedKeys) await sql`set local session_replication_role = replica`.execute(trx);
      return work(trx);
    });
  }
  return db.kysely.connection().execute(async (conn) => {
    // The pragma is per connection and is a no-op inside a transaction, hence set around it.
    if (options.uncheckedKeys) await sql`pragma foreign_keys = off`.execute(conn);
    try {
      // A deferred transaction would read max(id) and then fail to upgrade if another writer got in first.
      await sql`begin immediate`.execute(conn);
      try {
        const result = await work(conn);
        await sql`commit`.execute(conn);
        return result;
      } catch (error) {
        await sql`rollback`.execute(conn);
        throw error;
      }
    } finally {
      if (options.uncheckedKeys) await sql`pragma foreign_keys = on`.execute(conn);
    }
  });
}

/**
 * Whether this connection may write without key checks. SQLite: always (a pragma of its own
 * connection). PostgreSQL: only a role allowed to set `session_replication_role`, a superuser or
 * (PostgreSQL 15 and later) one granted `SET ON PARAMETER session_replication_role`; any other
 * role seeds with every key checked, slower and the same book.
 */
export async function mayWriteUncheckedKeys(conn: Conn): Promise<boolean> {
  if (!isPostgres(conn)) return true;
  const { rows } = await sql<{ superuser: boolean; version: number }>`
    select current_setting('is_superuser') = 'on' as superuser, current_setting('server_version_num')::int as version`.execute(conn);
  const { superuser, version } = rows[0]!;
  if (superuser) return true;
  // has_parameter_privilege exists from PostgreSQL 15 on; asking an older server would fail to parse.
  if (version < 150000) return false;
  const granted = await sql<{ granted: boolean }>`select has_parameter_privilege('session_replication_role', 'SET') as granted`.execute(conn);
  return granted.rows[0]?.granted === true;
}

/**
 * Refreshes PostgreSQL's statistics after a bulk load: without them (autovacuum may be off or
 * late) its planner can scan a whole firm's positions for one chunk of accounts. SQLite is left
 * without statistics on purpose: its index heuristics pick the right index for every hot query,
 * while sampled statistics (analysis_limit) send the custom-field values of a page of records
 * through the definition index, which reads the whole firm's values for one page.
 */
export async function analyze(db: Db, tables?: readonly TableName[]): Promise<void> {
  if (db.dialect !== 'postgres') return;
  // A bare ANALYZE reads every table of the database, other schemas' included.
  if (tables) {
    if (tables.length > 0) await sql`analyze ${sql.join(tables.map((t) => sql.table(t)))}`.execute(db.kysely);
  } else await sql`analyze`.execute(db.kysely);
}

export async function firmCodeTaken(conn: Conn, code: string): Promise<boolean> {
  return (await conn.selectFrom('firms').select('id').where('code', '=', code).executeTakeFirst()) !== undefined;
}

export async function insertFirm(conn: Conn, firm: { name: string; code: string; created_at: string }): Promise<number> {
  const row = await conn
    .insertInto('firms')
    .values({
      ...firm,
      multi_trade_block: 1,
      trade_block_dates: 1,
      trade_block_custom_types: 0,
      default_asset_values: 'PendingTransactionsAndOrders',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Writes `tables` in WRITE_ORDER with firm_id and (for audited tables) audit fields bound once.
 * Returns the ids of every written table with ids, appended to those in `known`. queueTables does
 * the work; this waits for every statement.
 */
export async function writeTables(...args: Parameters<typeof queueTables>): Promise<IdMap> {
  const { ids, written } = await queueTables(...args);
  await written;
  return ids;
}

/**
 * Every table's ids are drawn first (those not in `allocated`), their statements sent together.
 * On PostgreSQL each table's rows are then built while the table before them is written, its
 * statements queued on the connection behind the last ones: the database goes from one statement
 * to the next without waiting for this process, which may be busy with other work meanwhile (the
 * import validates its next rows). SQLite writes in this process, so there each table is written
 * before the next is built (queued, the built rows of every table waited in memory, and the import
 * ran slower). Resolves once every statement is queued, with the ids of the rows (appended to
 * `known`) and `written`, which settles once every statement has, with the first failure.
 * `afterFirstTable` is called once the first table's statements are queued: what it sends to the
 * connection runs between them and the rest.
 */
export async function queueTables(
  conn: Conn,
  dialect: Db['dialect'],
  firmId: number,
  tables: Tables,
  known: IdMap,
  audit: { at: string; by: string },
  allocated?: IdMap,
  afterFirstTable?: () => void,
): Promise<{ ids: IdMap; written: Promise<void> }> {
  const ids: Record<string, readonly number[]> = { ...known };
  const present = WRITE_ORDER.filter((table) => (tables[table]?.length ?? 0) > 0);
  // Lots written with their positions get their ids here, to go into the positions' `lots` text.
  const lotsWithPositions = present.includes('positions') && present.includes('tax_lots');
  if (present.includes('tax_lots') && !lotsWithPositions) throw new Error('tax_lots: lots written without their positions');
  const withId = (table: TableName) => numbered(table) || allocated?.[table] !== undefined || (table === 'tax_lots' && lotsWithPositions);
  const drawn = await everyOne(present.map(async (table) => (withId(table) ? (allocated?.[table] ?? allocateIds(conn, dialect, table, tables[table]!.length)) : [])));
  const writes: Promise<void>[] = [];
  let failure: { error: unknown } | undefined;
  try {
    for (const [t, table] of present.entries()) {
      const rows = tables[table]!;
      const spec = SPECS[table];
      const newIds = drawn[t]!;
      const numbering = withId(table);
      if (newIds.length !== (numbering ? rows.length : 0)) throw new Error(`${table}: ${newIds.length} ids allocated for ${rows.length} rows`);
      // Set before the rows are read: a table may point at its own rows (a product's harvest replacement).
      if (numbering) ids[table] = [...(known[table] ?? []), ...newIds];
      const columns = Object.keys(spec.columns);
      // Millions of rows pass here: each column's reading is settled once per table, not per value.
      const lotsOf = table === 'positions' ? new LotsOfPositions(rows.length, (lotsWithPositions ? tables.tax_lots! : []) as LotRow[], drawn[present.indexOf('tax_lots')] ?? [], (ids.positions?.length ?? 0) - rows.length) : null;
      const readers = columns.map((c) => (lotsOf !== null && (c === 'lots' || c === 'latest_lot_date') ? positionLotsReader(lotsOf, c, ids) : columnReader(spec, ids, table, c)));
      const first = numbering ? 1 : 0;
      const values = rows.map((row, i) => {
        const r = row as Record<string, unknown>;
        const tuple: unknown[] = new Array(first + readers.length);
        if (numbering) tuple[0] = newIds[i];
        for (let c = 0; c < readers.length; c++) tuple[first + c] = (readers[c] as ColumnReader)(r, i);
        return tuple;
      });
      const step = dialect === 'sqlite' ? SQLITE_ROWS_PER_STATEMENT : PG_ROWS_PER_STATEMENT;
      for (let start = 0; start < values.length; start += step) {
        const write = copyWrite(conn, seedTableWrite(table, numbering, firmId, audit, values.slice(start, start + step)));
        // Its failure is read below, once every statement has settled; until then it is not unhandled.
        write.catch(() => {});
        writes.push(write);
        // SQLite runs the statements in this process: nothing to overlap them with.
        if (dialect === 'sqlite') await write;
      }
      if (t === 0) afterFirstTable?.();
      // Lets the statements go out before the next table is built.
      if (dialect === 'postgres') await new Promise((resolve) => setImmediate(resolve));
    }
  } catch (error) {
    failure = { error };
  }
  // A write sent before the failure was found failed first, if it did.
  const written = everyOne(writes).then(() => {
    if (failure) throw failure.error;
  });
  return { ids, written };
}

/**
 * The results of statements queued on one connection, once every one has settled: a statement
 * still queued when the caller rolls back would run after the rollback, outside the transaction.
 * After a failure the later statements fail too (the transaction is aborted): the first one sent
 * is the one that counts.
 */
async function everyOne<T>(statements: Promise<T>[]): Promise<T[]> {
  const results = await Promise.allSettled(statements);
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/**
 * The bulk write of a generated table's rows (each `[id?, …spec columns]`): the firm and, for
 * audited tables, the audit columns are constants. Its statements are checked in under
 * `__sql__/` (repository.sql.test.ts), one per table.
 */
export function seedTableWrite(table: TableName, withId: boolean, firmId: number, audit: { at: string; by: string }, rows: unknown[][]): BulkWrite<TableName> {
  const spec = SPECS[table];
  // One loop writes every generated table, so the column names are checked where the specs are
  // written (keys of the seed rows, which db/schema.ts types), not here.
  type Any = Column<typeof table>;
  const constants: BulkConstant<TableName>[] = [['firm_id', 'int4', firmId]];
  if (spec.audit) {
    constants.push(['created_at' as Any, 'text', audit.at], ['created_by' as Any, 'text', audit.by], ['edited_at' as Any, 'text', audit.at], ['edited_by' as Any, 'text', audit.by]);
  }
  const columns: [Any, ColumnType][] = [...(withId ? [['id' as Any, 'int4'] as [Any, ColumnType]] : []), ...Object.keys(spec.columns).map((c) => [c as Any, spec.columns[c] as ColumnType] as [Any, ColumnType])];
  return { table, columns, constants, rows };
}

/** A column's value of the row at `index` of its table's rows. */
type ColumnReader = (row: Record<string, unknown>, index: number) => unknown;

type LotRow = { position_id: number; shares_micros: number; cost_cents: number; acquired_date: string };

/**
 * The lots of the write's positions by their place among its rows, with the ids drawn for them,
 * for their `lots` and `latest_lot_date` (db/position-lots.ts): each position's lots are a chain
 * of places in `lots` (`first`, then `next`), in the order they are written, which is their ids'.
 * Typed arrays rather than a list of lot objects a position: an import of 100,000 accounts with
 * 500,000 positions took 4.9 s of CPU instead of 5.2-5.3 s without that garbage. A position's lots
 * come with it: a lot naming a position written before (`known`) would leave that position's text
 * stale, so it is refused (no writer does that; the import's lot files go through LotWriter, which
 * refreshes the texts).
 */
class LotsOfPositions {
  readonly #first: Int32Array;
  readonly #next: Int32Array;
  readonly #text = new LotsTextBuilder();

  constructor(
    positionCount: number,
    readonly lots: readonly LotRow[],
    readonly ids: readonly number[],
    firstPosition: number,
  ) {
    this.#first = new Int32Array(positionCount).fill(-1);
    this.#next = new Int32Array(lots.length).fill(-1);
    const last = new Int32Array(positionCount).fill(-1);
    for (let i = 0; i < lots.length; i++) {
      const at = lots[i]!.position_id - firstPosition;
      if (at < 0 || at >= positionCount) throw new Error(`tax_lots: a lot of position ${lots[i]!.position_id} written apart from its position`);
      if (last[at] === -1) this.#first[at] = i;
      else this.#next[last[at]!] = i;
      last[at] = i;
    }
  }

  /** The `lots` text of the position at `at`, of product `productId`; null without lots. */
  text(at: number, productId: number): string | null {
    const text = this.#text;
    text.begin(productId);
    for (let i = this.#first[at]!; i !== -1; i = this.#next[i]!) {
      const lot = this.lots[i]!;
      text.lot(this.ids[i]!, lot.shares_micros, lot.cost_cents, lot.acquired_date);
    }
    return text.end();
  }

  /** The newest acquired date of the position at `at`'s lots; null without lots. */
  latestDate(at: number): string | null {
    let latest: string | null = null;
    for (let i = this.#first[at]!; i !== -1; i = this.#next[i]!) {
      const date = this.lots[i]!.acquired_date;
      if (latest === null || date > latest) latest = date;
    }
    return latest;
  }
}

function positionLotsReader(lotsOf: LotsOfPositions, column: 'lots' | 'latest_lot_date', ids: Record<string, readonly number[]>): ColumnReader {
  if (column === 'latest_lot_date') return (_r, i) => lotsOf.latestDate(i);
  return (r, i) => lotsOf.text(i, resolve(ids, 'products', r.product_id as number, 'positions', 'lots'));
}

/** A column's value of a generated row: a reference (a row position) becomes the id written for that row. */
function columnReader(spec: TableSpec, ids: Record<string, readonly number[]>, table: string, column: string): ColumnReader {
  const target = spec.refs?.[column];
  if (target) return (r) => (r[column] == null ? null : resolve(ids, target, r[column] as number, table, column));
  const by = spec.refsBy?.[column];
  if (by !== undefined) return (r) => (r[column] == null ? null : resolve(ids, r[by] as TableName, r[column] as number, table, column));
  return (r) => r[column] ?? null;
}

function resolve(ids: Record<string, readonly number[]>, target: string, index: number, table: string, column: string): number {
  const id = ids[target]?.[index];
  if (id === undefined) throw new Error(`${table}.${column}: no ${target} row at position ${index}`);
  return id;
}

/** Tables whose ids the seed assigns itself, because later rows point at them. */
export const numbered = (table: TableName) => !SPECS[table].noId && !SPECS[table].leaf;

/**
 * PostgreSQL: an id for every row of `tables`, drawn ahead of the write, leaf rows included.
 * Sequences stand outside transactions, so chunks drawn one after another in seed order get the
 * same ids however their writes then overlap (left to the column default, two writers' lots would
 * interleave): the same seed gives the same book, ids and all. Drawing the leaves' ids ahead is a
 * small part of a seed's time, the price of that sameness.
 */
export async function allocateTableIds(conn: Conn, tables: Tables): Promise<IdMap> {
  const allocated: IdMap = {};
  for (const table of WRITE_ORDER) {
    const count = tables[table]?.length ?? 0;
    if (count > 0 && !SPECS[table].noId) allocated[table] = await allocateIds(conn, 'postgres', table, count);
  }
  return allocated;
}

async function allocateIds(conn: Conn, dialect: Db['dialect'], table: TableName, count: number): Promise<number[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0) as top from ${sql.table(table)}`.execute(conn);
    const top = rows[0]?.top ?? 0;
    return Array.from({ length: count }, (_, i) => top + 1 + i);
  }
  return drawIds(conn, await sequenceOf(conn, table), count);
}

/** PostgreSQL: the name of the sequence `table`'s ids come from. */
export async function sequenceOf(conn: Conn, table: TableName): Promise<string> {
  const { rows } = await sql<{ sequence: string | null }>`select pg_get_serial_sequence(${table}, 'id') as sequence`.execute(conn);
  const sequence = rows[0]?.sequence;
  if (!sequence) throw new Error(`${table}.id draws from no sequence`);
  return sequence;
}

/**
 * PostgreSQL: `count` ids from `sequence` (sequenceOf), in one statement unless another session
 * drew from the sequence at the same time.
 */
export async function drawIds(conn: Conn, sequence: string, count: number): Promise<number[]> {
  // The sequence goes to nextval as a bound value, which the database reads as a regclass once.
  // Looked up and cast from text for each row, 100,000 ids took 240 ms instead of 61 ms; named by
  // a scalar subquery, 800,000 took 460-510 ms instead of 240-270 ms (psql, side by side).
  const draw = sql`select nextval(${sequence}) as id from generate_series(1, ${count}::int)`;
  // Drawn alone, the ids are one unbroken run, and the database sends its ends rather than every
  // id: 800,000 ids took 234 ms in psql, against 483 ms as a list.
  const ends = await sql<{ low: string; high: string }>`select min(id) as low, max(id) as high from (${draw}) as drawn`.execute(conn);
  const low = Number(ends.rows[0]?.low);
  const high = Number(ends.rows[0]?.high);
  if (high - low + 1 === count) return Array.from({ length: count }, (_, i) => low + i);
  // Another session drew from the same sequence meanwhile, so the run is broken and which of its
  // ids are ours is unknown: those are left unused (a gap, as a rolled back insert leaves), and a
  // second draw sends every id. One row holding an array: a row per id cost the driver more than
  // the sequence (2.1 s of a 10,000 household advisory seed went to parsing 447,000 one-id rows).
  const { rows } = await sql<{ ids: string }>`select array_to_string(array_agg(id order by id), ',') as ids from (${draw}) as drawn`.execute(conn);
  return (rows[0]?.ids ?? '').split(',').map(Number);
}

export type { ChunkRows, FirmRows };
