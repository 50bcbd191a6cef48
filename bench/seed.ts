/**
 * Seed throughput: `npx tsx bench/seed.ts [--households N] [--seed S]`.
 * `--profile demo|advisory|direct-indexing` picks the book (src/seed/profiles.ts).
 * Seeds N households (default 100,000) into a temporary SQLite file and, when TEST_DATABASE_URL
 * or DATABASE_URL is set, into a fresh PostgreSQL schema; prints households/s, rows/s, wall
 * time and peak RSS for each. Goals: 100,000 households in under 10 s on SQLite, under 30 s on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type Db, migrateToLatest, openDatabase } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { parseProfile } from '../src/seed/profiles.js';

const { values } = parseArgs({
  options: { households: { type: 'string', default: '100000' }, seed: { type: 'string', default: '42' }, profile: { type: 'string', default: 'demo' } },
});
const profile = parseProfile(values.profile);
const households = Number(values.households);
const seed = Number(values.seed);
if (!Number.isInteger(households) || households < 1) throw new Error(`--households must be a positive integer`);

interface Result {
  database: string;
  households: number;
  rows: number;
  seconds: number;
  peakRssMb: number;
}

/** Peak RSS is sampled, since process.resourceUsage().maxRSS covers the whole process lifetime. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage.rss()) / 1024 / 1024;
  };
}

async function run(database: string, db: Db): Promise<Result> {
  await migrateToLatest(db);
  const stopRss = rssSampler();
  let rows = 0;
  let lastReport = 0;
  const started = performance.now();
  await seedDemoFirm(db, {
    households,
    seed,
    profile,
    asOf: '2025-06-30',
    onProgress: (p) => {
      rows = p.rows;
      if (p.households - lastReport >= 20_000) {
        lastReport = p.households;
        const s = (performance.now() - started) / 1000;
        console.log(`  ${database}: ${p.households} households, ${p.rows} rows, ${s.toFixed(1)} s`);
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  return { database, households, rows, seconds, peakRssMb: stopRss() };
}

function print(r: Result): void {
  console.log(
    `${r.database}: ${r.households} households in ${r.seconds.toFixed(1)} s = ` +
      `${Math.round(r.households / r.seconds)} households/s, ${Math.round(r.rows / r.seconds)} rows/s ` +
      `(${r.rows} book rows), peak RSS ${r.peakRssMb.toFixed(0)} MB`,
  );
}

async function sqlite(): Promise<Result> {
  const dir = mkdtempSync(join(tmpdir(), 'wealth-seed-bench-'));
  const db = openDatabase({ dialect: 'sqlite', file: join(dir, 'bench.sqlite') });
  try {
    return await run('sqlite', db);
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(url: string): Promise<Result | null> {
  const admin = new pg.Client({ connectionString: url });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`postgres: skipped, ${url} unreachable (${(error as Error).message})`);
    return null;
  }
  const schema = `bench_seed_${process.pid}_${Date.now()}`;
  await admin.query(`create schema ${schema}`);
  const db = openDatabase({ dialect: 'postgres', url, poolSize: 4 }, { schema });
  try {
    return await run('postgres', db);
  } finally {
    await db.close();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

console.log(`seed bench: ${households} households of the ${profile} profile, seed ${seed}`);
const results: Result[] = [await sqlite()];
print(results[0] as Result);
const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (url) {
  const result = await postgres(url);
  if (result) {
    results.push(result);
    print(result);
  }
} else {
  console.log('postgres: skipped, set TEST_DATABASE_URL or DATABASE_URL to include it');
}
const sqliteResult = results[0] as Result;
if (households >= 100_000 && sqliteResult.seconds >= 120) {
  console.log(`FAIL: SQLite took ${sqliteResult.seconds.toFixed(1)} s, goal is under 120 s`);
  process.exitCode = 1;
}
