import { beforeAll, expect, it, vi } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { tradingCalls } from '../../test/support/trading.js';
import { followBatch } from '../../examples/follow-batch.js';
import { BatchRepository } from './batch-repository.js';

/** A batch shows its progress while it runs, a chunk of accounts at a time. */
describeEachDatabase('rebalance progress', (database) => {
  const t = useTestApp(database, { env: { REBALANCE_CHUNK_SIZE: '2' } });
  let book: TestBook;
  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    session = await t.session('advisor');
  });
  let session: string;
  const { generate } = tradingCalls(t, () => session);

  it('moves itemsCompleted towards totalItems chunk by chunk, and a follower sees it end', async () => {
    const keys: number[] = [];
    for (let i = 0; i < 7; i++) keys.push(await book.account());
    const authorization = session;
    const batchId = await generate({ reason: 'NeedReview', keys }, false);

    const seen: { itemsCompleted: number; totalItems: number }[] = [];
    const final = await followBatch({
      batchId,
      read: async (url) => (await t.app.inject({ url: `/api${url}`, headers: { authorization } })).json(),
      onProgress: (status) => void seen.push(status),
      intervalMs: 5,
    });
    expect(final).toMatchObject({ status: 'Complete', isDone: true, totalItems: 7, itemsCompleted: 7 });
    // Progress only grows (whole chunks of 2 accounts, possibly several at once), up to the total.
    const counts = seen.map((s) => s.itemsCompleted);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(counts.every((count) => count <= 7)).toBe(true);
    expect(seen.every((s) => s.totalItems === 7)).toBe(true);
  });

  it('makes smaller chunks of accounts that hold many positions (60 each, twice a typical book: one account a chunk)', async () => {
    const audit = { created_at: '2026-11-21T00:00:00.000Z', created_by: 'test', edited_at: '2026-11-21T00:00:00.000Z', edited_by: 'test' };
    const products = await t.db.kysely
      .insertInto('products')
      .values(Array.from({ length: 60 }, (_, i) => ({ firm_id: t.firm.firmId, ticker: `DI${i}-${t.firm.firmId}`, name: `Stock ${i}`, type: 'Stock', class: 'Equity', sub_class: null, category: null, price_micros: 10e6, price_date: '2026-11-20', is_cash: 0, allows_fractional: 0, ...audit })))
      .returning('id')
      .execute();
    const keys: number[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await book.account({ cash: 100 });
      await t.db.kysely.insertInto('positions').values(products.map((p) => ({ firm_id: t.firm.firmId, account_id: id, product_id: p.id, shares_micros: 10e6, cost_cents: 10000 }))).execute();
      keys.push(id);
    }
    const batchId = await generate({ reason: 'NeedReview', keys }, false);
    const chunks = await t.db.kysely.selectFrom('batch_chunks').select('keys').where('batch_id', '=', batchId).orderBy('id').execute();
    expect(chunks.map((c) => JSON.parse(c.keys) as number[])).toEqual(keys.map((k) => [k]));
  });

  it('reads the stored request (every key of the run) once for the batch, not once a chunk', async () => {
    const keys: number[] = [];
    for (let i = 0; i < 7; i++) keys.push(await book.account());
    const reads = vi.spyOn(BatchRepository.prototype, 'batchRequest');
    try {
      const batchId = await generate({ reason: 'NeedReview', keys });
      const chunks = await t.db.kysely.selectFrom('batch_chunks').select('done_at').where('batch_id', '=', batchId).execute();
      expect(chunks).toHaveLength(4);
      expect(chunks.every((c) => c.done_at !== null)).toBe(true);
      expect(reads.mock.calls.filter(([id]) => id === batchId)).toHaveLength(1);
    } finally {
      reads.mockRestore();
    }
  });
});
