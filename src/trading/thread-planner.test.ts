import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, migrateToLatest, openDatabase } from '../db/database.js';
import { seedDemoFirm } from '../seed/demo.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { planChunk } from './chunk-plan.js';
import { planOf, type StoredRequest } from './request.js';
import type { ChunkWork } from './runner.js';
import { SnapshotRepository } from './snapshot-repository.js';
import { ThreadPlanner } from './thread-planner.js';

/** SQLite's queue plans chunks in a thread: what comes back must be what the engine gives here. */
describe('planning chunks in a thread', () => {
  let db: Db;
  let snapshots: SnapshotRepository;
  let firmId: number;
  let ids: number[];
  const planner = new ThreadPlanner();

  beforeAll(async () => {
    db = openDatabase({ dialect: 'sqlite', file: ':memory:' });
    await migrateToLatest(db);
    firmId = (await seedDemoFirm(db, { households: 40, seed: 3, firmCode: 'THREAD', profile: 'advisory' })).firm.id;
    ids = (await db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', firmId).orderBy('id').execute()).map((r) => r.id);
    snapshots = new SnapshotRepository(db.kysely, new TradeBlockRepository(db.kysely));
  });
  afterAll(async () => {
    await planner.close();
    await db.close();
  });

  const request = (extra: Partial<StoredRequest> = {}): StoredRequest => ({ routine: 'Rebalance', reason: 'NeedReview', level: 'Account', keys: ids, ...extra }) as StoredRequest;
  async function work(batchId: number, stored: StoredRequest, keys: number[]): Promise<ChunkWork> {
    const context = await snapshots.firmContext(firmId, new Date().toISOString().slice(0, 10));
    return { batchId, plan: planOf(stored), context, keys, reads: await snapshots.chunkReads(context, keys, stored.options?.taxOptions !== undefined) };
  }
  const threadOf = (p: ThreadPlanner) => (p as unknown as { worker: Worker | undefined }).worker;

  it('gives the rows the engine gives on this thread, for a plain chunk and a tax-aware one', async () => {
    const plain = await work(1, request(), ids);
    const rows = await planner.plan(plain);
    expect(rows.trades.length).toBeGreaterThan(0);
    expect(rows).toEqual(planChunk(plain.plan, plain.context, plain.keys, plain.reads));

    const taxAware = await work(2, request({ options: { reason: 'NeedReview', taxOptions: { lotSelection: 'MinTax', avoidWashSales: true, maxShortTermGain: 0, maxLongTermGain: 5000, harvestLosses: { minLossDollars: 500, minLossPercent: 5 } } } }), ids);
    const taxRows = await planner.plan(taxAware);
    expect(taxRows.trades.some((t) => t[8] !== null)).toBe(true);
    expect(taxRows.taxSummaries.length).toBeGreaterThan(0);
    expect(taxRows).toEqual(planChunk(taxAware.plan, taxAware.context, taxAware.keys, taxAware.reads));
  });

  it("plans a batch's later chunks with what its first brought, and a new thread is sent it again", async () => {
    const stored = request();
    const [first, second] = [await work(3, stored, ids.slice(0, 20)), await work(3, stored, ids.slice(20))];
    expect(await planner.plan(first)).toEqual(planChunk(first.plan, first.context, first.keys, first.reads));
    expect(await planner.plan(second)).toEqual(planChunk(second.plan, second.context, second.keys, second.reads));

    // The thread ends (a fault): the next chunk of the batch starts a new one, which is sent the batch.
    const before = threadOf(planner)!;
    await before.terminate();
    expect(await planner.plan(second)).toEqual(planChunk(second.plan, second.context, second.keys, second.reads));
    expect(threadOf(planner)).not.toBe(before);

    // A batch forgotten (it ended) is sent again if a chunk of it comes after all.
    planner.forget(3);
    expect(await planner.plan(first)).toEqual(planChunk(first.plan, first.context, first.keys, first.reads));
  });

  it("fails a chunk the engine cannot plan with the thread's error, and plans the next", async () => {
    const good = await work(4, request(), ids.slice(0, 5));
    const broken = { ...good, reads: { ...good.reads, accounts: null } } as unknown as ChunkWork;
    await expect(planner.plan(broken)).rejects.toThrow(/null/);
    expect((await planner.plan(good)).messages.length + (await planner.plan(good)).trades.length).toBeGreaterThan(0);
  });

  it('lets the process end while idle, and stops on close', async () => {
    const idle = new ThreadPlanner();
    const chunk = await work(5, request(), ids.slice(0, 5));
    await idle.plan(chunk);
    const thread = threadOf(idle)!;
    const exited = new Promise((resolve) => thread.once('exit', resolve));
    await idle.close();
    await exited;
    expect(threadOf(idle)).toBeUndefined();
  });
});
