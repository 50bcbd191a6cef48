/**
 * bench/rebalance: wall time from POST /Trading/GenerateTrades to Complete for a firm of
 * 100,000 accounts (NeedReview over every account) of a seed profile, the peak memory of the
 * server and workers, and in the same run the I/O floor of that book (bench/_floor.ts: reading
 * every position and writing the same trade rows with the driver directly) and the ratio to it.
 * SQLite runs on a file (as in production) with the in-process queue; PostgreSQL with two
 * `wealth worker` processes.
 * Goals: advisory 100,000 accounts under 10 s on SQLite and within 2x the floor, under
 * 15 s on PostgreSQL with two workers; direct-indexing 2,000 accounts within 2x the floor; demo
 * under 10 s; peak memory under 1 GiB a process.
 * Then the same accounts again with taxOptions (MinTax lots, a long-term budget, wash
 * sales avoided, harvesting), after cancelling the first run's trades so both read the same book:
 * goal at most 1.5x the run without, and direct-indexing within 2x its floor. `--no-tax` skips it.
 * The tax-aware run is also set beside its own floor: the same reads plus every lot of the taxable
 * accounts, the same writes with the trades' lots. `--repeat N` runs each N times, in pairs whose
 * order alternates, after one untimed run of each, and reports the medians, and pair by pair the
 * ratio of wall time and of this process's CPU time (on SQLite the whole run is in this process;
 * CPU is the steadier figure on a shared machine).
 *
 *   npx tsx bench/rebalance.ts [--profile demo|advisory|direct-indexing] [--accounts 100000]
 *     [--households N] [--only sqlite|postgres] [--chunk-size N] [--workers 2] [--no-tax] [--repeat N]
 * PostgreSQL runs when TEST_DATABASE_URL or DATABASE_URL is set. BENCH_CPU_PROFILE and
 * BENCH_HEAP_PROFILE profile this process (below); BENCH_WORKER_NODE_OPTIONS are Node.js options
 * for the PostgreSQL workers (`--cpu-prof --cpu-prof-dir=DIR`, `--trace-gc`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchPostgresUrl, withPostgresSchema, withSqliteFile } from './_databases.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/database.js';
import { seedDemoFirm } from '../src/seed/demo.js';
import { parseProfile } from '../src/seed/profiles.js';
import { effectiveTaxStatus } from '../src/book/registration-types.js';
import { type Floor, postgresFloor, sqliteFloor, type TaxFloorInput } from './_floor.js';
import { BENCH_TAX_OPTIONS } from './_tax-options.js';

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'demo' },
    accounts: { type: 'string' },
    households: { type: 'string' },
    only: { type: 'string' },
    'chunk-size': { type: 'string' },
    workers: { type: 'string', default: '2' },
    'no-tax': { type: 'boolean', default: false },
    repeat: { type: 'string', default: '1' },
  },
});
const PROFILE = parseProfile(values.profile);
// Settings under test reach the server and the workers alike.
const tuning: Record<string, string> = values['chunk-size'] ? { REBALANCE_CHUNK_SIZE: values['chunk-size'] } : {};
const ACCOUNTS = Number(values.accounts ?? (PROFILE === 'direct-indexing' ? 2_000 : 100_000));
// The generator makes about 1.9 accounts per household (sleeved registrations add a custodial account).
const HOUSEHOLDS = Number(values.households ?? Math.ceil(ACCOUNTS / 1.75));
const WORKERS = Number(values.workers);
const REPEAT = Math.max(1, Number(values.repeat));
const root = join(import.meta.dirname, '..');
/** BENCH_WORKER_NODE_OPTIONS: Node.js options for the workers (`--cpu-prof --cpu-prof-dir=…`, `--trace-gc`), which NODE_OPTIONS refuses in part. */
const workerNodeOptions = process.env.BENCH_WORKER_NODE_OPTIONS?.split(' ').filter((o) => o !== '') ?? [];
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/**
 * With BENCH_CPU_PROFILE=<file>, a V8 CPU profile of `work` in <file>.<label>; with
 * BENCH_HEAP_PROFILE=<file>, a sampling profile of what it allocates in <file>.<label>.heapprofile
 * (where the garbage collector's work comes from). Open either in Chrome's DevTools.
 */
async function profiled<T>(label: string, work: () => Promise<T>): Promise<T> {
  const cpu = process.env.BENCH_CPU_PROFILE;
  const heap = process.env.BENCH_HEAP_PROFILE;
  if (!cpu && !heap) return work();
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) => new Promise<unknown>((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  if (cpu) {
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  // Samples kept even once collected: the point is what is allocated, not what survives.
  if (heap) await post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  try {
    return await work();
  } finally {
    if (cpu) writeFileSync(`${cpu}.${label}`, JSON.stringify(((await post('Profiler.stop')) as { profile: unknown }).profile));
    if (heap) writeFileSync(`${heap}.${label}.heapprofile`, JSON.stringify(((await post('HeapProfiler.stopSampling')) as { profile: unknown }).profile));
    session.disconnect();
  }
}

/** CPU seconds (user + system) a process has used so far, from the kernel; 0 once it is gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The database server's processes on this machine (PostgreSQL's backends are processes named postgres). */
function databasePids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
}

/** Peak resident memory of a process so far, from the kernel's own high-water mark. */
function peakRss(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/);
  return match ? Number(match[1]) * 1024 : 0;
}

interface Run {
  seconds: number;
  /** CPU seconds of this process (user + system, every thread) over the run: on SQLite the whole rebalance runs here. */
  cpu: number;
  /** CPU seconds of the workers and of the database's processes over the run (PostgreSQL; 0 on SQLite). */
  workersCpu: number;
  databaseCpu: number;
  status: { isDone: boolean; status?: string; itemsCompleted?: number; errorCount?: number; tradeInstanceId?: number };
  trades: number;
}

function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
}

/** The rebalanced accounts whose effective tax status is Taxable (the ones whose lots a tax-aware run reads). */
async function taxableAccounts(db: Db, firmId: number, ids: number[]): Promise<number[]> {
  const wanted = new Set(ids);
  const rows = await db.kysely.selectFrom('accounts as a').innerJoin('registrations as r', 'r.id', 'a.registration_id').select(['a.id', 'a.tax_status', 'r.type']).where('a.firm_id', '=', firmId).execute();
  return rows.filter((r) => wanted.has(r.id) && effectiveTaxStatus(r.tax_status, r.type) === 'Taxable').map((r) => r.id);
}

async function run(name: string, db: Db, env: Record<string, string>, workers: () => ChildProcess[], floorOf: (firmId: number, instanceId: number, tax?: TaxFloorInput) => Promise<Floor>) {
  const seeded = Date.now();
  const credentials = await seedDemoFirm(db, { households: HOUSEHOLDS, seed: 7, firmCode: 'BENCH', profile: PROFILE });
  const ids = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', credentials.firm.id).orderBy('id').limit(ACCOUNTS).execute()).map((r) => r.id);
  const book = await db.kysely.selectFrom('positions').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', credentials.firm.id).executeTakeFirstOrThrow();
  console.log(
    `${name}: ${PROFILE} book, seeded ${HOUSEHOLDS} households in ${((Date.now() - seeded) / 1000).toFixed(1)} s; ` +
      `rebalancing ${ids.length} accounts holding ${Number(book.n)} positions (${(Number(book.n) / ids.length).toFixed(1)} an account, counting every position of the firm)`,
  );
  // Peak memory from here on is the rebalance's, not the seed's (Linux: 5 resets VmHWM).
  writeFileSync('/proc/self/clear_refs', '5');
  const config = loadConfig({ LOG_LEVEL: 'silent', ...tuning, ...env }, { database: db.dialect === 'sqlite' ? { dialect: 'sqlite', file: ':memory:' } : { dialect: 'postgres', url: env.DATABASE_URL!, poolSize: 10 } });
  const app = await buildApp({ config, db });
  await app.ready();
  const children = workers();
  try {
    const api = credentials.users.find((u) => u.kind === 'api')!;
    const login = await app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${api.userName}:${api.password}`).toString('base64')}`, client_id: String(credentials.partner.clientId), client_secret: credentials.partner.clientSecret },
    });
    const authorization = `Session ${login.json().access_token}`;
    if (children.length > 0) await new Promise((r) => setTimeout(r, 3000)); // workers connect
    const rebalance = async (extra: object) => {
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      const database = children.length > 0 ? databasePids() : [];
      // Per process, counting only those alive at both ends (a backend that exits takes its count with it).
      const readCpu = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuSecondsOf(pid)]));
      const used = (before: Map<number, number>) => [...before].reduce((sum, [pid, was]) => sum + Math.max(0, cpuSecondsOf(pid) - was), 0);
      const workersBefore = readCpu(children.map((c) => c.pid!));
      const databaseBefore = readCpu(database);
      const response = await app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization }, payload: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: ids, ...extra } });
      if (response.statusCode !== 200) throw new Error(`GenerateTrades answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      const batchId = response.json<number>();
      let status = { isDone: false } as { isDone: boolean; status?: string; itemsCompleted?: number; errorCount?: number; tradeInstanceId?: number };
      while (!status.isDone) {
        await new Promise((r) => setTimeout(r, 50));
        status = (await app.inject({ url: `/api/Trading/TradeGenerationStatus/${batchId}`, headers: { authorization } })).json();
      }
      const seconds = (performance.now() - started) / 1000;
      const own = process.cpuUsage(cpuBefore);
      const cpu = (own.user + own.system) / 1e6;
      const workersCpu = used(workersBefore);
      const databaseCpu = used(databaseBefore);
      const trades = await db.kysely.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).where('trade_instance_id', '=', status.tradeInstanceId!).executeTakeFirstOrThrow();
      return { seconds, cpu, workersCpu, databaseCpu, status, trades: Number(trades.n) };
    };
    const cancel = (instanceId: number | undefined) => app.inject({ method: 'POST', url: `/api/Trading/TradeInstances/${instanceId}/Action/Cancel`, headers: { authorization } });
    const memory = () => `server ${mib(peakRss(process.pid))}` + children.map((c) => `, worker ${c.pid} ${mib(peakRss(c.pid!))}`).join('');
    // Runs in pairs (without and with taxOptions), each run's trades cancelled before the next so
    // every run reads the same book; the median of each is reported (machines are noisy).
    type Kind = 'plain' | 'tax';
    const runs: Record<Kind, Run[]> = { plain: [], tax: [] };
    const peakMemory: Record<Kind, string> = { plain: '', tax: '' };
    const measure = async (kind: Kind) => {
      writeFileSync('/proc/self/clear_refs', '5');
      const measured = await profiled(kind, () => rebalance(kind === 'tax' ? { taxOptions: BENCH_TAX_OPTIONS } : {}));
      runs[kind].push(measured);
      peakMemory[kind] ||= memory();
      return measured;
    };
    if (!values['no-tax']) {
      // One run of each kind first, untimed: the pairs then compare warm code with warm code. The
      // first run of a kind also compiles its code (the engine; the tax-aware planning, reads and
      // writes), which counted against the first pair's plain run, or its tax-aware run, only.
      await cancel((await rebalance({})).status.tradeInstanceId);
      await cancel((await rebalance({ taxOptions: BENCH_TAX_OPTIONS })).status.tradeInstanceId);
    }
    for (let i = 0; i < REPEAT; i++) {
      // The pair's order alternates, so that neither kind always runs second (on a book grown by
      // the runs before it, with the other's pages in the cache).
      const order: Kind[] = values['no-tax'] ? ['plain'] : i % 2 === 0 ? ['plain', 'tax'] : ['tax', 'plain'];
      for (const [k, kind] of order.entries()) {
        const measured = await measure(kind);
        // The run last of all keeps its trades.
        if (k < order.length - 1 || i < REPEAT - 1) await cancel(measured.status.tradeInstanceId);
      }
    }
    const { plain: plainRuns, tax: taxRuns } = runs;
    const plain = median(plainRuns);
    const { seconds, status } = plain;
    const each = (runs: Run[]) => (runs.length > 1 ? ` (median of ${runs.map((r) => r.seconds.toFixed(2)).join(', ')})` : '');
    console.log(
      `${name}: ${ids.length} accounts from POST to ${status.status} in ${seconds.toFixed(2)} s${each(plainRuns)} = ${Math.round(ids.length / seconds)} accounts/s; ` +
        `${plain.trades} trades, ${status.errorCount} accounts with errors (no model, by design of the demo book)`,
    );
    console.log(`${name}: peak memory during the rebalance: ${peakMemory.plain}`);
    const floor = await floorOf(credentials.firm.id, status.tradeInstanceId!);
    const floorSeconds = floor.readSeconds + floor.writeSeconds;
    console.log(
      `${name}: I/O floor ${floorSeconds.toFixed(2)} s (read ${floor.positions} positions ${floor.readSeconds.toFixed(2)} s, ` +
        `write ${floor.trades} trades ${floor.writeSeconds.toFixed(2)} s, driver directly (COPY on PostgreSQL)); rebalance = ${(seconds / floorSeconds).toFixed(2)}x floor` +
        (floor.insertSeconds === undefined ? '' : `; the same rows by INSERT … unnest ${floor.insertSeconds.toFixed(2)} s = ${(floor.insertSeconds / floor.writeSeconds).toFixed(2)}x the COPY`),
    );
    if (taxRuns.length > 0) {
      const taxed = median(taxRuns);
      // The summary comes a page of households at a time.
      const summary: { harvestedLosses: number; washSaleMoves: number; budgetCuts: number }[] = [];
      for (;;) {
        const url = `/api/Trading/TradeGenerationStatus/${(taxed.status as { id?: number }).id ?? ''}/TaxSummary?$top=1000&$skip=${summary.length}`;
        const response = await app.inject({ url, headers: { authorization } });
        const page: typeof summary = response.statusCode === 200 ? response.json() : [];
        summary.push(...page);
        if (page.length < 1000) break;
      }
      const totals = summary.length > 0 ? summary.reduce((t, h) => ({ harvested: t.harvested + h.harvestedLosses, moves: t.moves + h.washSaleMoves, cuts: t.cuts + h.budgetCuts }), { harvested: 0, moves: 0, cuts: 0 }) : null;
      const taxFloor = await floorOf(credentials.firm.id, taxed.status.tradeInstanceId!, { taxable: await taxableAccounts(db, credentials.firm.id, ids) });
      const taxFloorSeconds = taxFloor.readSeconds + taxFloor.writeSeconds;
      console.log(
        `${name}: with taxOptions ${taxed.seconds.toFixed(2)} s${each(taxRuns)} (${taxed.trades} trades, ${taxed.status.errorCount} accounts with errors` +
          (totals ? `; ${summary.length} households, ${Math.round(totals.harvested)} harvested, ${totals.moves} wash-sale moves, ${totals.cuts} budget cuts` : '') +
          `) = ${(taxed.seconds / seconds).toFixed(2)}x the run without${PROFILE === 'advisory' ? ' (goal <= 1.5x)' : ''}` +
          // Runs alternate, so each pair ran on the machine of the same minutes: its ratio is the steadier figure.
          (taxRuns.length > 1 ? ` (pair by pair: ${taxRuns.map((r, i) => `${(r.seconds / plainRuns[i]!.seconds).toFixed(2)}x`).join(', ')})` : '') +
          // CPU of the process (SQLite: the whole run) is steadier than wall on a shared machine.
          `; CPU ${taxRuns.map((r, i) => `${r.cpu.toFixed(2)}/${plainRuns[i]!.cpu.toFixed(2)} s = ${(r.cpu / plainRuns[i]!.cpu).toFixed(2)}x`).join(', ')}` +
          // On PostgreSQL the work is the workers' and the database's: their CPU, tax-aware against without, pair by pair.
          (children.length > 0
            ? `; workers' CPU ${taxRuns.map((r, i) => `${r.workersCpu.toFixed(1)}/${plainRuns[i]!.workersCpu.toFixed(1)} s`).join(', ')}; the database's ${taxRuns.map((r, i) => `${r.databaseCpu.toFixed(1)}/${plainRuns[i]!.databaseCpu.toFixed(1)} s`).join(', ')}`
            : '') +
          `, ${(taxed.seconds / floorSeconds).toFixed(2)}x floor; peak memory: ${peakMemory.tax}`,
      );
      console.log(
        `${name}: tax-aware I/O floor ${taxFloorSeconds.toFixed(2)} s (read ${taxFloor.positions} positions and the ${taxFloor.lots} lots of taxable accounts ${taxFloor.readSeconds.toFixed(2)} s, ` +
          `insert ${taxFloor.trades} trades with their lots ${taxFloor.writeSeconds.toFixed(2)} s); with taxOptions = ${(taxed.seconds / taxFloorSeconds).toFixed(2)}x that floor${PROFILE === 'direct-indexing' ? ' (goal <= 2x)' : ''}`,
      );
    }
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await app.close();
  }
}

async function main() {
  console.log(`goals: advisory 100,000 accounts < 10 s and <= 2x floor on SQLite, < 15 s on PostgreSQL with two workers; direct-indexing 2,000 <= 2x floor; demo < 10 s; < 1 GiB a process`);
  if (values.only !== 'postgres') {
    await withSqliteFile('bench-rebalance', (sqlite, file) => run('sqlite', sqlite, {}, () => [], async (firmId, instanceId, tax) => sqliteFloor(file, firmId, instanceId, tax)));
  }
  if (values.only === 'sqlite') return;

  const url = benchPostgresUrl();
  if (!url) return;
  await withPostgresSchema(url, `bench_rebalance_${process.pid}`, async ({ db, schema, scopedUrl }) => {
    const env = { ...tuning, DATABASE_URL: scopedUrl, JOB_SCHEMA: `${schema}_jobs`, WORKER_IN_SERVER: 'false' };
    const worker = () =>
      spawn(process.execPath, [...workerNodeOptions, '--import', 'tsx', join(root, 'src/cli.ts'), 'worker'], { cwd: root, env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, stdio: 'inherit' });
    await run(`postgres (${WORKERS} workers)`, db, env, () => Array.from({ length: WORKERS }, worker), (firmId, instanceId, tax) => postgresFloor(scopedUrl, firmId, instanceId, tax));
  });
}

await main();
