import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import type { Db } from '../db/database.js';
import { OutboxRepository } from '../outbox/repository.js';
import { BatchRepository } from '../trading/batch-repository.js';
import { recordBatchEnded } from './platform-events-repository.js';
import { PUSH_TOPIC } from './repository.js';

/**
 * The end of a rebalance is notified in the transaction that ends it, so a process dying right
 * after the batch finished cannot lose the notification, and racing workers cannot double it.
 */
describeEachDatabase('the notification of a finished rebalance, exactly once', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firm: TestFirm;
  const now = '2026-03-10T15:00:00.000Z';
  const repository = () => new BatchRepository(db.kysely, recordBatchEnded);

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firm = await createTestFirm(db.kysely, 'batches');
    // An endpoint of the user, so that every notification also queues its push.
    await db.kysely
      .insertInto('notify_integrations')
      .values({ firm_id: firm.firmId, user_id: firm.users.advisor.id, partner_app_id: firm.clientId, webhook_guid: crypto.randomUUID(), name: 'p', label: null, is_active: 1, is_custom: 0, push_url: 'https://partner.example/hook', push_secret: 'whsec_x', push_registered_at: now, created_at: now })
      .execute();
  });
  afterAll(() => drop());

  async function batch(chunks: number) {
    const created = await repository().createBatch({
      firmId: firm.firmId,
      userId: firm.users.advisor.id,
      userName: firm.users.advisor.userName,
      routine: 'Rebalance',
      notes: null,
      request: '{}',
      chunks: Array.from({ length: chunks }, (_, i) => [i + 1]),
      totalItems: chunks,
      now,
    });
    const complete = (chunkId: number, on = repository()) =>
      on.completeChunk({ id: chunkId, firmId: firm.firmId, batchId: created.batchId, instanceId: created.instanceId, items: 1 }, [], [], now);
    return { ...created, complete };
  }

  const notesOf = (batchId: number) =>
    db.kysely.selectFrom('notifications').selectAll().where('user_id', '=', firm.users.advisor.id).where('subject', 'like', `Rebalance batch ${batchId} %`).execute();
  const pushesOf = async (notificationId: number) =>
    (await db.kysely.selectFrom('notification_deliveries').select('id').where('notification_id', '=', notificationId).execute()).length;
  const status = async (batchId: number) => (await db.kysely.selectFrom('batches').select('status').where('id', '=', batchId).executeTakeFirstOrThrow()).status;

  it('is there as soon as the last chunk\'s transaction commits, with its push queued', async () => {
    const { batchId, chunkIds, complete } = await batch(2);
    expect(await complete(chunkIds[0]!)).toEqual({ wrote: true, finished: false });
    expect(await notesOf(batchId)).toEqual([]);
    expect(await complete(chunkIds[1]!)).toEqual({ wrote: true, finished: true });
    const notes = await notesOf(batchId);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ subject: `Rebalance batch ${batchId} Complete`, integration_id: null, partner_app_id: null, url: `{base_url}/Trading/TradeGenerationStatus/${batchId}/Message` });
    expect(await pushesOf(notes[0]!.id)).toBe(1);
    // A chunk redone after a crash writes nothing and notifies nothing again.
    expect(await complete(chunkIds[1]!)).toEqual({ wrote: false });
    expect(await notesOf(batchId)).toHaveLength(1);
  });

  it('rolls back with the batch\'s completion when the transaction fails, and is written once by the retry', async () => {
    const { batchId, chunkIds, complete } = await batch(1);
    const pushesBefore = await new OutboxRepository(db.kysely).pending(PUSH_TOPIC);
    const dying = new BatchRepository(db.kysely, async (trx, id, at) => {
      await recordBatchEnded(trx, id, at);
      throw new Error('the process died before the commit');
    });
    await expect(complete(chunkIds[0]!, dying)).rejects.toThrow('the process died');
    expect(await status(batchId)).toBe('Running');
    expect(await notesOf(batchId)).toEqual([]);
    expect(await db.kysely.selectFrom('notification_sources').select('key').where('key', '=', `batch:${batchId}`).execute()).toEqual([]);
    expect(await new OutboxRepository(db.kysely).pending(PUSH_TOPIC)).toBe(pushesBefore);

    expect(await complete(chunkIds[0]!)).toEqual({ wrote: true, finished: true });
    expect(await status(batchId)).toBe('Complete');
    expect(await notesOf(batchId)).toHaveLength(1);
  });

  it('notifies once when workers finish the last chunks, or the same chunk, at the same time', async () => {
    for (let round = 0; round < 5; round++) {
      const { batchId, chunkIds, complete } = await batch(3);
      await complete(chunkIds[0]!);
      // Two workers, each with its own connection, finishing the two last chunks together.
      const outcomes = await Promise.all([complete(chunkIds[1]!), complete(chunkIds[2]!), complete(chunkIds[2]!)]);
      expect(outcomes.filter((o) => o.wrote)).toHaveLength(2);
      expect(outcomes.filter((o) => o.wrote && o.finished)).toHaveLength(1);
      const notes = await notesOf(batchId);
      expect(notes).toHaveLength(1);
      expect(await pushesOf(notes[0]!.id)).toBe(1);
    }
  });

  it('notifies a batch ended Failed by a chunk that kept failing, once', async () => {
    const { batchId } = await batch(2);
    await Promise.all([repository().failBatch(batchId, 'A part of the batch failed 3 times: boom', now), repository().failBatch(batchId, 'again', now)]);
    const notes = await notesOf(batchId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.subject).toBe(`Rebalance batch ${batchId} Failed`);
    // Both calls race on their own connections; whichever fails the batch first gives the reason.
    expect(notes[0]!.body).toMatch(/A part of the batch failed 3 times: boom|again/);
    expect(await status(batchId)).toBe('Failed');
  });

  it('tells nobody when the user who started the batch is no longer active, yet counts the batch as notified', async () => {
    await db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', firm.users.advisor.id).execute();
    try {
      const { batchId, chunkIds, complete } = await batch(1);
      await complete(chunkIds[0]!);
      expect(await notesOf(batchId)).toEqual([]);
      expect(await db.kysely.selectFrom('notification_sources').select(['key', 'notification_id']).where('key', '=', `batch:${batchId}`).execute()).toEqual([{ key: `batch:${batchId}`, notification_id: null }]);
    } finally {
      await db.kysely.updateTable('users').set({ is_active: 1 }).where('id', '=', firm.users.advisor.id).execute();
    }
  });
});
