import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { formatImportIssue, importBook } from '../import/importer.js';
import { seedDemoFirm } from '../seed/demo.js';
import { describeEachDatabase } from '../../test/support/databases.js';

const dir = mkdtempSync(join(tmpdir(), 'wealth-history-import-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(dir, 'case-')), name);
  writeFileSync(path, text);
  return path;
}

describeEachDatabase('import of account_values and prices', (dialect) => {
  let target: { db: Db; drop(): Promise<void> };
  let db: Db;
  let firmId: number;
  let accounts: string[];
  let ticker: string;

  beforeAll(async () => {
    target = await dialect.open();
    db = target.db;
    ({ firm: { id: firmId } } = await seedDemoFirm(db, { households: 2, seed: 7, asOf: '2025-06-30', firmCode: `HIST${dialect.name}` }));
    accounts = (await db.kysely.selectFrom('accounts').select('number').where('firm_id', '=', firmId).orderBy('id').execute()).map((a) => a.number);
    ticker = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firmId).where('is_cash', '=', 0).orderBy('id').executeTakeFirstOrThrow()).ticker;
  });
  afterAll(() => target?.drop());

  const values = () => db.kysely.selectFrom('account_values').selectAll().where('firm_id', '=', firmId).orderBy('value_date').execute();

  it('loads month-end values with the flows of the days between, and a price history', async () => {
    const [a] = accounts;
    const report = await importBook(db, firmId, [
      file('account_values.csv', `account,date,market_value,net_flow,fees,income\n${a},2010-01-31,100000.00,,,\n${a},2010-02-15,,20000,,\n${a},2010-02-28,123000,0,12.50,310.25\n`),
      file('prices.csv', `ticker,date,price\n${ticker},2010-01-29,101.25\n${ticker},2010-02-26,99.5\n`),
    ]);
    expect(report.errors).toEqual([]);
    expect(report.imported).toMatchObject({ account_values: 3, prices: 2 });
    expect((await values()).map(({ value_date, market_value_cents, net_flow_cents, fees_cents, income_cents }) => [value_date, market_value_cents, net_flow_cents, fees_cents, income_cents])).toEqual([
      ['2010-01-31', 10_000_000, 0, 0, 0],
      ['2010-02-15', null, 2_000_000, 0, 0],
      ['2010-02-28', 12_300_000, 0, 1_250, 31_025],
    ]);
    const prices = await db.kysely
      .selectFrom('product_prices')
      .innerJoin('products', 'products.id', 'product_prices.product_id')
      .select(['product_prices.price_date', 'product_prices.price_micros'])
      .where('products.ticker', '=', ticker)
      .where('product_prices.price_date', '<', '2011-01-01')
      .orderBy('product_prices.price_date')
      .execute();
    expect(prices).toEqual([{ price_date: '2010-01-29', price_micros: 101_250_000 }, { price_date: '2010-02-26', price_micros: 99_500_000 }]);
  });

  it('refuses the whole import on a bad row, naming file, line and field; nothing is written', async () => {
    const [a, b] = accounts;
    const valuesFile = file(
      'account_values.csv',
      'account,date,market_value,net_flow,fees\n' +
        `${b},2011-01-31,5000,,\n` + //          good
        `${b},2011-02-30,5000,,\n` + //          not a date
        `${b},2011-03-31,-1,,\n` + //            negative value
        `NOPE-1,2011-03-31,10,,\n` + //          unknown account
        `${b},2011-01-31,5100,,\n` + //          duplicate in the file
        `${a},2010-01-31,1,,\n` + //             already stored
        `${b},2011-04-30,,,-3\n`, //             negative fee
    );
    const pricesFile = file('prices.csv', `ticker,date,price\nNOSUCH,2011-01-03,10\n${ticker},2011-01-03,0\n${ticker},2010-01-29,100\n`);
    const before = (await values()).length;
    const report = await importBook(db, firmId, [valuesFile, pricesFile]);
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportIssue)).toEqual([
      `${valuesFile}:3: date: must be a date YYYY-MM-DD; got "2011-02-30"`,
      `${valuesFile}:4: market_value: must be at least 0`,
      `${valuesFile}:5: account: no account number "NOPE-1" in this firm or earlier in this import`,
      `${valuesFile}:6: date: account ${b} has another row for 2011-01-31 in this import`,
      `${valuesFile}:7: date: account ${a} already has a value row for 2010-01-31`,
      `${valuesFile}:8: fees: must be at least 0`,
      `${pricesFile}:2: ticker: no product "NOSUCH" in this firm or earlier in this import`,
      `${pricesFile}:3: price: must be greater than 0`,
      `${pricesFile}:4: date: ${ticker} already has a price for 2010-01-29`,
    ]);
    expect((await values()).length).toBe(before);
  });

  it('makes the latest imported price the current one when it is not older; an older one stays history', async () => {
    const other = (await db.kysely.selectFrom('products').select(['id', 'ticker', 'price_micros', 'price_date']).where('firm_id', '=', firmId).where('is_cash', '=', 0).where('ticker', '!=', ticker).orderBy('id').executeTakeFirstOrThrow());
    const current = () => db.kysely.selectFrom('products').select(['price_micros', 'price_date']).where('id', '=', other.id).executeTakeFirstOrThrow();
    expect(other.price_date).toBe('2025-06-30');
    // Older than the current price (30 June 2025): history only.
    const older = await importBook(db, firmId, [file('prices.csv', `ticker,date,price\n${other.ticker},2009-12-31,1.5\n`)]);
    expect(older.errors).toEqual([]);
    expect(await current()).toEqual({ price_micros: other.price_micros, price_date: '2025-06-30' });
    // A failed import changes nothing, the current price included.
    const failed = await importBook(db, firmId, [file('prices.csv', `ticker,date,price\n${other.ticker},2025-07-01,2\nNOSUCH,2025-07-01,1\n`)]);
    expect(failed.ok).toBe(false);
    expect(await current()).toEqual({ price_micros: other.price_micros, price_date: '2025-06-30' });
    // Newer ones, out of date order in the file: the latest date's price becomes current.
    const newer = await importBook(db, firmId, [file('prices.csv', `ticker,date,price\n${other.ticker},2025-07-02,12.25\n${other.ticker},2025-07-01,12\n`)]);
    expect(newer.errors).toEqual([]);
    expect(await current()).toEqual({ price_micros: 12_250_000, price_date: '2025-07-02' });
  });

  it('takes JSON rows under the entity names', async () => {
    const [, b] = accounts;
    const report = await importBook(db, firmId, [file('history.json', JSON.stringify({ account_values: [{ account: b, date: '2012-12-31', marketValue: 42 }] }))]);
    expect(report.errors).toEqual([]);
    expect(report.imported.account_values).toBe(1);
  });
});
