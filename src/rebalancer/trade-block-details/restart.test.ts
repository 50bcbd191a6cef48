import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/database.js';
import { OutboxRepository } from '../../outbox/repository.js';
import { TRADE_BLOCK_SYNC_TOPIC } from '../../trade-blocks/records.js';
import { createSmallBook, type SmallBook } from '../../trade-blocks/test-support.js';
import { createServices, type Services } from '../../services.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../../test/support/firm.js';
import type { V2Detail } from './schemas.js';
import type { RebalancerTradeBlockService } from './service.js';

/** Every detail of the firm's copy, deleted ones too, from the list's pages. */
async function everyCopy(service: RebalancerTradeBlockService, firmId: number): Promise<V2Detail[]> {
  const copies: V2Detail[] = [];
  for await (const page of service.list(firmId, { includeDeleted: true })) copies.push(...page);
  return copies;
}

/**
 * Delivery across a crash, without HTTP: each "node" is a fresh set of services over the same
 * database, and no dispatcher runs unless the test drives it.
 */
describeEachDatabase('trade block sync across a dispatcher crash', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firm: TestFirm;
  let book: SmallBook;
  let now = new Date('2026-05-01T10:00:00Z');
  const clock = { now: () => now };
  const node = (): Services => createServices(loadConfig({ LOG_LEVEL: 'silent' }, { database: database.config }), db, clock);
  const actor = () => ({ firmId: firm.firmId, userName: 'advisor@alpha' });
  const item = (reason: number, description: string) => ({ entityEnum: 7, entityId: book.account, tradeBlockReasonId: reason, description, startDate: '2026-01-01' });

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firm = await createTestFirm(db.kysely, 'crash');
    book = await createSmallBook(db.kysely, firm.firmId, firm.representativeId);
  });
  afterAll(() => drop());

  it('delivers events written before a crash once, after a restart', async () => {
    const first = node();
    const [manual] = await first.tradeBlockReasons.list(firm.firmId);
    const { successfulTradeBlocks } = await first.tradeBlocks.create(actor(), [item(manual!.id, 'before the crash')], true);
    const globalId = successfulTradeBlocks[0]!.globalId!;

    // The first node claims the event and dies before delivering it.
    const outbox = new OutboxRepository(db.kysely);
    const claimed = await outbox.claim(now.toISOString(), new Date(now.getTime() + 60_000).toISOString(), 10, [TRADE_BLOCK_SYNC_TOPIC]);
    expect(claimed).toHaveLength(1);
    const second = node();
    await second.outbox.drain();
    expect(await everyCopy(second.rebalancerTradeBlocks, firm.firmId)).toEqual([]);

    // Once the lease runs out, a restarted node delivers it.
    now = new Date(now.getTime() + 61_000);
    await second.outbox.drain();
    const copies = await everyCopy(second.rebalancerTradeBlocks, firm.firmId);
    expect(copies).toMatchObject([{ globalId, description: 'before the crash' }]);
    await node().outbox.drain();
    const log = await second.rebalancerTradeBlocks.syncLog(firm.firmId, globalId);
    expect(log.map((l) => [l.event_id, l.outcome])).toEqual([[claimed[0]!.id, 'applied']]);
    const row = await db.kysely.selectFrom('outbox').selectAll().where('id', '=', claimed[0]!.id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
    expect(row.delivered_at).not.toBeNull();
  });

  it('applies an event once even when a crash comes between applying and marking it delivered', async () => {
    const services = node();
    const [manual] = await services.tradeBlockReasons.list(firm.firmId);
    const { successfulTradeBlocks } = await services.tradeBlocks.create(actor(), [item(manual!.id, 'applied then crashed')], true);
    const globalId = successfulTradeBlocks[0]!.globalId!;
    const outbox = new OutboxRepository(db.kysely);
    const [message] = await outbox.claim(now.toISOString(), new Date(now.getTime() + 60_000).toISOString(), 10, [TRADE_BLOCK_SYNC_TOPIC]);
    await services.rebalancerTradeBlocks.applySyncEvent(message!);
    // ...and the node dies here: the row is still undelivered and comes back after the lease.
    now = new Date(now.getTime() + 61_000);
    await node().outbox.drain();
    expect(await services.rebalancerTradeBlocks.syncLog(firm.firmId, globalId)).toHaveLength(1);
    expect(await outbox.pending()).toBe(0);
  });

  it('never lets an older event overwrite a newer state', async () => {
    const services = node();
    const [manual] = await services.tradeBlockReasons.list(firm.firmId);
    const [created] = (await services.tradeBlocks.create(actor(), [item(manual!.id, 'v1')], true)).successfulTradeBlocks;
    await services.tradeBlocks.update(actor(), [{ globalId: created!.globalId, description: 'v2' }], true);
    const outbox = new OutboxRepository(db.kysely);
    const messages = await outbox.claim(now.toISOString(), new Date(now.getTime() + 60_000).toISOString(), 10, [TRADE_BLOCK_SYNC_TOPIC]);
    expect(messages.map((m) => (m.payload as { version: number }).version)).toEqual([1, 2]);
    // Delivered out of order: version 2 first, then version 1.
    await services.rebalancerTradeBlocks.applySyncEvent(messages[1]!);
    await services.rebalancerTradeBlocks.applySyncEvent(messages[0]!);
    const copy = (await everyCopy(services.rebalancerTradeBlocks, firm.firmId)).find((c) => c.globalId === created!.globalId);
    expect(copy?.description).toBe('v2');
    const log = await services.rebalancerTradeBlocks.syncLog(firm.firmId, created!.globalId!);
    expect(log.map((l) => [l.version, l.outcome])).toEqual([
      [2, 'applied'],
      [1, 'stale'],
    ]);
  });
});
