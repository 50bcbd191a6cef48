import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { tradingCalls } from '../../test/support/trading.js';
import { EMPTY_SELECTION, BatchRepository } from './batch-repository.js';
import { BatchWatchdog } from './watchdog.js';

/** Every batch ends — an empty selection at once, a stalled one after BATCH_STALL_SECONDS. */
describeEachDatabase('every rebalance batch ends', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let session: string;
  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    session = await t.session('advisor');
  });
  const get = (url: string) => t.app.inject({ url, headers: { authorization: session } });
  const { generate, status: statusOf } = tradingCalls(t, () => session);

  it('a selection without accounts (a trade group with none) is Complete at once, with a message saying so', async () => {
    const group = await t.db.kysely.insertInto('trade_groups').values({ firm_id: t.firm.firmId, name: 'Empty group' }).returning('id').executeTakeFirstOrThrow();
    for (const wait of [true, false]) {
      const batchId = await generate({ reason: 'NeedReview', entity: 'TradeGroup', keys: [group.id] }, wait);
      const status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
      expect(status).toMatchObject({ status: 'Complete', isDone: true, totalItems: 0, itemsCompleted: 0, errorCount: 0, message: EMPTY_SELECTION });
      const message = (await get(`/api/Trading/TradeGenerationStatus/${status.id}/Message`)).json();
      expect(message).toMatchObject({ severity: 'Complete', subject: 'Trade generation complete' });
      expect(message.message).toContain(EMPTY_SELECTION);
      expect((await get(`/api/Trading/TradeInstances/${status.tradeInstanceId}/Trades`)).json()).toEqual([]);
    }
  });

  it('a batch without progress for the stall time is Failed with the cause, and its accounts rebalance again', async () => {
    const account = await book.account();
    const repository = new BatchRepository(t.db.kysely);
    const createdAt = new Date('2026-11-20T10:00:00.000Z');
    // A batch whose chunk no worker ever takes (all workers gone).
    const { batchId } = await repository.createBatch({
      firmId: t.firm.firmId,
      userId: t.firm.users.advisor.id,
      userName: t.firm.users.advisor.userName,
      routine: 'Rebalance',
      notes: null,
      request: '{}',
      chunks: [[account]],
      totalItems: 1,
      now: createdAt.toISOString(),
    });
    const at = (seconds: number) => new BatchWatchdog(repository, { now: () => new Date(createdAt.getTime() + seconds * 1000) }, 600);
    expect(await at(599).sweep()).not.toContain(batchId);
    expect(await at(601).sweep()).toContain(batchId);
    const status = (await get(`/api/Trading/TradeGenerationStatus/${batchId}`)).json();
    expect(status).toMatchObject({ status: 'Failed', isDone: true, itemsCompleted: 0 });
    expect(status.message).toMatch(/^No progress for 600 s \(0 of 1 parts done\)/);
    expect(await at(1200).sweep()).not.toContain(batchId);

    const again = await generate({ reason: 'NeedReview', keys: [account] });
    expect(await statusOf(again)).toMatchObject({ status: 'Complete', itemsCompleted: 1 });
  });
});

/** With no worker at all (PostgreSQL, WORKER_IN_SERVER=false), wait=true answers within REBALANCE_WAIT_SECONDS. */
describeEachDatabase('wait=true is bounded', (database) => {
  if (database.config.dialect !== 'postgres') {
    it.skip('needs PostgreSQL: on SQLite the server always works its own chunks');
    return;
  }
  const t = useTestApp(database, { env: { WORKER_IN_SERVER: 'false', REBALANCE_WAIT_SECONDS: '1' } });

  it('answers with the batch still running after the configured wait', async () => {
    const book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    const account = await book.account();
    const authorization = await t.session('advisor');
    const trading = tradingCalls(t, () => authorization);
    const status = await trading.status(await trading.generate({ reason: 'NeedReview', keys: [account] }));
    expect(status).toMatchObject({ status: 'Running', isDone: false });
  });
});
