import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { staleLotTexts } from '../db/position-lots.js';
import { seedDemoFirm } from '../seed/demo.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { runImportCommand } from './command.js';
import { formatImportIssue, formatImportReport, importBook } from './importer.js';

const dir = mkdtempSync(join(tmpdir(), 'wealth-import-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const sub = mkdtempSync(join(dir, 'case-'));
  const path = join(sub, name);
  writeFileSync(path, text);
  return path;
}

const GOOD = {
  reps: JSON.stringify(
    {
      broker_dealers: [{ name: 'Lakeside Securities', code: 'LAKE' }],
      representatives: [{ number: 'R-900', firstName: 'Ada', lastName: 'Park', broker_dealer: 'LAKE', email: 'ada@lake.example' }],
    },
    null,
    2,
  ),
  products: 'ticker,name,type,class,price,price_date\nSPAXX,Fidelity Government Money Market,MutualFund,Cash,1.0000,2025-06-30\n',
  clients: 'name,representative,notes\n"Park, Ada & Lee",R-900,"Referred by\nan existing client"\nSolo Client,R-900,\n',
  registrations: 'client,name,type,is_sleeved\n"Park, Ada & Lee",Joint Brokerage,Joint,false\nSolo Client,Solo IRA,Traditional IRA,no\n',
  accounts:
    'number,name,custodian,client,registration,model,cash\n' +
    'IMP-0001,Park Joint,Charles Schwab,"Park, Ada & Lee",Joint Brokerage,Growth Allocation,1250.50\n' +
    'IMP-0002,Solo IRA,Fidelity Institutional,Solo Client,Solo IRA,,0\n',
  positions:
    'account,ticker,shares,cost,acquired_date\n' +
    'IMP-0001,VTI,120,30000.00,2021-03-15\nIMP-0001,SPAXX,1500.125,1500.13,\nIMP-0002,VTSAX,10.5,1200,2019-01-02\n',
};

async function count(db: Db, table: 'clients' | 'accounts' | 'positions' | 'tax_lots', firmId: number): Promise<number> {
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('firm_id', '=', firmId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A stream that keeps what is written to it. */
function sink(): PassThrough & { text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return Object.assign(stream, { text: () => Buffer.concat(chunks).toString('utf8') });
}

/** accounts.csv and positions.csv of a book past several batches and writes of the importer. */
function largeBook(prefix: string, accounts: number, tickers: string[], lastPositionRow?: string) {
  const accountLines = Array.from({ length: accounts }, (_, i) => `${prefix}-${i},Account ${i},Pershing,Solo Client,Solo IRA,${i % 100}.50`);
  const positionLines = Array.from({ length: accounts * tickers.length }, (_, i) => {
    const account = Math.floor(i / tickers.length);
    return `${prefix}-${account},${tickers[i % tickers.length]},${(i % 40) + 1},${(i % 900) + 0.25},2022-0${(i % 9) + 1}-01`;
  });
  if (lastPositionRow) positionLines[positionLines.length - 1] = lastPositionRow;
  return [
    file('accounts.csv', `number,name,custodian,client,registration,cash\n${accountLines.join('\n')}\n`),
    file('positions.csv', `account,ticker,shares,cost,acquired_date\n${positionLines.join('\n')}\n`),
  ];
}

describeEachDatabase('importBook', (dialect) => {
  let target: { db: Db; drop(): Promise<void> };
  let db: Db;
  let firmId: number;

  beforeAll(async () => {
    target = await dialect.open();
    db = target.db;
    ({ firm: { id: firmId } } = await seedDemoFirm(db, { households: 3, seed: 5, asOf: '2025-06-30', firmCode: `IMP${dialect.name}` }));
  });
  afterAll(() => target?.drop());

  it('imports a good book from CSV and JSON, in any file order, resolving natural keys', async () => {
    const before = { clients: await count(db, 'clients', firmId), positions: await count(db, 'positions', firmId) };
    const files = [
      file('positions.csv', GOOD.positions),
      file('accounts.csv', GOOD.accounts),
      file('book.json', GOOD.reps),
      file('registrations.csv', GOOD.registrations),
      file('clients.csv', GOOD.clients),
      file('products.csv', GOOD.products),
    ];
    const report = await importBook(db, firmId, files);
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.imported).toEqual({
      broker_dealers: 1, representatives: 1, products: 1, clients: 2, registrations: 2, accounts: 2, positions: 3, tax_lots: 2, substitutions: 0, prices: 0, account_values: 0,
    });
    expect(formatImportReport(report)).toContain('2 clients');
    expect(await count(db, 'clients', firmId)).toBe(before.clients + 2);
    expect(await count(db, 'positions', firmId)).toBe(before.positions + 3);

    const account = await db.kysely
      .selectFrom('accounts')
      .innerJoin('models', 'models.id', 'accounts.model_id')
      .innerJoin('registrations', 'registrations.id', 'accounts.registration_id')
      .innerJoin('clients', 'clients.id', 'registrations.client_id')
      .select(['accounts.cash_cents', 'models.name as model', 'clients.name as client', 'accounts.created_by'])
      .where('accounts.number', '=', 'IMP-0001')
      .executeTakeFirstOrThrow();
    expect(account).toEqual({ cash_cents: 125050, model: 'Growth Allocation', client: 'Park, Ada & Lee', created_by: 'import' });
    const spaxx = await db.kysely
      .selectFrom('positions')
      .innerJoin('products', 'products.id', 'positions.product_id')
      .select(['positions.shares_micros', 'positions.cost_cents', 'products.allows_fractional', 'products.price_micros'])
      .where('products.ticker', '=', 'SPAXX')
      .executeTakeFirstOrThrow();
    expect(spaxx).toEqual({ shares_micros: 1_500_125_000, cost_cents: 150013, allows_fractional: 1, price_micros: 1_000_000 });
    const lots = await db.kysely
      .selectFrom('tax_lots')
      .innerJoin('positions', 'positions.id', 'tax_lots.position_id')
      .innerJoin('accounts', 'accounts.id', 'positions.account_id')
      .select(['tax_lots.shares_micros', 'tax_lots.acquired_date'])
      .where('accounts.number', 'in', ['IMP-0001', 'IMP-0002'])
      .orderBy('tax_lots.acquired_date')
      .execute();
    expect(lots).toEqual([
      { shares_micros: 10_500_000, acquired_date: '2019-01-02' },
      { shares_micros: 120_000_000, acquired_date: '2021-03-15' },
    ]);
    // The one-lot defaults' texts are written with their positions (db/position-lots.ts).
    const texts = await db.kysely.selectFrom('positions').innerJoin('accounts', 'accounts.id', 'positions.account_id').select(['positions.lots', 'positions.latest_lot_date']).where('accounts.number', 'in', ['IMP-0001', 'IMP-0002']).where('positions.lots', 'is not', null).orderBy('positions.latest_lot_date').execute();
    expect(texts.map((t) => t.latest_lot_date)).toEqual(['2019-01-02', '2021-03-15']);
    expect(await staleLotTexts(db.kysely)).toEqual([]);
  });

  it('imports taxes: tax status, wash-sale groups, harvest replacements and tax lots that sum to their positions', async () => {
    const files = [
      file('products.csv', 'ticker,name,type,price,price_date,wash_sale_group,harvest_replacement\nTXA,Total market A,ETF,100,2025-06-30,US total,TXB\nTXB,Total market B,ETF,50,2025-06-30,,\n'),
      file('accounts.csv', 'number,name,custodian,client,registration,tax_status\nTAX-1,Taxed,Pershing,Solo Client,Solo IRA,Taxable\n'),
      file('positions.csv', 'account,ticker,shares,cost\nTAX-1,TXA,30,2600\nTAX-1,TXB,10,400\n'),
      file('tax_lots.csv', 'account,ticker,shares,cost,acquired_date\nTAX-1,TXA,10,1200,2024-01-05\nTAX-1,TXA,20,1400,2025-05-01\nTAX-1,TXB,10,400,2025-06-01\n'),
    ];
    const report = await importBook(db, firmId, files);
    expect(report.errors).toEqual([]);
    expect(report.imported.tax_lots).toBe(3);
    const products = await db.kysely.selectFrom('products').select(['id', 'ticker', 'wash_sale_group', 'harvest_replacement_product_id']).where('firm_id', '=', firmId).where('ticker', 'in', ['TXA', 'TXB']).orderBy('ticker').execute();
    expect(products.map((p) => [p.ticker, p.wash_sale_group, p.harvest_replacement_product_id])).toEqual([['TXA', 'US total', products[1]!.id], ['TXB', null, null]]);
    const account = await db.kysely.selectFrom('accounts').select(['id', 'tax_status']).where('number', '=', 'TAX-1').executeTakeFirstOrThrow();
    expect(account.tax_status).toBe('Taxable');
    const lots = await db.kysely.selectFrom('tax_lots as l').innerJoin('positions as p', 'p.id', 'l.position_id').select(['p.product_id', 'l.shares_micros', 'l.cost_cents', 'l.acquired_date']).where('p.account_id', '=', account.id).orderBy('l.acquired_date').execute();
    expect(lots.map((l) => [Number(l.shares_micros) / 1e6, Number(l.cost_cents) / 100, l.acquired_date])).toEqual([[10, 1200, '2024-01-05'], [20, 1400, '2025-05-01'], [10, 400, '2025-06-01']]);
    // The lots file replaced the one-lot defaults: the positions' lot texts say so.
    const texts = await db.kysely.selectFrom('positions').select(['product_id', 'lots']).where('account_id', '=', account.id).orderBy('product_id').execute();
    expect(texts.map((p) => (p.lots ?? '').split('],[').length)).toEqual([2, 1]);
    expect(await staleLotTexts(db.kysely)).toEqual([]);
  });

  it('refuses lots that do not sum to their position, a bad tax status and an unknown replacement, naming each line, and writes nothing', async () => {
    const before = await count(db, 'tax_lots', firmId);
    const files = [
      file('products.csv', 'ticker,name,type,price,price_date,harvest_replacement\nTXC,Fund C,ETF,100,2025-06-30,NOPE9\n'),
      file('accounts.csv', 'number,name,custodian,client,registration,tax_status\nTAX-2,Taxed,Pershing,Solo Client,Solo IRA,Offshore\nTAX-3,Taxed,Pershing,Solo Client,Solo IRA,\n'),
      file('positions.csv', 'account,ticker,shares,cost\nTAX-3,TXC,30,2600\n'),
      file('tax_lots.csv', 'account,ticker,shares,cost,acquired_date\nTAX-3,TXC,10,1200,2024-01-05\nTAX-3,TXC,10,1400,2025-05-01\nTAX-3,VTI,1,1,2025-05-01\n'),
    ];
    const report = await importBook(db, firmId, files);
    expect(report.errors.map((e) => [e.file.split('/').pop(), e.line, e.field])).toEqual([
      ['products.csv', 2, 'harvest_replacement'],
      ['accounts.csv', 2, 'tax_status'],
      ['tax_lots.csv', 3, 'shares'],
      ['tax_lots.csv', 4, 'ticker'],
    ]);
    expect(await count(db, 'tax_lots', firmId)).toBe(before);
    expect(await db.kysely.selectFrom('products').select('id').where('ticker', '=', 'TXC').executeTakeFirst()).toBeUndefined();
  });

  it('reports every bad row by file, line and field, and writes nothing', async () => {
    const before = await count(db, 'clients', firmId);
    const clients = file('clients.csv', 'name,representative\nGood Client,R-900\n,R-900\nGhost Client,NOPE\n');
    const accounts = file(
      'accounts.csv',
      'number,name,custodian,client,registration,cash\n' +
        'IMP-0001,Dup,Pershing,Solo Client,Solo IRA,0\n' +
        'IMP-0100,Fine,Pershing,Good Client,1,abc\n',
    );
    const positions = file(
      'positions.json',
      '[\n  { "account": "IMP-0002", "ticker": "VTI", "shares": 1.5 },\n  { "account": "IMP-0002", "ticker": "NOPE", "shares": -1 }\n]\n',
    );
    const report = await importBook(db, firmId, [clients, accounts, positions]);
    expect(report.ok).toBe(false);
    const problems = report.errors.map((e) => [e.file.split('/').pop(), e.line, e.field]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['clients.csv', 3, 'name'],
        ['clients.csv', 4, 'representative'],
        ['accounts.csv', 2, 'number'],
        ['accounts.csv', 3, 'cash'],
        ['positions.json', 2, 'shares'],
        ['positions.json', 3, 'ticker'],
        ['positions.json', 3, 'shares'],
      ]),
    );
    expect(report.errors.every((e) => e.message.length > 0)).toBe(true);
    expect(report.imported.clients).toBe(0);
    expect(await count(db, 'clients', firmId)).toBe(before);
    expect(formatImportReport(report)).toMatch(/clients\.csv:3: name: is required/);
  });

  it('rejects files it cannot attribute to an entity and unknown columns', async () => {
    const report = await importBook(db, firmId, [
      file('households-2024.csv', 'name\nx\n'),
      file('book.json', '{\n  "clients": [],\n  "widgets": []\n}'),
      file('products.csv', 'ticker,name,type,colour\nZZZ,Zed,ETF,red\n'),
      file('notes.txt', 'hello'),
    ]);
    expect(report.errors.map((e) => [e.file.split('/').pop(), e.line, e.field])).toEqual([
      ['households-2024.csv', 0, '(file)'],
      ['book.json', 3, 'widgets'],
      ['products.csv', 2, 'colour'],
      ['notes.txt', 0, '(file)'],
    ]);
  });

  it('refuses empty and header-only files and NUL characters, writing nothing', async () => {
    const before = await count(db, 'clients', firmId);
    const report = await importBook(db, firmId, [
      file('clients.csv', ''),
      file('products.csv', 'ticker,name,type\n'),
      file('representatives.csv', 'number,first_name,last_name,broker_dealer\nR-1,A\u0000x,B,LAKE\n'),
    ]);
    expect(report.ok).toBe(false);
    expect(report.errors.map((e) => [e.file.split('/').pop(), e.line, e.field, e.message])).toEqual(
      expect.arrayContaining([
        ['clients.csv', 0, '(file)', 'holds no rows'],
        ['products.csv', 0, '(file)', 'holds no rows'],
        ['representatives.csv', 2, 'first_name', 'must not contain a NUL character'],
      ]),
    );
    expect(await count(db, 'clients', firmId)).toBe(before);
  });

  it('requires the sleeves of a new sleeved registration to total 100', async () => {
    const report = await importBook(db, firmId, [
      file('registrations.csv', 'client,name,type,is_sleeved\nSolo Client,Sleeved Trust,Revocable Trust,true\n'),
      file(
        'accounts.csv',
        'number,name,custodian,client,registration,sleeve_target_pct,sleeve_tolerance_lower,sleeve_tolerance_upper\n' +
          'SLV-1,Sleeve 1,Pershing,Solo Client,Sleeved Trust,60,3,3\n' +
          'SLV-2,Sleeve 2,Pershing,Solo Client,Sleeved Trust,30.5,3,3\n' +
          'SLV-3,Not a sleeve,Pershing,Solo Client,Solo IRA,10,,\n',
      ),
    ]);
    expect(report.errors.map((e) => [e.line, e.field])).toEqual([
      [3, 'sleeve_target_pct'],
      [4, 'sleeve_target_pct'],
    ]);
  });

  it('reports where a file stops being CSV, keeps the problems of the rows before it, and writes nothing', async () => {
    const before = await count(db, 'clients', firmId);
    const clients = file('clients.csv', 'name,representative\nGood Client,R-900\n,R-900\n\n"Broken"quote,R-900\nAfter,R-900\n');
    const report = await importBook(db, firmId, [clients]);
    expect(report.errors.map((e) => [e.line, e.field, e.message])).toEqual([
      [3, 'name', 'is required'],
      [5, '(file)', 'not valid CSV: Trailing quote on quoted field is malformed'],
    ]);
    expect(await count(db, 'clients', firmId)).toBe(before);
  });

  it('refuses an unknown firm', async () => {
    const report = await importBook(db, 999_999, [file('clients.csv', 'name,representative\nA,R-900\n')]);
    expect(report.errors).toEqual([{ file: '', line: 0, field: 'firmId', message: 'no firm with id 999999' }]);
  });

  it('prints each bad row as FILE:LINE: FIELD: message on stderr, and --json gives the same as a JSON array', async () => {
    const clients = file('clients.csv', 'name,representative\nFine,R-900\n,R-900\nShort\n');
    const human = { stdout: sink(), stderr: sink() };
    expect(await runImportCommand(db, firmId, [clients], human)).toBe(1);
    const lines = human.stderr.text().split('\n').filter((l) => l.startsWith(clients));
    expect(lines).toEqual([`${clients}:3: name: is required`, `${clients}:4: (row): has 1 fields; the header names 2`]);
    expect(human.stderr.text()).toContain('2 problem(s); nothing was written');
    expect(human.stdout.text()).toBe('');

    const machine = { stdout: sink(), stderr: sink() };
    expect(await runImportCommand(db, firmId, [clients], { ...machine, json: true })).toBe(1);
    const issues = JSON.parse(machine.stdout.text()) as { file: string; line: number; field: string; message: string }[];
    expect(issues).toEqual([
      { file: clients, line: 3, field: 'name', message: 'is required' },
      { file: clients, line: 4, field: '(row)', message: 'has 1 fields; the header names 2' },
    ]);
    expect(issues.map(formatImportIssue)).toEqual(lines);
    expect(machine.stderr.text()).not.toContain(`${clients}:3`);
  });

  it('streams a large file in batches and loads it whole', async () => {
    const tickers = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firmId).orderBy('id').limit(8).execute()).map((p) => p.ticker);
    const before = await count(db, 'positions', firmId);
    const progress: number[] = [];
    const report = await importBook(db, firmId, largeBook('BIG', 3_000, tickers), { onProgress: (rows) => progress.push(rows) });
    expect(report.errors).toEqual([]);
    expect(report.imported.accounts).toBe(3_000);
    expect(report.imported.positions).toBe(3_000 * tickers.length);
    expect(await count(db, 'positions', firmId)).toBe(before + 3_000 * tickers.length);
    // Read a batch at a time: progress came many times, each further than the last.
    expect(progress.length).toBeGreaterThan(4);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(3_000 + 3_000 * tickers.length);
    const sample = await db.kysely
      .selectFrom('positions')
      .innerJoin('accounts', 'accounts.id', 'positions.account_id')
      .innerJoin('products', 'products.id', 'positions.product_id')
      .select(['positions.shares_micros', 'positions.cost_cents', 'accounts.cash_cents'])
      .where('accounts.number', '=', 'BIG-2999')
      .where('products.ticker', '=', tickers[tickers.length - 1] as string)
      .executeTakeFirstOrThrow();
    const i = 3_000 * tickers.length - 1;
    expect(sample).toEqual({ shares_micros: ((i % 40) + 1) * 1_000_000, cost_cents: (i % 900) * 100 + 25, cash_cents: 9_950 });
  });

  it('loads files of several MiB, past the unfinished-record guard and many stream chunks, every row arriving', async () => {
    // The reader is faster than the database: reading must wait for each batch's writes, and no
    // text read ahead may be taken for an unfinished record.
    const tickers = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firmId).orderBy('id').limit(4).execute()).map((p) => p.ticker);
    const models = (await db.kysely.selectFrom('models').select('name').where('firm_id', '=', firmId).orderBy('id').execute()).map((m) => m.name);
    expect(models.length).toBeGreaterThan(0);
    const accounts = 20_000;
    const padding = 'p'.repeat(150);
    const accountLines = Array.from({ length: accounts }, (_, i) => `MIB-${i},Account ${i} ${padding},Pershing,Solo Client,Solo IRA,"${models[i % models.length]}",${i % 100}.50`);
    const positionLines = Array.from({ length: accounts * tickers.length }, (_, i) => `MIB-${Math.floor(i / tickers.length)},${tickers[i % tickers.length]},${(i % 40) + 1},${(i % 900) + 0.25},2022-01-01`);
    const accountsText = `number,name,custodian,client,registration,model,cash\n${accountLines.join('\n')}\n`;
    const positionsText = `account,ticker,shares,cost,acquired_date\n${positionLines.join('\n')}\n`;
    expect(accountsText.length).toBeGreaterThan(3 * 1024 * 1024);
    expect(positionsText.length).toBeGreaterThan(2 * 1024 * 1024);
    const before = { accounts: await count(db, 'accounts', firmId), positions: await count(db, 'positions', firmId) };
    const report = await importBook(db, firmId, [file('accounts.csv', accountsText), file('positions.csv', positionsText)]);
    expect(report.errors).toEqual([]);
    expect(report.read.accounts).toBe(accounts);
    expect(report.imported.positions).toBe(accounts * tickers.length);
    expect({ accounts: await count(db, 'accounts', firmId), positions: await count(db, 'positions', firmId) }).toEqual({
      accounts: before.accounts + accounts,
      positions: before.positions + accounts * tickers.length,
    });
    const last = await db.kysely
      .selectFrom('accounts')
      .innerJoin('models', 'models.id', 'accounts.model_id')
      .select(['models.name', 'accounts.cash_cents'])
      .where('accounts.number', '=', `MIB-${accounts - 1}`)
      .executeTakeFirstOrThrow();
    expect(last).toEqual({ name: models[(accounts - 1) % models.length], cash_cents: 9_950 });
  }, 120_000);

  it('refuses a quote left open in a file of several MiB at its line, and writes nothing', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `OPEN-${i},Account ${i} ${'q'.repeat(60)},Pershing,Solo Client,Solo IRA,${i % 100}.50`);
    lines[30_000] = `OPEN-30000,"Account left open,Pershing,Solo Client,Solo IRA,1`;
    const path = file('accounts.csv', `number,name,custodian,client,registration,cash\n${lines.join('\n')}\n`);
    const before = await count(db, 'accounts', firmId);
    const report = await importBook(db, firmId, [path]);
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportIssue)).toEqual([`${path}:30002: (file): not valid CSV: a record runs past 1 MiB of text; is a quote left open?`]);
    expect(await count(db, 'accounts', firmId)).toBe(before);
  }, 120_000);

  it('writes nothing when the last row of a large file is bad, though earlier rows were already written in the transaction', async () => {
    const tickers = (await db.kysely.selectFrom('products').select('ticker').where('firm_id', '=', firmId).orderBy('id').limit(8).execute()).map((p) => p.ticker);
    const before = { accounts: await count(db, 'accounts', firmId), positions: await count(db, 'positions', firmId), lots: await count(db, 'tax_lots', firmId) };
    const files = largeBook('ROLLBACK', 3_000, tickers, `ROLLBACK-2999,${tickers[0]},-5,1,2022-01-01`);
    const report = await importBook(db, firmId, files);
    expect(report.ok).toBe(false);
    expect(report.errors.map(formatImportIssue)).toEqual([
      `${files[1]}:${3_000 * tickers.length + 1}: shares: must be greater than 0`,
      `${files[1]}:${3_000 * tickers.length + 1}: ticker: account ROLLBACK-2999 already holds ${tickers[0]}`,
    ]);
    expect(report.imported).toEqual({ broker_dealers: 0, representatives: 0, products: 0, clients: 0, registrations: 0, accounts: 0, positions: 0, tax_lots: 0, substitutions: 0, prices: 0, account_values: 0 });
    expect({ accounts: await count(db, 'accounts', firmId), positions: await count(db, 'positions', firmId), lots: await count(db, 'tax_lots', firmId) }).toEqual(before);
  });

  it('throws the error of a write the database refuses, though later rows were read meanwhile, and leaves nothing written', async () => {
    // A rule of the database's own, unknown to validation: the first write fails while the rows
    // after it are read and validated (PostgreSQL), and its error is the one thrown.
    const refusal =
      dialect.name === 'postgres'
        ? [
            sql`create function refuse_client() returns trigger language plpgsql as $$
              begin if new.name = 'Refused by the database' then raise exception 'refused by the database'; end if; return new; end $$`,
            sql`create trigger refuse_client before insert on clients for each row execute function refuse_client()`,
          ]
        : [sql`create trigger refuse_client before insert on clients when new.name = 'Refused by the database' begin select raise(abort, 'refused by the database'); end`];
    const rep = await db.kysely.selectFrom('representatives').select('number').where('firm_id', '=', firmId).orderBy('id').executeTakeFirstOrThrow();
    for (const statement of refusal) await statement.execute(db.kysely);
    try {
      const lines = Array.from({ length: 25_000 }, (_, i) => `${i === 0 ? 'Refused by the database' : `Refusable ${i}`},${rep.number}`);
      const before = await count(db, 'clients', firmId);
      await expect(importBook(db, firmId, [file('clients.csv', `name,representative\n${lines.join('\n')}\n`)])).rejects.toThrow('refused by the database');
      expect(await count(db, 'clients', firmId)).toBe(before);
    } finally {
      await sql`drop trigger refuse_client${sql.raw(dialect.name === 'postgres' ? ' on clients' : '')}`.execute(db.kysely);
      if (dialect.name === 'postgres') await sql`drop function refuse_client()`.execute(db.kysely);
    }
    const after = await importBook(db, firmId, [file('clients.csv', `name,representative\nAfter the refusal,${rep.number}\n`)]);
    expect(after.errors).toEqual([]);
  });
});
