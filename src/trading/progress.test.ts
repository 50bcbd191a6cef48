import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { followBatch } from '../../examples/follow-batch.js';

/** Issue 18: a batch shows its progress while it runs, a chunk of accounts at a time. */
describeEachDatabase('rebalance progress', (database) => {
  const t = useTestApp(database, { env: { REBALANCE_CHUNK_SIZE: '2' } });
  let book: TestBook;
  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
  });

  it('moves itemsCompleted towards totalItems chunk by chunk, and a follower sees it end', async () => {
    const keys: number[] = [];
    for (let i = 0; i < 7; i++) keys.push(await book.account());
    const authorization = await t.session('advisor');
    const started = await t.app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', payload: { routine: 'Rebalance', entity: 'Account', reason: 'NeedReview', keys }, headers: { authorization } });
    expect(started.statusCode, started.body).toBe(200);
    const batchId = started.json<number>();

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
});
