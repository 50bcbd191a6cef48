import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import type { Db } from '../db/database.js';
import { type NewTrade, BatchRepository } from './batch-repository.js';
import { tradeRow } from './trade-writes-repository.js';
import { TradeInstanceRepository } from './instance-repository.js';
import { QuickTradeRepository } from './quick-trade-repository.js';

/**
 * A trade instance keeps its own trade count (migration 0019): it must equal its trades however
 * the chunks that write them end, retried after a crash or finished by workers at the same time.
 */
describeEachDatabase("a trade instance's count of its trades", (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firm: TestFirm;
  let book: TestBook;
  const now = '2026-03-10T15:00:00.000Z';
  const repository = () => new BatchRepository(db.kysely);
  const instances = () => new TradeInstanceRepository(db.kysely);
  const quickTrades = () => new QuickTradeRepository(db.kysely);

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firm = await createTestFirm(db.kysely, 'tradecount');
    book = await createTestBook(db.kysely, firm.firmId, firm.representativeId);
  });
  afterAll(() => drop());

  const trades = (accountId: number, n: number): NewTrade[] =>
    Array.from({ length: n }, () => ({ accountId, productId: book.products.VTI, side: 'Buy', tradeType: 'Shares', sharesMicros: 1_000_000, amountCents: 100, priceMicros: 1_000_000, reason: 'test' }));
  const counted = async (instanceId: number) => (await instances().instance(firm.firmId, instanceId))!.trade_count;
  const stored = async (instanceId: number) =>
    Number((await db.kysely.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).where('trade_instance_id', '=', instanceId).executeTakeFirstOrThrow()).n);

  it('adds each chunk once, whether it is redone or finished by racing workers', async () => {
    const account = await book.account();
    const { batchId, instanceId, chunkIds } = await repository().createBatch({
      firmId: firm.firmId,
      userId: firm.users.advisor.id,
      userName: firm.users.advisor.userName,
      routine: 'Rebalance',
      notes: null,
      request: '{}',
      chunks: [[account], [account], [account], [account]],
      totalItems: 4,
      now,
    });
    const complete = (chunk: number, n: number) =>
      repository().completeChunk({ id: chunkIds[chunk]!, firmId: firm.firmId, batchId, instanceId, items: 1 }, trades(account, n).map(tradeRow), [], now);
    expect(await counted(instanceId)).toBe(0);
    await complete(0, 3);
    await complete(0, 3); // redone after a crash: writes nothing
    await Promise.all([complete(1, 5), complete(2, 7), complete(2, 7)]);
    await complete(3, 0);
    expect(await stored(instanceId)).toBe(15);
    expect(await counted(instanceId)).toBe(15);
  });

  it('refreshes the statistics of trades on PostgreSQL once an instance holds enough of them', async () => {
    const account = await book.account();
    const { instanceId } = await quickTrades().storeQuickTrades({ firmId: firm.firmId, userId: firm.users.advisor.id, userName: firm.users.advisor.userName, notes: null, request: '{}', trades: trades(account, 3), now });
    const analyzed = async () =>
      database.name === 'postgres'
        ? Number((await sql<{ n: number }>`select coalesce(analyze_count, 0) + coalesce(autoanalyze_count, 0) as n from pg_stat_user_tables where relid = 'trades'::regclass`.execute(db.kysely)).rows[0]?.n ?? 0)
        : 0;
    const before = await analyzed();
    await repository().refreshTradeStatistics(instanceId, 4); // 3 trades: not enough
    expect(await analyzed()).toBe(before);
    await repository().refreshTradeStatistics(instanceId, 3);
    // The statistics collector reports the analyze a moment later.
    await expect.poll(analyzed, { timeout: 5000 }).toBe(database.name === 'postgres' ? before + 1 : 0);
  });

  it('counts quick trades, and cancelling keeps the count', async () => {
    const account = await book.account();
    const { instanceId } = await quickTrades().storeQuickTrades({ firmId: firm.firmId, userId: firm.users.advisor.id, userName: firm.users.advisor.userName, notes: null, request: '{}', trades: trades(account, 4), now });
    expect(await counted(instanceId)).toBe(4);
    await instances().cancel(firm.firmId, instanceId, 'tester', now);
    expect(await counted(instanceId)).toBe(4);
  });
});
