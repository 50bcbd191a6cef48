import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';

describeEachDatabase('quick trades (section 4.5)', (database) => {
  const t = useTestApp(database);
  let book: TestBook;
  let account: number;
  let blocked: number;
  let foreign: number;
  let ticker: (name: 'VTI' | 'BND' | 'VXUS' | 'NOPX') => Promise<string>;
  let session: string;

  beforeAll(async () => {
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    account = await book.account({ cash: 5_000, holdings: { VTI: 10, BND: 20 } });
    blocked = await book.account({ cash: 5_000 });
    await t.db.kysely.updateTable('firms').set({ multi_trade_block: 0 }).where('id', '=', t.firm.firmId).execute();
    await t.db.kysely.updateTable('accounts').set({ is_trading_blocked: 1 }).where('id', '=', blocked).execute();
    const other = await createTestBook(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    foreign = await other.account();
    ticker = async (name) => (await t.db.kysely.selectFrom('products').select('ticker').where('id', '=', book.products[name]).executeTakeFirstOrThrow()).ticker;
    session = await t.session('advisor');
  });

  const validate = (items: object[]) => t.app.inject({ method: 'POST', url: '/api/trading/validateimport/orders/list', payload: items, headers: { authorization: session } });

  it('fills the output fields of a valid buy by dollars and a valid sell by shares', async () => {
    const response = await validate([
      { accountId: account, ticker: (await ticker('VTI')).toLowerCase(), action: 'buy', dollars: 1_000 },
      { accountId: account, ticker: await ticker('BND'), action: 'SELL', shares: 5 },
    ]);
    expect(response.statusCode).toBe(200);
    const [buy, sell] = response.json();
    expect(buy).toMatchObject({ isValid: true, message: '', productId: book.products.VTI, navPrice: 200, tradeType: 'Dollars', side: '1', amount: 1_000, dollars: 1_000, shares: 5 });
    expect(buy.accountNumber).toMatch(/^T/);
    expect(sell).toMatchObject({ isValid: true, message: '', productId: book.products.BND, navPrice: 80, tradeType: 'Shares', side: '2', amount: 5, shares: 5, dollars: 400 });
  });

  it('reports each problem on its item', async () => {
    const items = [
      [{ accountId: 999_999, ticker: await ticker('VTI'), action: 'BUY', dollars: 10 }, 'account 999999 not found'],
      [{ accountId: foreign, ticker: await ticker('VTI'), action: 'BUY', dollars: 10 }, `account ${foreign} not found`],
      [{ accountId: account, ticker: 'NOPE', action: 'BUY', dollars: 10 }, 'security NOPE not found'],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'HOLD', dollars: 10 }, 'action must be BUY or SELL, got "HOLD"'],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'BUY', dollars: 10, shares: 1 }, 'give exactly one of dollars or shares'],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'BUY' }, 'give exactly one of dollars or shares'],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'BUY', shares: -1 }, 'shares must be greater than 0'],
      [{ accountId: account, ticker: await ticker('NOPX'), action: 'BUY', shares: 1 }, `no price is available for ${await ticker('NOPX')}`],
      [{ accountId: blocked, ticker: await ticker('VTI'), action: 'BUY', shares: 1 }, /is trade-blocked \(Manual\)/],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'SELL', shares: 11 }, `sell of 11 ${await ticker('VTI')} exceeds the 10 shares held`],
      [{ accountId: account, ticker: await ticker('VTI'), action: 'BUY', shares: 1.5 }, /whole shares/],
    ] as const;
    const response = await validate(items.map(([item]) => item));
    expect(response.statusCode).toBe(200);
    response.json().forEach((out: { isValid: boolean; message: string }, i: number) => {
      expect(out.isValid, JSON.stringify(items[i]![0])).toBe(false);
      const expected = items[i]![1];
      if (typeof expected === 'string') expect(out.message).toBe(expected);
      else expect(out.message).toMatch(expected);
    });
  });

  it('marks the buys that overspend the account\'s cash, counting the list\'s sells', async () => {
    const vti = await ticker('VTI');
    const response = await validate([
      { accountId: account, ticker: vti, action: 'BUY', dollars: 4_000 },
      { accountId: account, ticker: vti, action: 'BUY', dollars: 2_000 },
      { accountId: account, ticker: await ticker('BND'), action: 'SELL', shares: 20 },
      { accountId: account, ticker: vti, action: 'BUY', dollars: 1_000 },
    ]);
    const out = response.json();
    expect(out.map((o: { isValid: boolean }) => o.isValid)).toEqual([true, true, true, false]);
    expect(out[3].message).toBe('cash overspent: this buy of $1000.00 exceeds the $600.00 left in the account');
  });

  it('refuses a submission with any bad item, listing every one, and stores nothing', async () => {
    const before = await t.db.kysely.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Trading/GenerateTrades',
      headers: { authorization: session },
      payload: {
        routine: 'QuickTrade',
        trades: [
          { accountId: account, productId: book.products.VTI, tradeType: 'Shares', amount: 1, side: '1' },
          { accountId: 999_999, productId: book.products.VTI, tradeType: 'Shares', amount: 1, side: '1' },
          { accountId: account, productId: book.products.NOPX, tradeType: 'Dollars', amount: 100, side: '1' },
        ],
      },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'trades[1]', message: 'account 999999 not found' },
      { field: 'trades[2]', message: `no price is available for ${await ticker('NOPX')}` },
    ]);
    const bad = await t.app.inject({ method: 'POST', url: '/api/Trading/GenerateTrades', headers: { authorization: session }, payload: { routine: 'QuickTrade', trades: [{ accountId: account, productId: book.products.VTI, tradeType: 'Units', amount: 1, side: '3' }] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['trades[0].side', 'trades[0].tradeType']);
    const after = await t.db.kysely.selectFrom('trades').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('stores valid quick trades in a trade instance and answers its batch id', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/Trading/GenerateTrades',
      headers: { authorization: session },
      payload: { routine: 'QuickTrade', notes: 'client call', trades: [{ accountId: account, productId: book.products.VTI, tradeType: 'Dollars', amount: 450, side: '1' }, { accountId: account, productId: book.products.BND, tradeType: 'Shares', amount: 2, side: '2' }] },
    });
    expect(response.statusCode).toBe(200);
    const status = (await t.app.inject({ url: `/api/Trading/TradeGenerationStatus/${response.json()}`, headers: { authorization: session } })).json();
    expect(status).toMatchObject({ status: 'Complete', isDone: true, errorCount: 0 });
    const trades = (await t.app.inject({ url: `/api/Trading/TradeInstances/${status.tradeInstanceId}/Trades`, headers: { authorization: session } })).json();
    expect(trades.map((x: { action: string; shares: number; amount: number; tradeType: string }) => [x.action, x.tradeType, x.shares, x.amount])).toEqual([
      ['BUY', 'Dollars', 2, 450],
      ['SELL', 'Shares', 2, 160],
    ]);
    const instance = (await t.app.inject({ url: `/api/Trading/TradeInstances/${status.tradeInstanceId}`, headers: { authorization: session } })).json();
    expect(instance).toMatchObject({ routine: 'QuickTrade', tradeCount: 2 });
  });
});
