import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { caller, createSmallBook, type Caller, type SmallBook } from './test-support.js';

const url = '/api/v1/Trading/TradeBlocks';

describeEachDatabase('trade block custom import (rule 8)', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SmallBook;
  const upload = async (template: string, csv: string, user: Caller = 'advisor') =>
    t.app.inject({ method: 'POST', url: `${url}/Import/${template}`, payload: csv, headers: { authorization: await t.session(user), 'content-type': 'text/csv' } });

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
  });

  it('adds, updates and deletes from CSV templates with per-row results', async () => {
    const globalId = randomUUID();
    const added = await upload(
      'Add',
      [
        'Entity Type,EntityId,Reason,Description,StartDate,EndDate,GlobalId',
        `Account,${book.account},Manual,Imported hold,2026-01-01,,${globalId}`,
        `Registration,${book.sleeved},oci,Imported sleeve hold,2026-01-01,2026-12-31,`,
        `Account,abc,Manual,Bad id,2026-01-01,,`,
        `Account,${book.account},No such reason,Bad reason,2026-01-01,,`,
        `Account,${book.account},Manual,Bad dates,2026-05-01,2026-04-01,`,
      ].join('\n'),
    );
    expect(added.statusCode).toBe(207);
    const body = added.json();
    expect(body.successfulTradeBlocks.map((d: { description: string }) => d.description)).toEqual(['Imported hold', 'Imported sleeve hold']);
    expect(body.successfulTradeBlocks[1].tradeBlockReason.name).toBe('OCI');
    expect(body.failedTradeBlocks.map((f: { row: number; errorMessage: string }) => f.errorMessage)).toEqual([
      'row 4: entityId: must be an integer greater than 0',
      'row 5: Reason: no trade block reason is named No such reason',
      'row 6: endDate: must be after startDate (2026-05-01)',
    ]);

    const updated = await upload('Update', ['GlobalId,Description,EndDate', `${globalId},Imported and renamed,2026-09-30`, `${randomUUID()},ghost,`].join('\n'));
    expect(updated.statusCode).toBe(207);
    expect(updated.json().successfulTradeBlocks[0]).toMatchObject({ globalId, description: 'Imported and renamed', endDate: '2026-09-30', startDate: '2026-01-01' });
    expect(updated.json().failedTradeBlocks[0].errorMessage).toMatch(/^row 3: globalId: no trade block detail has globalId/);

    const id = updated.json().successfulTradeBlocks[0].id;
    const deleted = await upload('Delete', ['Id', String(id), '999999', 'x'].join('\r\n'));
    expect(deleted.statusCode).toBe(207);
    expect(deleted.json().successfulTradeBlocks).toMatchObject([{ id, isDeleted: true }]);
    expect(deleted.json().failedTradeBlocks.map((f: { errorMessage: string }) => f.errorMessage)).toEqual([
      'row 3: id: no trade block detail has id 999999',
      'row 4: Id: "x" is not a trade block detail id',
    ]);
    const all = await upload('Delete', ['Id', '999998'].join('\n'));
    expect(all.statusCode).toBe(400);
  });

  it('needs the matching tradeBlock privilege per template', async () => {
    // The API Integration role may edit portfolios but holds none of the tradeBlock privileges.
    for (const template of ['Add', 'Update', 'Delete']) {
      const response = await upload(template, 'Id\n1', 'api');
      expect(response.statusCode, template).toBe(403);
      expect(response.json().detail).toBe(`this call needs the tradeBlock.${template.toLowerCase()} privilege`);
    }
    const template = await call('GET', `${url}/Import/Add/Template`);
    expect(template.statusCode).toBe(200);
    expect(template.body.split('\n')[0]).toBe('EntityType,EntityId,ReasonId,Reason,Description,StartDate,EndDate,GlobalId');
  });

  it('refuses a file without the template\'s columns or rows, naming the problem', async () => {
    const missing = await upload('Add', 'EntityId,Description\n1,x');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'file', message: 'the Trade Block Add template needs the column(s) EntityType, StartDate' }]);
    expect((await upload('Update', 'GlobalId')).json().errors[0].message).toBe('needs a header row and at least one data row');
    expect((await upload('Update', 'GlobalId,Description\n"unterminated')).json().errors[0].message).toMatch(/^is not valid CSV/);
  });
});
