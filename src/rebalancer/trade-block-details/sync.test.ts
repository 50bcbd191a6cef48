import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';
import { block, caller, createSmallBook, eventually, reasonId, type SmallBook } from '../../trade-blocks/test-support.js';

const url = '/api/v1/Trading/TradeBlocks';
const v2 = '/rebalancer/api/v2/TradeBlockDetails';
type Copy = { id: number; globalId: string; relatedType: number; relatedTypeId: number; description: string; isDeleted: boolean; tradeBlockReasonName: string };

describeEachDatabase('trade block sync to the rebalancer and its v2 interface', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SmallBook;
  let manual: number;
  let rebalancerToken: string;

  const rebalancer = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({ method, url: path, payload: payload as object, headers: { authorization: rebalancerToken } });
  const copyOf = async (globalId: string): Promise<Copy | undefined> =>
    (await rebalancer('GET', `${v2}?includeDeleted=true`)).json<Copy[]>().find((c) => c.globalId === globalId);
  const pending = async () =>
    Number((await t.db.kysely.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).where('delivered_at', 'is', null).executeTakeFirstOrThrow()).n);
  const drained = () => eventually(async () => expect(await pending()).toBe(0));

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    manual = await reasonId(call, 'Manual');
    const minted = await t.app.inject({ method: 'GET', url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('service') } });
    expect(minted.statusCode).toBe(200);
    rebalancerToken = `Session ${minted.json().access_token}`;
  });

  it('keeps the rebalancer copy in step with creates, updates and deletes', async () => {
    const created = await call('POST', url, [
      block(book.account, { tradeBlockReasonId: manual, description: 'hold' }),
      block(book.sleeved, { entityEnum: 6, tradeBlockReasonId: manual, description: 'sleeved hold' }),
    ]);
    const [onAccount, onRegistration] = created.json().successfulTradeBlocks;
    await eventually(async () => {
      expect(await copyOf(onAccount.globalId)).toMatchObject({ relatedType: 32, relatedTypeId: book.account, description: 'hold', isDeleted: false, tradeBlockReasonName: 'Manual' });
      expect(await copyOf(onRegistration.globalId)).toMatchObject({ relatedType: 16, relatedTypeId: book.sleeved, description: 'sleeved hold' });
    });
    await call('PUT', url, [{ globalId: onAccount.globalId, description: 'hold longer', endDate: '2099-01-01' }]);
    await eventually(async () => expect(await copyOf(onAccount.globalId)).toMatchObject({ description: 'hold longer', endDate: '2099-01-01' }));
    await call('DELETE', `${url}/${onRegistration.id}`);
    await eventually(async () => expect((await copyOf(onRegistration.globalId))?.isDeleted).toBe(true));
    const live = (await rebalancer('GET', `${v2}?relatedType=16&relatedTypeId=${book.sleeved}`)).json<Copy[]>();
    expect(live.some((c) => c.globalId === onRegistration.globalId)).toBe(false);
  });

  it('leaves the copy unchanged with createSyncEvent=false or the TOM Only reason', async () => {
    const quiet = (await call('POST', `${url}?createSyncEvent=false`, [block(book.account, { tradeBlockReasonId: manual })])).json().successfulTradeBlocks[0];
    const tomOnly = (await call('POST', url, [block(book.account, { tradeBlockReasonId: await reasonId(call, 'TOM Only') })])).json().successfulTradeBlocks[0];
    const synced = (await call('POST', url, [block(book.account, { tradeBlockReasonId: manual, description: 'synced' })])).json().successfulTradeBlocks[0];
    await eventually(async () => expect(await copyOf(synced.globalId)).toBeDefined());
    await call('PUT', `${url}?createSyncEvent=false`, [{ globalId: synced.globalId, description: 'quietly changed' }]);
    await call('POST', `${url}/DeleteRequests?createSyncEvent=false`, [synced.id]);
    await call('PUT', url, [{ globalId: tomOnly.globalId, description: 'tom changed' }]);
    await call('DELETE', `${url}/${tomOnly.id}`);
    await drained();
    expect(await copyOf(quiet.globalId)).toBeUndefined();
    expect(await copyOf(tomOnly.globalId)).toBeUndefined();
    expect(await copyOf(synced.globalId)).toMatchObject({ description: 'synced', isDeleted: false });
  });

  it('re-publishes active details with QueueForAccountIds; the copy applies each state once', async () => {
    const quiet = (await call('POST', `${url}?createSyncEvent=false`, [block(book.sleeveAccounts[0], { tradeBlockReasonId: manual, description: 'placed before import' })])).json().successfulTradeBlocks[0];
    expect(await copyOf(quiet.globalId)).toBeUndefined();
    const queued = await call('POST', `${url}/QueueForAccountIds`, [book.sleeveAccounts[0]]);
    expect(queued.json().queuedEvents).toBeGreaterThanOrEqual(1);
    await eventually(async () => expect(await copyOf(quiet.globalId)).toMatchObject({ description: 'placed before import' }));
    await call('POST', `${url}/QueueForAccountIds`, [book.sleeveAccounts[0]]);
    await drained();
    const log = await t.db.kysely.selectFrom('rebalancer_sync_log').select(['outcome']).where('global_id', '=', quiet.globalId).orderBy('id').execute();
    expect(log.map((l) => l.outcome)).toEqual(['applied', 'stale']);
  });

  it('serves the v2 interface: AddList, read, update keyed by id, delete', async () => {
    const added = await rebalancer('POST', `${v2}/AddList`, [
      { relatedType: 32, relatedTypeId: book.account, tradeBlockReasonId: manual, description: 'from the rebalancer', startDate: '2026-03-01' },
      { relatedType: 16, relatedTypeId: book.sleeved, tradeBlockReasonId: manual, description: 'portfolio block', startDate: '2026-03-01', endDate: '2026-04-01' },
    ]);
    expect(added.statusCode).toBe(200);
    const [first, second] = added.json();
    expect(first).toMatchObject({ relatedType: 32, relatedTypeId: book.account, tradeBlockReasonName: 'Manual', isDeleted: false, createdBy: 'service@alpha' });
    expect(second).toMatchObject({ relatedType: 16, endDate: '2026-04-01' });
    expect((await rebalancer('GET', `${v2}/${first.id}`)).json()).toEqual(first);
    const single = await rebalancer('POST', v2, { relatedType: 32, relatedTypeId: book.account, tradeBlockReasonId: manual, description: 'one', startDate: '2026-03-01' });
    expect(single.statusCode).toBe(200);

    const updated = await rebalancer('PUT', v2, { id: first.id, description: 'changed', endDate: '2026-05-01' });
    expect(updated.json()).toMatchObject({ id: first.id, description: 'changed', endDate: '2026-05-01', globalId: first.globalId });
    // Spec 9.3: the update key is id, in the body or in the path.
    const byPath = await rebalancer('PUT', `${v2}/${first.id}`, { description: 'changed by path' });
    expect(byPath.statusCode).toBe(200);
    expect(byPath.json()).toMatchObject({ id: first.id, description: 'changed by path', endDate: '2026-05-01' });
    const disagreeing = await rebalancer('PUT', `${v2}/${first.id}`, { id: second.id, description: 'x' });
    expect(disagreeing.statusCode).toBe(400);
    expect(disagreeing.json().errors).toEqual([{ field: 'id', message: `must be ${first.id}, the id in the path, or be left out` }]);
    expect((await rebalancer('PUT', `${v2}/999999`, { description: 'x' })).statusCode).toBe(404);
    const immutable = await rebalancer('PUT', v2, { id: first.id, relatedType: 16 });
    expect(immutable.statusCode).toBe(400);
    expect(immutable.json().errors).toEqual([{ field: 'relatedType', message: 'cannot be changed (it is 32)' }]);
    expect((await rebalancer('PUT', v2, { id: 999999, description: 'x' })).statusCode).toBe(404);
    const deleted = await rebalancer('DELETE', `${v2}/${second.id}`);
    expect(deleted.json().isDeleted).toBe(true);

    const bad = await rebalancer('POST', `${v2}/AddList`, [
      { relatedType: 32, relatedTypeId: book.account, tradeBlockReasonId: manual, description: 'ok', startDate: '2026-03-01' },
      { relatedType: 7, relatedTypeId: 999999, tradeBlockReasonId: manual, description: 'bad', startDate: '2026-03-01' },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('[1].relatedType');
    const missing = await rebalancer('POST', `${v2}/AddList`, [{ relatedType: 32, relatedTypeId: 999999, tradeBlockReasonId: manual, description: 'bad', startDate: '2026-03-01', endDate: '2026-01-01' }]);
    expect(missing.json().errors).toEqual([
      { field: '[0].relatedTypeId', message: 'account 999999 does not exist' },
      { field: '[0].endDate', message: 'must be after startDate (2026-03-01)' },
    ]);
    const platformToken = await t.app.inject({ method: 'GET', url: v2, headers: { authorization: await t.session('service') } });
    expect(platformToken.statusCode).toBe(401);
    const minted = await t.app.inject({ method: 'GET', url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('service', 'otherFirm') } });
    const otherFirm = await t.app.inject({ method: 'GET', url: `${v2}/${first.id}`, headers: { authorization: `Session ${minted.json().access_token}` } });
    expect(otherFirm.statusCode).toBe(404);
    const otherList = await t.app.inject({ method: 'GET', url: v2, headers: { authorization: `Session ${minted.json().access_token}` } });
    expect(otherList.json()).toEqual([]);
  });
  it('lists thousands of details whole, a page at a time, in id order', async () => {
    const now = new Date().toISOString();
    const rows = Array.from({ length: 2100 }, (_, i) => ({
      firm_id: t.firm.firmId, global_id: `bulk-${i}`, related_type: 32, related_type_id: book.account, reason_id: manual, reason_name: 'Manual',
      description: `bulk ${i}`, start_date: '2026-03-01', end_date: null, is_deleted: i % 7 === 0 ? (1 as const) : (0 as const), source_version: 1,
      created_at: now, created_by: 'test', edited_at: now, edited_by: 'test',
    }));
    for (let i = 0; i < rows.length; i += 300) await t.db.kysely.insertInto('rebalancer_trade_block_details').values(rows.slice(i, i + 300)).execute();
    const all = (await rebalancer('GET', `${v2}?includeDeleted=true&relatedType=32&relatedTypeId=${book.account}`)).json<Copy[]>().filter((c) => c.globalId.startsWith('bulk-'));
    expect(all.map((c) => c.globalId)).toEqual(rows.map((r) => r.global_id));
    const live = (await rebalancer('GET', `${v2}?relatedType=32&relatedTypeId=${book.account}`)).json<Copy[]>().filter((c) => c.globalId.startsWith('bulk-'));
    expect(live).toHaveLength(1800);
    expect(live.every((c) => !c.isDeleted)).toBe(true);
  });

  it('pages the details with $top/$skip across the reader\'s pages, the total always, the next page in Link', async () => {
    const path = `${v2}?includeDeleted=true&relatedType=32&relatedTypeId=${book.account}`;
    const whole = await rebalancer('GET', path);
    const ids = whole.json<Copy[]>().map((c) => c.id);
    expect(ids.length).toBeGreaterThan(2000);
    expect(whole.headers['x-total-count']).toBe(String(ids.length));
    expect(whole.headers.link).toBeUndefined();
    // A page that starts inside the reader's first 1000 and runs past it.
    const page = await rebalancer('GET', `${path}&$top=1500&$skip=10`);
    expect(page.json<Copy[]>().map((c) => c.id)).toEqual(ids.slice(10, 1510));
    expect(page.headers['x-total-count']).toBe(String(ids.length));
    expect(page.headers.link).toBe(`<${path}&$top=1500&$skip=1510>; rel="next"`);
    const last = await rebalancer('GET', `${path}&$top=1500&$skip=1510`);
    expect(last.json<Copy[]>().map((c) => c.id)).toEqual(ids.slice(1510));
    expect(last.headers.link).toBeUndefined();
    const live = (await rebalancer('GET', `${v2}?relatedType=32&relatedTypeId=${book.account}`)).json<Copy[]>();
    expect(live.length).toBeLessThan(ids.length);
    const first = await rebalancer('GET', `${v2}?relatedType=32&relatedTypeId=${book.account}&$top=1`);
    expect(first.json<Copy[]>().map((c) => c.id)).toEqual([live[0]!.id]);
    expect(first.headers['x-total-count']).toBe(String(live.length));
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await rebalancer('GET', `${v2}?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field), query).toEqual([field]);
    }
    const minted = await t.app.inject({ method: 'GET', url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('service', 'otherFirm') } });
    const otherFirm = await t.app.inject({ method: 'GET', url: path, headers: { authorization: `Session ${minted.json().access_token}` } });
    expect(otherFirm.json()).toEqual([]);
    expect(otherFirm.headers['x-total-count']).toBe('0');
  });
});
