/**
 * Import throughput: `npx tsx bench/import.ts [--positions 500000] [--per-account 10]`.
 * Generates CSV files into a temporary folder: clients, registrations and accounts for
 * positions/per-account accounts, then a positions.csv of --positions rows. Imports them into a
 * small seeded firm in two steps (the book, then positions.csv alone, against stored accounts)
 * on a temporary SQLite file and, when TEST_DATABASE_URL or DATABASE_URL is set, on a fresh
 * PostgreSQL schema. Prints rows/s and peak RSS of each step.
 * Beside the SQLite positions step, in the same run, its floor: the same file read with the same
 * CSV parser and the same rows (positions, each with its lot) inserted with better-sqlite3
 * directly, on a copy of the database as it stood before the step, with no validation at all.
 * Goal: positions.csv loads at 200,000 rows/s or more on SQLite, in bounded memory.
 *
 * PostgreSQL (when TEST_DATABASE_URL or DATABASE_URL is set) loads a firm's whole book the way a
 * new firm does, in one import: clients, registrations, accounts each naming one of the firm's
 * models, and their positions (each with its lot), for each size of --pg-books (accounts x
 * positions an account). Beside each, its floor measured in the same run: the very rows the
 * import wrote, copied out untimed and written with COPY from one connection in one transaction
 * into a second schema seeded the same way (keys, indexes and constraints in place).
 * Goal: 100,000 file rows/s or more on PostgreSQL.
 */
import { copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { csvRowBatches } from '../src/shared/csv.js';
import { sql } from 'kysely';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { positionLotsText } from '../src/db/position-lots.js';
import { importBook } from '../src/import/index.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { openSqliteDriver } from './_floor.js';

const { values } = parseArgs({
  options: {
    positions: { type: 'string', default: '500000' },
    'per-account': { type: 'string', default: '10' },
    'pg-books': { type: 'string', default: '20000x25,100000x5' },
    'postgres-only': { type: 'boolean', default: false },
  },
});
const POSITIONS = Number(values.positions);
const PER_ACCOUNT = Number(values['per-account']);
const ACCOUNTS = Math.ceil(POSITIONS / PER_ACCOUNT);

async function writeLines(file: string, header: string, count: number, line: (i: number) => string): Promise<void> {
  const out = createWriteStream(file);
  out.write(`${header}\n`);
  for (let i = 0; i < count; i++) {
    if (!out.write(`${line(i)}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  return () => {
    clearInterval(timer);
    return Math.round(Math.max(peak, process.memoryUsage.rss()) / 1024 / 1024);
  };
}

/**
 * The positions step's floor on SQLite: parse `csv` with the importer's CSV reader and insert each
 * row's position and lot with prepared statements in one transaction, on `copy` (the database as
 * it stood before the step). Account numbers and tickers are resolved through maps read before the
 * clock starts; nothing is checked. Seconds, and the file rows read.
 */
async function sqliteFloor(copy: string, firmId: number, csv: string): Promise<{ seconds: number; rows: number }> {
  const db = openSqliteDriver(copy);
  try {
    const accountOf = new Map((db.prepare('select number, id from accounts where firm_id = ?').raw().all(firmId) as [string, number][]).map(([n, id]) => [n, id]));
    const productOf = new Map((db.prepare('select ticker, id from products where firm_id = ?').raw().all(firmId) as [string, number][]).map(([t, id]) => [t, id]));
    const position = db.prepare('insert into positions (firm_id, account_id, product_id, shares_micros, cost_cents, lots, latest_lot_date) values (?, ?, ?, ?, ?, ?, ?)');
    const lot = db.prepare('insert into tax_lots (id, firm_id, position_id, shares_micros, cost_cents, acquired_date) values (?, ?, ?, ?, ?, ?)');
    // Each position's lot text names its lot's id (db/position-lots.ts), drawn ahead as the import draws it.
    let lotId = (db.prepare('select coalesce(max(id), 0) as top from tax_lots').get() as { top: number }).top;
    const started = performance.now();
    let rows = 0;
    db.exec('begin');
    for await (const batch of csvRowBatches(createReadStream(csv, { encoding: 'utf8' }), 5_000)) {
      for (const { line, cells } of batch) {
        if (line === 1) continue;
        const [account, ticker, shares, cost, acquired] = cells as [string, string, string, string, string];
        const sharesMicros = Math.round(Number(shares) * 1e6);
        const costCents = Math.round(Number(cost) * 100);
        const productId = productOf.get(ticker);
        lotId++;
        const id = position.run(firmId, accountOf.get(account), productId, sharesMicros, costCents, positionLotsText(productId!, [{ id: lotId, shares_micros: sharesMicros, cost_cents: costCents, acquired_date: acquired }]), acquired).lastInsertRowid;
        lot.run(lotId, firmId, id, sharesMicros, costCents, acquired);
        rows++;
      }
    }
    db.exec('commit');
    return { seconds: (performance.now() - started) / 1000, rows };
  } finally {
    db.close();
  }
}

async function run(name: string, db: Db, dir: string, copy?: string): Promise<void> {
  await migrateToLatest(db);
  const { firm } = await seedDemoFirm(db, { households: 5, seed: 3, asOf: '2025-06-30', firmCode: 'IMPORTBENCH' });
  const rep = await db.kysely.selectFrom('representatives').select('number').where('firm_id', '=', firm.id).orderBy('id').executeTakeFirstOrThrow();
  const tickers = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firm.id).orderBy('id').execute()).map((p) => p.ticker);
  if (tickers.length < PER_ACCOUNT) throw new Error(`the seeded firm has ${tickers.length} products; --per-account must be at most that`);

  const file = (n: string) => join(dir, n);
  await writeLines(file('clients.csv'), 'name,representative', ACCOUNTS, (i) => `Client ${i},${rep.number}`);
  await writeLines(file('registrations.csv'), 'client,name,type', ACCOUNTS, (i) => `Client ${i},Brokerage ${i},Individual`);
  await writeLines(file('accounts.csv'), 'number,name,custodian,client,registration,cash', ACCOUNTS, (i) => `B-${i},Account ${i},Pershing,Client ${i},Brokerage ${i},${(i % 997) + 0.25}`);
  await writeLines(file('positions.csv'), 'account,ticker,shares,cost,acquired_date', POSITIONS, (i) => {
    const account = Math.floor(i / PER_ACCOUNT);
    return `B-${account},${tickers[(account + i) % PER_ACCOUNT]},${(i % 500) + 1},${(i % 9000) + 10.25},2021-0${(i % 9) + 1}-15`;
  });

  for (const [step, files] of [
    ['clients, registrations, accounts', ['clients.csv', 'registrations.csv', 'accounts.csv']],
    ['positions.csv', ['positions.csv']],
  ] as const) {
    let floor: { seconds: number; rows: number } | undefined;
    if (copy && step === 'positions.csv') {
      // Nothing writes meanwhile: the file and its write-ahead log together are the database.
      copyFileSync(join(dir, 'bench.sqlite'), copy);
      if (existsSync(join(dir, 'bench.sqlite-wal'))) copyFileSync(join(dir, 'bench.sqlite-wal'), `${copy}-wal`);
      floor = await sqliteFloor(copy, firm.id, file('positions.csv'));
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
    }
    const stopRss = rssSampler();
    const started = performance.now();
    const report = await importBook(db, firm.id, files.map(file));
    const seconds = (performance.now() - started) / 1000;
    if (!report.ok) throw new Error(`${name}: import failed: ${JSON.stringify(report.errors.slice(0, 5))}`);
    const rows = Object.values(report.imported).reduce((a, b) => a + b, 0);
    const fileRows = Object.values(report.read).reduce((a, b) => a + b, 0);
    console.log(
      `${name}: ${step}: ${fileRows} file rows, ${rows} rows written in ${seconds.toFixed(1)} s = ${Math.round(fileRows / seconds)} file rows/s, ${Math.round(rows / seconds)} rows written/s (analyze included), peak RSS ${stopRss()} MiB`,
    );
    if (floor) {
      console.log(
        `${name}: floor: the same file parsed and its rows inserted with better-sqlite3 directly, unchecked: ${floor.seconds.toFixed(1)} s = ${Math.round(floor.rows / floor.seconds)} file rows/s; import = ${(seconds / floor.seconds).toFixed(2)}x floor (goal 200,000 file rows/s)`,
      );
    }
  }
}

/** The tables a book's import writes, parents first, with the columns COPY carries. */
const BOOK_TABLES = ['clients', 'registrations', 'accounts', 'positions', 'tax_lots'] as const;

/** A fresh schema, migrated and seeded with the bench's small firm; `drop` removes it. */
async function seededSchema(url: string, admin: pg.Client, schema: string) {
  await admin.query(`create schema ${schema}`);
  const db = openDatabase({ dialect: 'postgres', url, poolSize: 4 }, { schema });
  await migrateToLatest(db);
  const { firm } = await seedDemoFirm(db, { households: 5, seed: 3, asOf: '2025-06-30', firmCode: 'IMPORTBENCH' });
  return {
    db,
    firmId: firm.id,
    async drop() {
      await db.close();
      await admin.query(`drop schema ${schema} cascade`);
    },
  };
}

/** The rows of `table` of the firm with ids above `after` (those an import wrote), as COPY's text format. */
async function copyOut(client: pg.Client, table: string, firmId: number, after: number): Promise<{ columns: string[]; text: Buffer }> {
  const { rows } = await client.query<{ column_name: string }>(
    'select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1 order by ordinal_position',
    [table],
  );
  const columns = rows.map((r) => `"${r.column_name}"`);
  const parts: Buffer[] = [];
  await pipeline(
    client.query(copyTo(`copy (select ${columns.join(', ')} from "${table}" where firm_id = ${firmId} and id > ${after} order by id) to stdout`)),
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        parts.push(chunk);
        done();
      },
    }),
  );
  return { columns, text: Buffer.concat(parts) };
}

/**
 * One import of a firm's book of `accounts` accounts with `perAccount` positions each, every
 * account naming a model, then the floor: the same rows written with COPY.
 */
async function postgresBook(url: string, dir: string, accounts: number, perAccount: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const stamp = `${process.pid}_${Date.now()}`;
  const target = await seededSchema(url, admin, `bench_import_${stamp}`);
  const floor = await seededSchema(url, admin, `bench_import_floor_${stamp}`);
  try {
    const { db, firmId } = target;
    const rep = await db.kysely.selectFrom('representatives').select('number').where('firm_id', '=', firmId).orderBy('id').executeTakeFirstOrThrow();
    const tickers = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firmId).orderBy('id').execute()).map((p) => p.ticker);
    const models = (await db.kysely.selectFrom('models').select('name').where('firm_id', '=', firmId).orderBy('id').execute()).map((m) => m.name);
    if (tickers.length < perAccount) throw new Error(`the seeded firm has ${tickers.length} products; a book may hold at most that many positions an account`);
    const folder = join(dir, `pg-${accounts}`);
    mkdirSync(folder);
    const file = (n: string) => join(folder, n);
    const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;
    await writeLines(file('clients.csv'), 'name,representative', accounts, (i) => `Client ${i},${rep.number}`);
    await writeLines(file('registrations.csv'), 'client,name,type', accounts, (i) => `Client ${i},Brokerage ${i},Individual`);
    await writeLines(file('accounts.csv'), 'number,name,custodian,client,registration,model,cash', accounts, (i) => `P-${i},Account ${i},Pershing,Client ${i},Brokerage ${i},${quoted(models[i % models.length] as string)},${(i % 997) + 0.25}`);
    await writeLines(file('positions.csv'), 'account,ticker,shares,cost,acquired_date', accounts * perAccount, (i) => {
      const account = Math.floor(i / perAccount);
      return `P-${account},${tickers[(account + i) % tickers.length]},${(i % 500) + 1},${(i % 9000) + 10.25},2021-0${(i % 9) + 1}-15`;
    });

    const before = new Map<string, number>();
    for (const table of BOOK_TABLES) {
      const { rows } = await sql<{ top: number }>`select coalesce(max(id), 0) as top from ${sql.table(table)}`.execute(db.kysely);
      before.set(table, Number(rows[0]?.top ?? 0));
    }
    const stopRss = rssSampler();
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const report = await importBook(db, firmId, ['clients.csv', 'registrations.csv', 'accounts.csv', 'positions.csv'].map(file));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    if (!report.ok) throw new Error(`postgres: import failed: ${JSON.stringify(report.errors.slice(0, 5))}`);
    const written = Object.values(report.imported).reduce((a, b) => a + b, 0);
    const fileRows = Object.values(report.read).reduce((a, b) => a + b, 0);
    const rss = stopRss();

    // The floor: the rows the import wrote, copied out (untimed) and in again with COPY.
    const source = new pg.Client({ connectionString: url, options: `-c search_path=bench_import_${stamp}` });
    const sink = new pg.Client({ connectionString: url, options: `-c search_path=bench_import_floor_${stamp}` });
    await source.connect();
    await sink.connect();
    let floorSeconds: number;
    let floorRows = 0;
    try {
      const tables = [];
      for (const table of BOOK_TABLES) tables.push({ table, ...(await copyOut(source, table, firmId, before.get(table) ?? 0)) });
      const copyStarted = performance.now();
      await sink.query('begin');
      for (const { table, columns, text } of tables) {
        await pipeline(Readable.from([text]), sink.query(copyFrom(`copy "${table}" (${columns.join(', ')}) from stdin`)));
      }
      await sink.query('commit');
      floorSeconds = (performance.now() - copyStarted) / 1000;
      for (const table of BOOK_TABLES) {
        floorRows += Number((await sink.query(`select count(*) as n from "${table}" where firm_id = $1 and id > $2`, [firmId, before.get(table) ?? 0])).rows[0].n);
      }
    } finally {
      await source.end();
      await sink.end();
    }
    if (floorRows !== written) throw new Error(`postgres: the floor wrote ${floorRows} rows, the import ${written}`);
    console.log(
      `postgres: one import of ${accounts} accounts (each naming a model) with ${accounts * perAccount} positions: ${fileRows} file rows, ${written} rows written in ${seconds.toFixed(1)} s = ${Math.round(fileRows / seconds)} file rows/s, ${Math.round(written / seconds)} rows written/s (analyze included), importer CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s, peak RSS ${rss} MiB`,
    );
    console.log(
      `postgres: floor: the same ${floorRows} rows written with COPY from one connection: ${floorSeconds.toFixed(1)} s = ${Math.round(floorRows / floorSeconds)} rows/s; import = ${(seconds / floorSeconds).toFixed(2)}x floor (goal 100,000 file rows/s)`,
    );
  } finally {
    await target.drop();
    await floor.drop();
    await admin.end();
  }
}

const dir = mkdtempSync(join(tmpdir(), 'wealth-import-bench-'));
try {
  console.log(`import bench: ${ACCOUNTS} accounts, ${POSITIONS} positions (${PER_ACCOUNT} an account)`);
  if (!values['postgres-only']) {
    const sqlite = openDatabase({ dialect: 'sqlite', file: join(dir, 'bench.sqlite') });
    try {
      await run('sqlite', sqlite, dir, join(dir, 'floor.sqlite'));
    } finally {
      await sqlite.close();
    }
  }
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (url) {
    for (const book of values['pg-books'].split(',')) {
      const [accounts, perAccount] = book.split('x').map(Number) as [number, number];
      await postgresBook(url, dir, accounts, perAccount);
    }
  } else console.log('postgres: skipped, set TEST_DATABASE_URL or DATABASE_URL to include it');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
