import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { seedDemoFirm } from '../seed/demo.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { formatImportIssue, importBook } from './importer.js';

const dir = mkdtempSync(join(tmpdir(), 'wealth-import-substitutions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(mkdtempSync(join(dir, 'case-')), name);
  writeFileSync(path, text);
  return path;
}

/** The demo firm substitutes BND → AGG and VWO → IEMG firm-wide, and VTI → VOO in its first account. */
describeEachDatabase('wealth import: the substitutions file', (database) => {
  let target: { db: Db; drop(): Promise<void> };
  let db: Db;
  let firmId: number;
  let accountNumber: string;
  const substitutions = async () =>
    (
      await db.kysely
        .selectFrom('product_substitutions as s')
        .innerJoin('products as p', 'p.id', 's.product_id')
        .innerJoin('products as q', 'q.id', 's.substitute_product_id')
        .leftJoin('accounts as a', 'a.id', 's.account_id')
        .select(['p.ticker', 'q.ticker as substitute', 'a.number'])
        .where('s.firm_id', '=', firmId)
        .orderBy('s.id')
        .execute()
    ).map((r) => `${r.ticker} → ${r.substitute}${r.number ? ` in ${r.number}` : ''}`);

  beforeAll(async () => {
    target = await database.open();
    db = target.db;
    ({ firm: { id: firmId } } = await seedDemoFirm(db, { households: 2, seed: 7, asOf: '2025-06-30', firmCode: `SUB${database.name}` }));
    accountNumber = (await db.kysely.selectFrom('accounts').select('number').where('firm_id', '=', firmId).orderBy('id').offset(1).limit(1).executeTakeFirstOrThrow()).number;
  });
  afterAll(() => target?.drop());

  it('adds firm-wide and account substitutions, naming products of the firm or of the same import', async () => {
    const before = await substitutions();
    const report = await importBook(db, firmId, [
      file('substitutions.csv', `ticker,substitute,account\nQQQ,VIG,\nSCHD,NEWFUND,\nQQQ,FXAIX,${accountNumber}\nbnd,lqd,${accountNumber}\n`),
      file('products.csv', 'ticker,name,type,price,price_date\nNEWFUND,A new fund,ETF,20,2025-06-30\n'),
    ]);
    expect(report.errors).toEqual([]);
    expect(report.imported).toMatchObject({ products: 1, substitutions: 4 });
    expect(await substitutions()).toEqual([...before, 'QQQ → VIG', 'SCHD → NEWFUND', `QQQ → FXAIX in ${accountNumber}`, `BND → LQD in ${accountNumber}`]);
  });

  it('refuses a product substituting itself, a second substitute in a scope and a chain, each on its line, and writes nothing', async () => {
    const before = await substitutions();
    const path = file(
      'substitutions.csv',
      [
        'ticker,substitute,account',
        'VTI,vti,', // 2: itself
        'BND,TIP,', // 3: the firm substitutes BND already
        'LQD,BND,', // 4: BND → AGG exists: a chain
        'AGG,TIP,', // 5: AGG is BND's substitute: a chain
        'MUB,SHY,', // 6: good
        'MUB,TIP,', // 7: line 6 substitutes MUB already
        'NOPE,SHY,', // 8: no such product
        'SHY,TIP,NO-SUCH-ACCOUNT', // 9: no such account
        `SHY,TIP,${accountNumber}`, // 10: the account sees line 6's MUB → SHY: a chain
        ',TIP,', // 11: ticker missing
      ].join('\n'),
    );
    const report = await importBook(db, firmId, [path]);
    expect(report.ok).toBe(false);
    const lines = report.errors.map((e) => formatImportIssue(e).replaceAll(path, 'substitutions.csv'));
    expect(lines).toEqual([
      'substitutions.csv:2: substitute: VTI cannot substitute itself',
      expect.stringMatching(/^substitutions\.csv:3: ticker: BND already has a substitute in this scope: BND → AGG \(substitution \d+, firm-wide\); remove it first$/),
      expect.stringMatching(/^substitutions\.csv:4: substitute: BND has a substitute of its own in BND → AGG \(substitution \d+, firm-wide\); substitutions are not chained$/),
      expect.stringMatching(/^substitutions\.csv:5: ticker: AGG is itself a substitute in BND → AGG/),
      'substitutions.csv:7: ticker: MUB already has a substitute in this scope: MUB → SHY (firm-wide); remove it first (substitutions.csv:6)',
      'substitutions.csv:8: ticker: no product "NOPE" in this firm or earlier in this import',
      'substitutions.csv:9: account: no account number "NO-SUCH-ACCOUNT" in this firm or earlier in this import',
      `substitutions.csv:10: ticker: SHY is itself a substitute in MUB → SHY (firm-wide); substitutions are not chained (substitutions.csv:6)`,
      'substitutions.csv:11: ticker: is required',
    ]);
    expect(report.imported.substitutions).toBe(0);
    expect(await substitutions()).toEqual(before);
  });

  it('a file that repeats what the firm has is refused: importing twice adds nothing', async () => {
    const path = file('substitutions.json', JSON.stringify([{ ticker: 'IJH', substitute: 'IJR', account: null }], null, 2));
    expect((await importBook(db, firmId, [path])).errors).toEqual([]);
    const again = await importBook(db, firmId, [path]);
    expect(again.errors.map((e) => [e.line, e.field])).toEqual([[2, 'ticker']]);
    expect((await substitutions()).filter((s) => s === 'IJH → IJR')).toHaveLength(1);
  });
});
