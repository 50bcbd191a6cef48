import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm } from '../../test/support/firm.js';
import { OutboxDispatcher } from './dispatcher.js';
import { OutboxRepository } from './repository.js';

describeEachDatabase('transactional outbox', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firmId: number;
  let now = new Date('2026-05-01T10:00:00Z');
  const clock = { now: () => now };

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firmId = (await createTestFirm(db.kysely, 'outbox')).firmId;
  });
  afterAll(() => drop());

  const enqueue = (topic: string, payloads: unknown[]) =>
    OutboxRepository.enqueue(db.kysely, payloads.map((payload) => ({ firmId, topic, payload })), now.toISOString());

  it('writes nothing when the writing transaction rolls back', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await OutboxRepository.enqueue(trx, [{ firmId, topic: 'rolled.back', payload: {} }], now.toISOString());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await new OutboxRepository(db.kysely).pending('rolled.back')).toBe(0);
  });

  it('retries a failing handler with exponential backoff and records the error', async () => {
    const dispatcher = new OutboxDispatcher(new OutboxRepository(db.kysely), clock, { baseBackoffMs: 1000 });
    let calls = 0;
    dispatcher.register('flaky', async () => {
      calls++;
      if (calls < 3) throw new Error(`receiver down (${calls})`);
    });
    await enqueue('flaky', [{ n: 1 }]);
    await dispatcher.drain();
    const row = () => db.kysely.selectFrom('outbox').selectAll().where('topic', '=', 'flaky').executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ attempts: 1, delivered_at: null, last_error: 'receiver down (1)', next_attempt_at: '2026-05-01T10:00:01.000Z' });
    await dispatcher.drain();
    expect(calls).toBe(1);
    now = new Date('2026-05-01T10:00:01Z');
    await dispatcher.drain();
    expect(await row()).toMatchObject({ attempts: 2, last_error: 'receiver down (2)', next_attempt_at: '2026-05-01T10:00:03.000Z' });
    now = new Date('2026-05-01T10:00:03Z');
    await dispatcher.drain();
    expect(await row()).toMatchObject({ attempts: 3, last_error: null, delivered_at: '2026-05-01T10:00:03.000Z' });
    expect(calls).toBe(3);
  });

  it('leaves topics without a handler to the nodes that have one', async () => {
    await enqueue('someone.else', [{}]);
    const dispatcher = new OutboxDispatcher(new OutboxRepository(db.kysely), clock);
    dispatcher.register('mine', async () => undefined);
    await dispatcher.drain();
    expect(await new OutboxRepository(db.kysely).pending('someone.else')).toBe(1);
  });

  it('delivers each message once when several dispatchers run at the same time', async () => {
    const seen: number[] = [];
    const dispatchers = [1, 2, 3].map(() => {
      const dispatcher = new OutboxDispatcher(new OutboxRepository(db.kysely), clock, { batchSize: 7 });
      dispatcher.register('busy', async (message) => {
        seen.push((message.payload as { n: number }).n);
        await new Promise((resolve) => setTimeout(resolve, 1));
      });
      return dispatcher;
    });
    await enqueue('busy', Array.from({ length: 60 }, (_, n) => ({ n })));
    await Promise.all(dispatchers.map((d) => d.drain()));
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  it('delivers soon after a kick once started, and stops cleanly', async () => {
    const dispatcher = new OutboxDispatcher(new OutboxRepository(db.kysely), clock, { pollMs: 60_000 });
    const delivered: unknown[] = [];
    dispatcher.register('kicked', async (message) => void delivered.push(message.payload));
    dispatcher.start();
    await enqueue('kicked', [{ hello: 'world' }]);
    dispatcher.kick();
    for (let i = 0; i < 100 && delivered.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(delivered).toEqual([{ hello: 'world' }]);
    await dispatcher.stop();
  });
});
