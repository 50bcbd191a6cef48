import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { block, caller, createSmallBook, reasonId, type SmallBook } from './test-support.js';

const url = '/api/v1/Trading/TradeBlocks';

describeEachDatabase('trade block details (section 4.2)', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SmallBook;
  let manual: number;
  const item = (entityId: number, overrides: Record<string, unknown> = {}) => block(entityId, { tradeBlockReasonId: manual, ...overrides });
  const listOf = async (entityEnum: number, entityId: number) => (await call('GET', `${url}?entityEnum=${entityEnum}&entityId=${entityId}`)).json();

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    manual = await reasonId(call, 'Manual');
  });

  it('creates details and reads one back with the DTO field names', async () => {
    const globalId = randomUUID();
    const created = await call('POST', url, [item(book.account, { description: 'Tax review', endDate: '2099-12-31', globalId })]);
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body.failedTradeBlocks).toEqual([]);
    const [detail] = body.successfulTradeBlocks;
    expect(Object.keys(detail).sort()).toEqual(
      ['createdBy', 'createdDate', 'description', 'editedBy', 'editedDate', 'endDate', 'entityEnum', 'entityId', 'entityName', 'errorMessage', 'globalId', 'id', 'isDeleted', 'isDisabled', 'startDate', 'tradeBlockReason', 'tradeBlockReasonId'].sort(),
    );
    expect(detail).toMatchObject({
      entityEnum: 7,
      entityId: book.account,
      entityName: 'Plain IRA account',
      tradeBlockReasonId: manual,
      description: 'Tax review',
      startDate: '2026-01-01',
      endDate: '2099-12-31',
      isDeleted: false,
      globalId,
      errorMessage: null,
      createdBy: 'advisor@alpha',
      tradeBlockReason: { id: manual, name: 'Manual', isSystemMaintained: true },
    });
    const read = await call('GET', `${url}/${detail.id}`, undefined, 'reader');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(detail);
    expect((await call('GET', `${url}/999999`)).statusCode).toBe(404);
  });

  it('fails each invalid create item with an errorMessage naming the field (rule 2), 400 when all fail', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [item(book.account, { id: 5 }), 'id: must be 0 on create'],
      [item(book.account, { entityEnum: 5 }), 'entityEnum: must be 6 (Registration) or 7 (Account)'],
      [item(0), 'entityId: must be an integer greater than 0'],
      [item(987654), 'entityId: account 987654 does not exist'],
      [item(987654, { entityEnum: 6 }), 'entityId: registration 987654 does not exist'],
      [item(book.account, { startDate: undefined }), 'startDate: is required'],
      [item(book.account, { startDate: '0001-01-01' }), 'startDate: must be set (it is the minimum date)'],
      [item(book.account, { startDate: '2026-02-30' }), 'startDate: "2026-02-30" is not a date'],
      [item(book.account, { endDate: '2026-01-01' }), 'endDate: must be after startDate (2026-01-01)'],
      [item(book.account, { description: '' }), 'description: is required'],
      [item(book.account, { description: undefined }), 'description: is required'],
      [item(book.account, { tradeBlockReasonId: 424242 }), 'tradeBlockReasonId: reason 424242 does not exist'],
      [item(book.account, { tradeBlockReasonId: undefined }), 'tradeBlockReasonId: is required'],
      [item(book.account, { globalId: 'not-a-guid' }), 'globalId: "not-a-guid" is not a GUID'],
    ];
    const before = (await listOf(7, book.account)).length;
    const response = await call('POST', url, cases.map(([payload]) => payload));
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.successfulTradeBlocks).toEqual([]);
    expect(body.failedTradeBlocks).toHaveLength(cases.length);
    cases.forEach(([payload, message], index) => {
      expect(body.failedTradeBlocks[index].errorMessage, JSON.stringify(payload)).toContain(message);
    });
    expect(await listOf(7, book.account)).toHaveLength(before);
  });

  it('answers a mixed batch with 207: exactly the bad items failed, the good ones stored', async () => {
    const good = [item(book.account, { description: 'good one' }), item(book.sleeveAccounts[0], { description: 'good two' })];
    const bad = [item(book.account, { endDate: '2025-01-01', description: 'bad one' }), item(424242, { description: 'bad two' })];
    const response = await call('POST', url, [good[0], bad[0], good[1], bad[1]]);
    expect(response.statusCode).toBe(207);
    const body = response.json();
    expect(body.successfulTradeBlocks.map((d: { description: string }) => d.description)).toEqual(['good one', 'good two']);
    expect(body.failedTradeBlocks.map((d: { description: string }) => d.description)).toEqual(['bad one', 'bad two']);
    expect(body.failedTradeBlocks[0].errorMessage).toMatch(/^endDate: /);
    const stored = (await listOf(7, book.account)).map((d: { description: string }) => d.description);
    expect(stored).toContain('good one');
    expect(stored).not.toContain('bad one');
  });

  it('refuses a globalId already in use, also twice within one batch', async () => {
    const globalId = randomUUID();
    const response = await call('POST', url, [item(book.account, { globalId }), item(book.account, { globalId: globalId.toUpperCase() })]);
    expect(response.statusCode).toBe(207);
    expect(response.json().failedTradeBlocks[0].errorMessage).toBe(`globalId: ${globalId} is already used by another trade block detail`);
    const again = await call('POST', url, [item(book.account, { globalId })]);
    expect(again.statusCode).toBe(400);
  });

  it('silently drops registration blocks on a registration that is not sleeved (rule 3)', async () => {
    const response = await call('POST', url, [item(book.plain, { entityEnum: 6 }), item(book.sleeved, { entityEnum: 6, description: 'sleeved hold' })]);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.successfulTradeBlocks).toMatchObject([{ entityEnum: 6, entityId: book.sleeved, entityName: 'Sleeved Joint' }]);
    expect(body.failedTradeBlocks).toEqual([]);
    const alone = await call('POST', url, [item(book.plain, { entityEnum: 6 })]);
    expect(alone.statusCode).toBe(200);
    expect(alone.json()).toEqual({ successfulTradeBlocks: [], failedTradeBlocks: [] });
    expect((await listOf(6, book.plain)).filter((d: { entityEnum: number }) => d.entityEnum === 6)).toEqual([]);
  });

  it('returns related entities\' blocks with an entity query, and the related entities themselves', async () => {
    const [, sleeveB] = book.sleeveAccounts;
    await call('POST', url, [item(sleeveB, { description: 'on sleeve B' }), item(book.sleeved, { entityEnum: 6, description: 'on the registration' })]);
    const ofRegistration = (await listOf(6, book.sleeved)).map((d: { description: string }) => d.description);
    expect(ofRegistration).toEqual(expect.arrayContaining(['on sleeve B', 'on the registration']));
    const ofAccount = (await listOf(7, sleeveB)).map((d: { description: string }) => d.description);
    expect(ofAccount).toEqual(expect.arrayContaining(['on sleeve B', 'on the registration']));
    expect(ofAccount).not.toContain('good two');

    const related = await call('GET', `${url}/Related?entityEnum=6&entityId=${book.sleeved}`);
    expect(related.statusCode).toBe(200);
    expect(related.json()).toEqual([
      { id: book.sleeved, entityType: 6, name: 'Sleeved Joint' },
      { id: book.sleeveAccounts[0], entityType: 7, name: 'Sleeve A' },
      { id: sleeveB, entityType: 7, name: 'Sleeve B' },
    ]);
    expect((await call('GET', `${url}/Related?entityEnum=7&entityId=${sleeveB}`)).json()).toEqual([
      { id: sleeveB, entityType: 7, name: 'Sleeve B' },
      { id: book.sleeved, entityType: 6, name: 'Sleeved Joint' },
    ]);
  });

  it('is 404 for an unsupported entityEnum or a missing entity, 400 for missing parameters', async () => {
    for (const path of [`${url}?entityEnum=5&entityId=1`, `${url}/Related?entityEnum=1&entityId=1`, `${url}?entityEnum=7&entityId=999999`]) {
      const response = await call('GET', path);
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    expect((await call('GET', `${url}?entityEnum=5&entityId=1`)).json().detail).toContain('entityEnum 5 is not a supported entity type');
    const missing = await call('GET', `${url}?entityEnum=7`);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'querystring.entityId', message: 'is required' }]);
    expect((await call('GET', `${url}/Related?entityId=3`)).json().errors).toEqual([{ field: 'querystring.entityEnum', message: 'is required' }]);
  });

  it('pages an entity\'s blocks: 100 by default, $top/$skip in id order, the total always, the next page in Link', async () => {
    expect((await call('POST', url, [0, 1, 2].map((n) => item(book.sleeveAccounts[1], { description: `paged ${n}` })))).statusCode).toBe(200);
    const path = `${url}?entityEnum=6&entityId=${book.sleeved}`;
    const whole = await call('GET', `${path}&$top=1000`);
    const all = whole.json().map((d: { id: number }) => d.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(whole.headers['x-total-count']).toBe(String(all.length));
    expect(whole.headers.link).toBeUndefined();
    expect((await call('GET', path)).json().map((d: { id: number }) => d.id)).toEqual(all.slice(0, 100));
    const page = await call('GET', `${path}&$top=2&$skip=1`);
    expect(page.json().map((d: { id: number }) => d.id)).toEqual(all.slice(1, 3));
    expect(page.headers['x-total-count']).toBe(String(all.length));
    if (all.length > 3) expect(page.headers.link).toBe(`<${path}&$top=2&$skip=3>; rel="next"`);
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=1001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await call('GET', `${path}&${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('updates description and dates matched by globalId; other fields are immutable (rule 4)', async () => {
    const [detail] = (await call('POST', url, [item(book.account, { description: 'before' })])).json().successfulTradeBlocks;
    const updated = await call('PUT', url, [{ ...detail, description: 'after', startDate: '2026-02-01', endDate: '2026-03-01', id: 0 }]);
    expect(updated.statusCode).toBe(200);
    expect(updated.json().successfulTradeBlocks[0]).toMatchObject({ id: detail.id, description: 'after', startDate: '2026-02-01', endDate: '2026-03-01', createdBy: 'advisor@alpha' });

    const cases: [Record<string, unknown>, string][] = [
      [{ ...detail, entityEnum: 6 }, 'entityEnum: cannot be changed on update (it is 7)'],
      [{ ...detail, entityId: book.sleeveAccounts[0] }, `entityId: cannot be changed on update (it is ${book.account})`],
      [{ ...detail, tradeBlockReasonId: manual + 1 }, `tradeBlockReasonId: cannot be changed on update (it is ${manual})`],
      [{ ...detail, globalId: randomUUID() }, 'globalId: no trade block detail has globalId'],
      [{ ...detail, globalId: undefined }, 'globalId: is required'],
      [{ ...detail, startDate: '2026-02-01', endDate: '2026-01-15' }, 'endDate: must be after startDate (2026-02-01)'],
      [{ ...detail, description: '  ' }, 'description: is required'],
      [{ ...detail, id: detail.id + 1000 }, `id: ${detail.id + 1000} is not the id of globalId`],
    ];
    for (const [payload, message] of cases) {
      const response = await call('PUT', url, [payload]);
      expect(response.statusCode, message).toBe(400);
      expect(response.json().failedTradeBlocks[0].errorMessage).toContain(message);
    }
    const mixed = await call('PUT', url, [{ globalId: detail.globalId, description: 'mixed ok' }, { globalId: detail.globalId, description: 'twice' }, cases[0]![0]]);
    expect(mixed.statusCode).toBe(207);
    expect(mixed.json().successfulTradeBlocks).toHaveLength(1);
    expect(mixed.json().failedTradeBlocks.map((f: { errorMessage: string }) => f.errorMessage.split(':')[0])).toEqual(['globalId', 'globalId']);
    expect((await call('GET', `${url}/${detail.id}`)).json()).toMatchObject({ description: 'mixed ok', entityEnum: 7, startDate: '2026-02-01' });
  });

  it('soft-deletes by id, ids and global ids, and records who did what in the history', async () => {
    const details = (await call('POST', url, [1, 2, 3, 4].map((n) => item(book.account, { description: `doomed ${n}` })))).json().successfulTradeBlocks;
    await call('PUT', url, [{ globalId: details[0].globalId, description: 'renamed' }]);
    const one = await call('DELETE', `${url}/${details[0].id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ id: details[0].id, isDeleted: true });
    expect((await call('DELETE', `${url}/999999`)).statusCode).toBe(404);
    const byIds = await call('POST', `${url}/DeleteRequests`, [details[1].id, 999999]);
    expect(byIds.statusCode).toBe(200);
    expect(byIds.json().successfulTradeBlocks.map((d: { id: number }) => d.id)).toEqual([details[1].id]);
    expect(byIds.json().failedTradeBlocks).toEqual([{ id: 999999, errorMessage: 'id: no trade block detail has id 999999' }]);
    const byGlobal = await call('POST', `${url}/DeleteByGlobalIds`, [details[2].globalId, details[3].globalId]);
    expect(byGlobal.json().successfulTradeBlocks.every((d: { isDeleted: boolean }) => d.isDeleted)).toBe(true);
    expect((await call('POST', `${url}/DeleteByGlobalIds`, ['nope'])).statusCode).toBe(400);

    // Soft: still readable by id, gone from lists, and not updatable.
    expect((await call('GET', `${url}/${details[2].id}`)).json().isDeleted).toBe(true);
    const live = (await listOf(7, book.account)).map((d: { id: number }) => d.id);
    expect(live).not.toContain(details[2].id);
    expect((await call('PUT', url, [{ globalId: details[2].globalId, description: 'zombie' }])).json().failedTradeBlocks[0].errorMessage).toContain('is deleted');

    const history = await call('GET', `${url}/${details[0].id}/History`, undefined, 'reader');
    expect(history.statusCode).toBe(200);
    expect(history.json().map((h: { action: string; version: number; changedBy: string }) => [h.action, h.version, h.changedBy])).toEqual([
      ['create', 1, 'advisor@alpha'],
      ['update', 2, 'advisor@alpha'],
      ['delete', 3, 'advisor@alpha'],
    ]);
    expect(history.json()[1].tradeBlock).toMatchObject({ description: 'renamed', isDeleted: false });
    expect((await call('GET', `${url}/999999/History`)).statusCode).toBe(404);
  });

  it('queues sync events for accounts with active details; 400 without ids', async () => {
    const empty = await call('POST', `${url}/QueueForAccountIds`, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'accountIds', message: 'at least one account id is required' }]);
    const queued = await call('POST', `${url}/QueueForAccountIds`, [book.sleeveAccounts[1], 999999]);
    expect(queued.statusCode).toBe(200);
    expect(queued.json()).toMatchObject({ accountIds: [book.sleeveAccounts[1]], notFoundAccountIds: [999999] });
    expect(queued.json().queuedEvents).toBeGreaterThanOrEqual(2);
  });

  it('checks privileges: Read for GET, Edit for writes', async () => {
    expect((await call('GET', `${url}/Reasons`, undefined, 'nobody')).statusCode).toBe(403);
    for (const [method, path, payload] of [
      ['POST', url, [item(book.account)]],
      ['PUT', url, [{ globalId: randomUUID(), description: 'x' }]],
      ['DELETE', `${url}/1`, undefined],
      ['POST', `${url}/DeleteRequests`, [1]],
      ['POST', `${url}/DeleteByGlobalIds`, [randomUUID()]],
      ['POST', `${url}/QueueForAccountIds`, [1]],
    ] as const) {
      const response = await call(method, path, payload, 'reader');
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden' });
    }
    expect((await t.app.inject({ method: 'GET', url: `${url}/1` })).statusCode).toBe(401);
  });

  it('keeps firms apart', async () => {
    const [detail] = (await call('POST', url, [item(book.account)])).json().successfulTradeBlocks;
    expect((await call('GET', `${url}/${detail.id}`, undefined, 'advisor', 'otherFirm')).statusCode).toBe(404);
    expect((await call('DELETE', `${url}/${detail.id}`, undefined, 'advisor', 'otherFirm')).statusCode).toBe(404);
    const otherManual = (await call('GET', `${url}/Reasons`, undefined, 'advisor', 'otherFirm')).json()[0].id;
    const foreign = await call('POST', url, [block(book.account, { tradeBlockReasonId: otherManual })], 'advisor', 'otherFirm');
    expect(foreign.json().failedTradeBlocks[0].errorMessage).toBe(`entityId: account ${book.account} does not exist`);
  });
});
