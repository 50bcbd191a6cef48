import { beforeAll, expect, it } from 'vitest';
import { activeTradeBlock } from '../engine/index.js';
import { systemClock } from '../shared/clock.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { TradeBlockRepository } from './repository.js';
import { TradeBlockService } from './service.js';
import { block, caller, createSmallBook, reasonId, type SmallBook } from './test-support.js';

const url = '/api/v1/Trading/TradeBlocks';

describeEachDatabase('trade block input of the rebalancing engine', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SmallBook;
  let service: TradeBlockService;

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    service = new TradeBlockService(new TradeBlockRepository(t.db.kysely), systemClock);
  });

  it('gives each account its own and its registration\'s active, non-disabled blocks', async () => {
    const manual = await reasonId(call, 'Manual');
    const [sleeveA, sleeveB] = book.sleeveAccounts;
    const created = (
      await call('POST', url, [
        block(book.sleeved, { entityEnum: 6, tradeBlockReasonId: manual, description: 'registration', startDate: '2026-01-01', endDate: '2026-12-31' }),
        block(sleeveA, { tradeBlockReasonId: manual, description: 'expired', startDate: '2025-01-01', endDate: '2025-06-30' }),
        block(sleeveA, { tradeBlockReasonId: manual, description: 'deleted', startDate: '2026-01-01' }),
        block(book.account, { tradeBlockReasonId: manual, description: 'plain', startDate: '2026-01-01' }),
      ])
    ).json().successfulTradeBlocks;
    await call('DELETE', `${url}/${created[2].id}`);

    const input = await service.engineBlocks(t.firm.firmId, [sleeveA, sleeveB, book.account], '2026-03-01');
    const names = (id: number) => input.get(id)!.map((b) => b.description);
    expect(names(sleeveA)).toEqual(['registration']);
    expect(names(sleeveB)).toEqual(['registration']);
    expect(names(book.account)).toEqual(['plain']);
    expect(activeTradeBlock(input.get(sleeveB), sleeveB, book.sleeved)).toMatchObject({ entityEnum: 6, reason: 'Manual' });
    // On a business date outside the registration block's range only the plain account stays blocked.
    const later = await service.engineBlocks(t.firm.firmId, [sleeveA, book.account], '2027-02-01');
    expect(later.get(sleeveA)).toEqual([]);
    expect(later.get(book.account)).toHaveLength(1);
  });

  it('reads the legacy flags when multi trade block is off', async () => {
    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 0 }).where('id', '=', t.firm.firmId).execute();
    await t.db.kysely.updateTable('registrations').set({ do_not_trade: 1 }).where('id', '=', book.plain).execute();
    const input = await service.engineBlocks(t.firm.firmId, [book.account, book.sleeveAccounts[0]], '2026-03-01');
    expect(input.get(book.account)).toMatchObject([{ id: 0, entityEnum: 6, entityId: book.plain, reason: 'Manual' }]);
    expect(input.get(book.sleeveAccounts[0])).toEqual([]);
    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 1 }).where('id', '=', t.firm.firmId).execute();
  });
});
