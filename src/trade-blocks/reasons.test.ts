import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';
import { block, caller, createSmallBook, type SmallBook } from './test-support.js';

const url = '/api/v1/Trading/TradeBlocks';
const reasonsUrl = '/api/v1/Trading/TradeBlockReasons';
type Reason = { id: number; name: string; globalId: string; isSystemMaintained: boolean; allowDetailAssignment: boolean; rebalancerFirmId: number };

describeEachDatabase('trade block reasons', (database) => {
  const t = useTestApp(database);
  const call = caller(t);
  let book: SmallBook;
  const reasons = async (of: 'firm' | 'otherFirm' = 'firm') => (await call('GET', `${url}/Reasons`, undefined, 'reader', of)).json<Reason[]>();

  beforeAll(async () => {
    book = await createSmallBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    // Custom reasons arrive as nested reasons on create, which needs the custom-types option.
    await t.db.kysely.updateTable('firms').set({ trade_block_custom_types: 1 }).where('id', '=', t.firm.firmId).execute();
  });

  async function customReason(name: string) {
    const created = await call('POST', url, [block(book.account, { tradeBlockReasonId: undefined, tradeBlockReason: { name } })]);
    expect(created.statusCode).toBe(200);
    const detail = created.json().successfulTradeBlocks[0];
    return { detail, reason: detail.tradeBlockReason as Reason };
  }

  it('has the four system reasons in every firm, in full and simple lists', async () => {
    for (const of of ['firm', 'otherFirm'] as const) {
      const all = await reasons(of);
      expect(all.map((r) => r.name)).toEqual(['Manual', 'OCI', 'TOM Only', 'Fixed Income']);
      expect(all.every((r) => r.isSystemMaintained && r.allowDetailAssignment)).toBe(true);
      expect(all[0]!.rebalancerFirmId).toBe(of === 'firm' ? t.firm.firmId : t.otherFirm.firmId);
      const simple = (await call('GET', `${url}/Reasons/Simple`, undefined, 'reader', of)).json();
      expect(simple).toEqual(all.map(({ id, name }) => ({ id, name })));
    }
    // Asking again creates nothing new.
    expect(await reasons()).toHaveLength(4);
  });

  it('creates a custom reason from a nested reason only with the custom-types option', async () => {
    const { reason } = await customReason('Client request');
    expect(reason).toMatchObject({ name: 'Client request', isSystemMaintained: false, allowDetailAssignment: true });
    // The same name (any case) reuses the reason.
    expect((await customReason('client REQUEST')).reason.id).toBe(reason.id);
    const withoutOption = await call('POST', url, [block(book.account, { tradeBlockReasonId: undefined, tradeBlockReason: { name: 'x' } })], 'advisor', 'otherFirm');
    expect(withoutOption.json().failedTradeBlocks[0].errorMessage).toContain('tradeBlockReasonId: is required');
  });

  it('updates a custom reason only as administrator or rebalancer service account', async () => {
    const { reason } = await customReason('Estate');
    const denied = await call('PUT', reasonsUrl, { globalId: reason.globalId, name: 'Estate settlement' }, 'advisor');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe('this call needs the platform.admin or rebalancer.service privilege');
    const byAdmin = await call('PUT', reasonsUrl, { globalId: reason.globalId, name: 'Estate settlement' }, 'admin');
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json()).toMatchObject({ id: reason.id, name: 'Estate settlement', allowDetailAssignment: true });
    const byService = await call('PUT', reasonsUrl, { id: reason.id, allowDetailAssignment: false }, 'service');
    expect(byService.json()).toMatchObject({ name: 'Estate settlement', allowDetailAssignment: false });
    // A reason that does not allow assignment cannot be put on a new detail.
    const refused = await call('POST', url, [block(book.account, { tradeBlockReasonId: reason.id })]);
    expect(refused.json().failedTradeBlocks[0].errorMessage).toBe('tradeBlockReasonId: reason Estate settlement does not allow detail assignment');
  });

  it('refuses changes to system reasons, unknown reasons and duplicate names', async () => {
    const manual = (await reasons())[0]!;
    const system = await call('PUT', reasonsUrl, { globalId: manual.globalId, name: 'Hand' }, 'admin');
    expect(system.statusCode).toBe(400);
    expect(system.json().errors).toEqual([{ field: 'globalId', message: 'reason Manual is system-maintained and cannot be changed' }]);
    expect((await call('PUT', reasonsUrl, { globalId: randomUUID(), name: 'x' }, 'admin')).statusCode).toBe(404);
    expect((await call('PUT', reasonsUrl, { name: 'x' }, 'admin')).statusCode).toBe(400);
    const { reason } = await customReason('Margin call');
    const duplicate = await call('PUT', reasonsUrl, { globalId: reason.globalId, name: 'oci' }, 'admin');
    expect(duplicate.json().errors).toEqual([{ field: 'name', message: 'oci is already used by another reason' }]);
    const deleteSystem = await call('DELETE', `${reasonsUrl}/${manual.globalId}`, undefined, 'admin');
    expect(deleteSystem.statusCode).toBe(400);
    expect((await reasons()).some((r) => r.name === 'Manual')).toBe(true);
  });

  it('deletes a custom reason and reassigns its details to Manual', async () => {
    const { reason, detail } = await customReason('Pending transfer');
    expect((await call('DELETE', `${reasonsUrl}/${reason.globalId}`, undefined, 'advisor')).statusCode).toBe(403);
    expect((await call('DELETE', `${reasonsUrl}/${randomUUID()}`, undefined, 'admin')).statusCode).toBe(404);
    const deleted = await call('DELETE', `${reasonsUrl}/${reason.globalId}`, undefined, 'service');
    expect(deleted.statusCode).toBe(200);
    const manual = (await reasons())[0]!;
    expect(deleted.json()).toEqual({ globalId: reason.globalId, name: 'Pending transfer', reassignedTradeBlocks: 1, reassignedTo: manual.id });
    expect((await reasons()).some((r) => r.id === reason.id)).toBe(false);
    const after = (await call('GET', `${url}/${detail.id}`)).json();
    expect(after).toMatchObject({ tradeBlockReasonId: manual.id, tradeBlockReason: { name: 'Manual' } });
    const history = (await call('GET', `${url}/${detail.id}/History`)).json();
    expect(history.map((h: { action: string; changedBy: string }) => [h.action, h.changedBy])).toEqual([
      ['create', 'advisor@alpha'],
      ['reassign', 'service@alpha'],
    ]);
  });
  // Section 3: "trade block reason | existing | delete reason | caller is platform administrator or
  // rebalancer service account, reason found | removed | details using it are reassigned to Manual".
  it('deletes a system reason other than Manual, as administrator or service account, reassigning its details to Manual', async () => {
    const [manual, oci, tomOnly] = await reasons();
    const created = await call('POST', url, [block(book.account, { tradeBlockReasonId: oci!.id, description: 'custodian import' })]);
    const detail = created.json().successfulTradeBlocks[0];
    expect(detail.tradeBlockReasonId).toBe(oci!.id);
    expect((await call('DELETE', `${reasonsUrl}/${oci!.globalId}`, undefined, 'advisor')).statusCode).toBe(403);

    const deleted = await call('DELETE', `${reasonsUrl}/${oci!.globalId}`, undefined, 'admin');
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toEqual({ globalId: oci!.globalId, name: 'OCI', reassignedTradeBlocks: 1, reassignedTo: manual!.id });
    expect((await call('GET', `${url}/${detail.id}`)).json()).toMatchObject({ tradeBlockReasonId: manual!.id, tradeBlockReason: { name: 'Manual' } });
    const byService = await call('DELETE', `${reasonsUrl}/${tomOnly!.globalId}`, undefined, 'service');
    expect(byService.json()).toMatchObject({ name: 'TOM Only', reassignedTradeBlocks: 0 });

    // Removed stays removed: later writes bring back only Manual, which cannot go.
    await call('POST', url, [block(book.account, { tradeBlockReasonId: manual!.id, description: 'later write' })]);
    expect((await reasons()).map((r) => r.name).filter((n) => ['Manual', 'OCI', 'TOM Only', 'Fixed Income'].includes(n))).toEqual(['Manual', 'Fixed Income']);
    const manualDelete = await call('DELETE', `${reasonsUrl}/${manual!.globalId}`, undefined, 'admin');
    expect(manualDelete.statusCode).toBe(400);
    expect(manualDelete.json().errors).toEqual([{ field: 'tradeBlockReasonGlobalId', message: 'reason Manual cannot be deleted: the details of deleted reasons are reassigned to it' }]);
    // The other firm keeps its own.
    expect((await reasons('otherFirm')).map((r) => r.name)).toEqual(['Manual', 'OCI', 'TOM Only', 'Fixed Income']);
  });
});
