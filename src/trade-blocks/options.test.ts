import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { block, caller, createSmallBook, reasonId, type SmallBook } from './test-support.js';

const url = '/api/v1/Trading/TradeBlocks';
const accountsUrl = '/api/v1/Portfolio/Accounts';

describeEachDatabase('trade block firm options and legacy account endpoints', (database) => {
  // Late in the day, so that the clock can cross midnight while the 10-hour sessions stay valid.
  const start = new Date('2026-06-30T20:00:00Z');
  let now = start;
  const t = useTestApp(database, { clock: { now: () => now } });
  const call = caller(t);
  let book: SmallBook;
  let legacyBook: SmallBook;
  const flags = async (accountId: number, registrationId: number) => ({
    account: (await t.db.kysely.selectFrom('accounts').select('is_trading_blocked').where('id', '=', accountId).executeTakeFirstOrThrow()).is_trading_blocked,
    registration: (await t.db.kysely.selectFrom('registrations').select('do_not_trade').where('id', '=', registrationId).executeTakeFirstOrThrow()).do_not_trade,
  });
  const details = async (firmId: number) =>
    Number((await t.db.kysely.selectFrom('trade_block_details').select((eb) => eb.fn.countAll<number>().as('n')).where('firm_id', '=', firmId).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    legacyBook = await createSmallBook(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    // The other firm runs without multi trade block and without the date option.
    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 0, trade_block_dates: 0 }).where('id', '=', t.otherFirm.firmId).execute();
  });

  it('keeps several active details apart with multi trade block on', async () => {
    const manual = await reasonId(call, 'Manual');
    const oci = await reasonId(call, 'OCI');
    const created = await call('POST', url, [block(book.account, { tradeBlockReasonId: manual }), block(book.account, { tradeBlockReasonId: oci, description: 'import' })]);
    expect(created.statusCode).toBe(200);
    expect((await call('GET', `${url}?entityEnum=7&entityId=${book.account}`)).json()).toHaveLength(2);
    expect(await flags(book.account, book.plain)).toEqual({ account: 0, registration: 0 });
  });

  it('updates the legacy flags instead of creating details with multi trade block off', async () => {
    const manual = (await call('GET', `${url}/Reasons`, undefined, 'advisor', 'otherFirm')).json()[0].id;
    const response = await call(
      'POST',
      url,
      [block(legacyBook.account, { tradeBlockReasonId: manual }), block(legacyBook.sleeved, { entityEnum: 6, tradeBlockReasonId: manual })],
      'advisor',
      'otherFirm',
    );
    expect(response.statusCode).toBe(200);
    expect(response.json().successfulTradeBlocks).toMatchObject([{ id: 0, globalId: null, entityId: legacyBook.account }, { id: 0, entityEnum: 6 }]);
    expect(await details(t.otherFirm.firmId)).toBe(0);
    expect(await flags(legacyBook.account, legacyBook.sleeved)).toEqual({ account: 1, registration: 1 });
  });

  it('computes isDisabled from the date range against the current date, in reads and lists', async () => {
    const manual = await reasonId(call, 'Manual');
    const [past, current, future] = (
      await call('POST', url, [
        block(book.sleeveAccounts[0], { tradeBlockReasonId: manual, startDate: '2026-01-01', endDate: '2026-03-01', description: 'past' }),
        block(book.sleeveAccounts[0], { tradeBlockReasonId: manual, startDate: '2026-06-01', endDate: '2026-06-30', description: 'current' }),
        block(book.sleeveAccounts[0], { tradeBlockReasonId: manual, startDate: '2026-07-01', description: 'future' }),
      ])
    ).json().successfulTradeBlocks;
    expect([past.isDisabled, current.isDisabled, future.isDisabled]).toEqual([true, false, true]);
    const list = async () =>
      Object.fromEntries((await call('GET', `${url}?entityEnum=7&entityId=${book.sleeveAccounts[0]}`)).json().map((d: { description: string; isDisabled: boolean }) => [d.description, d.isDisabled]));
    expect(await list()).toEqual({ past: true, current: false, future: true });
    now = new Date('2026-07-01T01:00:00Z');
    expect(await list()).toEqual({ past: true, current: true, future: false });
    expect((await call('GET', `${url}/${future.id}`)).json().isDisabled).toBe(false);
    // Without the option dates never disable a block.
    await t.db.kysely.updateTable('firms').set({ trade_block_dates: 0 }).where('id', '=', t.firm.firmId).execute();
    expect(await list()).toEqual({ past: false, current: false, future: false });
    await t.db.kysely.updateTable('firms').set({ trade_block_dates: 1 }).where('id', '=', t.firm.firmId).execute();
    now = start;
  });

  it('routes PUT Accounts/{id}, NewPortfolio and UpdateDoNotTradeAndSma to Manual details', async () => {
    const account = book.sleeveAccounts[1];
    const blocked = await call('PUT', `${accountsUrl}/${account}`, { isTradingBlocked: true, name: 'ignored' });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json()).toMatchObject({ accountId: account, isTradingBlocked: true, tradeBlocks: [{ tradeBlockReason: { name: 'Manual' }, description: 'Trading blocked (account update)' }] });
    // Blocking again does not pile up Manual details.
    expect((await call('PUT', `${accountsUrl}/NewPortfolio/${account}`, { isTradingBlocked: true })).json().tradeBlocks).toHaveLength(1);
    const unblocked = await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isTradingBlocked: false, isSma: true });
    expect(unblocked.json()).toEqual({ accountId: account, isTradingBlocked: false, tradeBlocks: [], isSma: true });
    expect((await call('PUT', `${accountsUrl}/NewPortfolio/${account}`, { modelingInfo: { isTradingBlocked: true } })).json().isTradingBlocked).toBe(true);
    expect((await call('PUT', `${accountsUrl}/999999`, { isTradingBlocked: true })).statusCode).toBe(404);
    expect((await call('PUT', `${accountsUrl}/${account}`, { isTradingBlocked: 'yes' })).statusCode).toBe(400);
    expect((await call('PUT', `${accountsUrl}/${account}`, { isTradingBlocked: true }, 'reader')).statusCode).toBe(403);
    expect(await flags(account, book.sleeved)).toEqual({ account: 0, registration: 0 });
  });

  it('updateDoNotTrade with false removes every deletable block except OCI', async () => {
    const account = book.account;
    const set = await call('PUT', `${accountsUrl}/action/updateDoNotTrade`, [{ id: account, modelingInfo: { isTradingBlocked: true } }]);
    expect(set.statusCode).toBe(200);
    const cleared = await call('PUT', `${accountsUrl}/action/updateDoNotTrade`, [{ id: account, modelingInfo: { isTradingBlocked: false } }]);
    expect(cleared.statusCode).toBe(200);
    const [state] = cleared.json();
    expect(state.tradeBlocks.map((d: { tradeBlockReason: { name: string } }) => d.tradeBlockReason.name)).toEqual(['OCI']);
    expect(state.isTradingBlocked).toBe(true);
    const bad = await call('PUT', `${accountsUrl}/action/updateDoNotTrade`, [{ id: account, modelingInfo: { isTradingBlocked: true } }, { id: 999999, modelingInfo: { isTradingBlocked: true } }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: '[1].id', message: 'account 999999 does not exist' }]);
    // All or nothing: the first account was not blocked again.
    const live = (await call('GET', `${url}?entityEnum=7&entityId=${account}`)).json();
    expect(live.map((d: { tradeBlockReason: { name: string } }) => d.tradeBlockReason.name)).toEqual(['OCI']);
  });

  it('sets and clears the legacy account flag on the legacy endpoints with multi trade block off', async () => {
    const on = await call('PUT', `${accountsUrl}/${legacyBook.sleeveAccounts[0]}`, { isTradingBlocked: true }, 'advisor', 'otherFirm');
    expect(on.json()).toEqual({ accountId: legacyBook.sleeveAccounts[0], isTradingBlocked: true, tradeBlocks: [], isSma: false });
    expect((await flags(legacyBook.sleeveAccounts[0], legacyBook.sleeved)).account).toBe(1);
    await call('PUT', `${accountsUrl}/action/updateDoNotTrade`, [{ id: legacyBook.sleeveAccounts[0], modelingInfo: { isTradingBlocked: false } }], 'advisor', 'otherFirm');
    expect((await flags(legacyBook.sleeveAccounts[0], legacyBook.sleeved)).account).toBe(0);
    expect(await details(t.otherFirm.firmId)).toBe(0);
  });
  // Section 4.2 rule 7: "PUT /v1/Portfolio/Accounts/UpdateDoNotTradeAndSma/{accountId} | used by the
  // rebalancer integration to update trading-blocked and SMA settings".
  it('UpdateDoNotTradeAndSma stores isSma and the account answers it', async () => {
    const account = book.account;
    const read = async () => (await call('GET', `${accountsUrl}/Verbose/${account}`)).json();
    expect((await read()).isSma).toBe(false);
    const sma = await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isSma: true });
    expect(sma.statusCode, sma.body).toBe(200);
    expect(sma.json()).toMatchObject({ accountId: account, isSma: true });
    expect(await read()).toMatchObject({ id: account, isSma: true });
    // Left out, isSma keeps its value while the block changes; sent false, it is cleared.
    expect((await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isTradingBlocked: true })).json()).toMatchObject({ isTradingBlocked: true, isSma: true });
    expect((await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isTradingBlocked: false, isSma: false })).json()).toMatchObject({ isSma: false });
    expect((await read()).isSma).toBe(false);
    // A firm without multi trade block stores it the same way.
    const legacy = await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${legacyBook.account}`, { isSma: true }, 'advisor', 'otherFirm');
    expect(legacy.json()).toMatchObject({ accountId: legacyBook.account, isSma: true });
    // Bad input names the field and writes nothing; another firm's account and a reader are refused.
    const bad = await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isTradingBlocked: true, isSma: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'isSma', message: 'must be boolean' }]);
    expect((await read()).isSma).toBe(false);
    expect((await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${legacyBook.account}`, { isSma: false })).statusCode).toBe(404);
    expect((await call('PUT', `${accountsUrl}/UpdateDoNotTradeAndSma/${account}`, { isSma: true }, 'reader')).statusCode).toBe(403);
    expect((await read()).isSma).toBe(false);
  });
});
