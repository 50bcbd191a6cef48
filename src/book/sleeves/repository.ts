import { type Insertable, type Kysely, type Selectable, type Updateable, sql } from 'kysely';
import type { AccountSleeveTable, AccountTable, Database, SleeveRegistrationTable } from '../../db/schema.js';
import { locksRows } from '../../db/dialect.js';
import { pricedHoldingsByAccount } from '../../db/holdings.js';
import { refreshPositionLots } from '../../db/position-lots.js';

export type AccountRow = Selectable<AccountTable>;
export type SleeveRow = Selectable<AccountSleeveTable>;
export type SettingsRow = Selectable<SleeveRegistrationTable>;

/** Reads and writes of sleeve registrations: their accounts, settings, sleeve rows and sleeve-owned models. */
export class SleeveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: SleeveRepository) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return work(this);
    return this.db.transaction().execute((trx) => work(new SleeveRepository(trx)));
  }

  /** The registration, locked on PostgreSQL when `lock` (two Process calls on one registration queue up). */
  registration(firmId: number, id: number, lock = false) {
    return this.db
      .selectFrom('registrations')
      .select(['id', 'name', 'is_sleeved', 'do_not_trade'])
      .where('firm_id', '=', firmId)
      .where('id', '=', id)
      .$if(lock && locksRows(this.db), (q) => q.forUpdate())
      .executeTakeFirst();
  }

  accountsOf(firmId: number, registrationId: number) {
    return this.db.selectFrom('accounts').selectAll().where('firm_id', '=', firmId).where('registration_id', '=', registrationId).orderBy('id').execute();
  }

  sleeveRowsOf(firmId: number, registrationId: number) {
    return this.db.selectFrom('account_sleeves').selectAll().where('firm_id', '=', firmId).where('registration_id', '=', registrationId).execute();
  }

  settingsOf(firmId: number, registrationId: number) {
    return this.db.selectFrom('sleeve_registrations').selectAll().where('firm_id', '=', firmId).where('registration_id', '=', registrationId).executeTakeFirst();
  }

  holdingsOf(firmId: number, accountIds: number[]) {
    return pricedHoldingsByAccount(this.db, firmId, accountIds);
  }

  models(firmId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('models').select(['id', 'name']).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
  }

  allocationsOf(firmId: number, modelIds: number[]) {
    if (modelIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('model_allocations as a')
      .innerJoin('products as p', 'p.id', 'a.product_id')
      .select(['a.id', 'a.model_id', 'a.product_id', 'a.target_pct', 'a.lower_pct', 'a.upper_pct', 'p.name', 'p.class', 'p.ticker'])
      .where('a.firm_id', '=', firmId)
      .where('a.model_id', 'in', modelIds)
      .orderBy('p.ticker')
      .orderBy('a.product_id')
      .execute();
  }

  async existingProducts(firmId: number, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.selectFrom('products').select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Models that are some sleeve's self-directed model: no other sleeve may name them as its strategy. */
  async selfDirectedModels(firmId: number, modelIds: number[]) {
    if (modelIds.length === 0) return new Map<number, number>();
    const rows = await this.db
      .selectFrom('account_sleeves')
      .select(['self_directed_model_id', 'account_id'])
      .where('firm_id', '=', firmId)
      .where('self_directed_model_id', 'in', modelIds)
      .execute();
    return new Map(rows.map((r) => [r.self_directed_model_id!, r.account_id]));
  }

  /** What keeps a sleeve from being removed: anything it holds or has on the way. */
  async holdingsCount(firmId: number, accountIds: number[]) {
    const out = new Map<number, { positions: number; orders: number; pending: number; transfers: number }>();
    if (accountIds.length === 0) return out;
    for (const id of accountIds) out.set(id, { positions: 0, orders: 0, pending: 0, transfers: 0 });
    const count = async (table: 'positions' | 'trades' | 'pending_transactions', key: 'positions' | 'orders' | 'pending') => {
      let query = this.db
        .selectFrom(table)
        .select(['account_id'])
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('firm_id', '=', firmId)
        .where('account_id', 'in', accountIds)
        .groupBy('account_id');
      if (table === 'trades') query = query.where('status', '=', 'Open');
      for (const row of await query.execute()) out.get(row.account_id)![key] = Number(row.n);
    };
    await count('positions', 'positions');
    await count('trades', 'orders');
    await count('pending_transactions', 'pending');
    const transfers = await this.db
      .selectFrom('sleeve_transfers as s')
      .innerJoin('trade_instances as i', 'i.id', 's.trade_instance_id')
      .select(['s.account_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('s.firm_id', '=', firmId)
      .where('s.account_id', 'in', accountIds)
      .where('i.status', '=', 'Open')
      .groupBy('s.account_id')
      .execute();
    for (const row of transfers) out.get(row.account_id)!.transfers = Number(row.n);
    return out;
  }

  async numbersTaken(firmId: number, prefix: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('accounts').select('number').where('firm_id', '=', firmId).where('number', 'like', `${prefix}%`).execute();
    return new Set(rows.map((r) => r.number));
  }

  async modelNameTaken(firmId: number, name: string) {
    return (await this.db.selectFrom('models').select('id').where('firm_id', '=', firmId).where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  // --- writes

  async markSleeved(firmId: number, registrationId: number, audit: { edited_at: string; edited_by: string }) {
    await this.db.updateTable('registrations').set({ is_sleeved: 1, ...audit }).where('firm_id', '=', firmId).where('id', '=', registrationId).execute();
  }

  async saveSettings(firmId: number, registrationId: number, columns: Omit<Insertable<SleeveRegistrationTable>, 'firm_id' | 'registration_id'>) {
    const updated = await this.db
      .updateTable('sleeve_registrations')
      .set({ ...columns, created_at: undefined, created_by: undefined })
      .where('firm_id', '=', firmId)
      .where('registration_id', '=', registrationId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('sleeve_registrations').values({ ...columns, firm_id: firmId, registration_id: registrationId }).execute();
  }

  async insertAccount(values: Insertable<AccountTable>): Promise<number> {
    return (await this.db.insertInto('accounts').values(values).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updateAccount(firmId: number, id: number, columns: Updateable<AccountTable>) {
    await this.db.updateTable('accounts').set(columns).where('firm_id', '=', firmId).where('id', '=', id).execute();
  }

  async saveSleeveRow(firmId: number, accountId: number, columns: Omit<Insertable<AccountSleeveTable>, 'firm_id' | 'account_id'>) {
    const updated = await this.db
      .updateTable('account_sleeves')
      .set({ ...columns, created_at: undefined, created_by: undefined })
      .where('firm_id', '=', firmId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.db.insertInto('account_sleeves').values({ ...columns, firm_id: firmId, account_id: accountId }).execute();
  }

  /**
   * Moves every position (with its tax lots) and the cash of account `fromId` into `toId`, share
   * for share and cent for cent: a position of a product `toId` already holds is merged into it
   * (shares and cost added, lots re-parented), any other changes account. Answers what moved.
   */
  async moveHoldings(firmId: number, fromId: number, toId: number, audit: { edited_at: string; edited_by: string }) {
    const moving = await this.db.selectFrom('positions').select(['id', 'product_id', 'shares_micros', 'cost_cents']).where('firm_id', '=', firmId).where('account_id', '=', fromId).orderBy('id').execute();
    const held = moving.length === 0 ? [] : await this.db.selectFrom('positions').select(['id', 'product_id']).where('firm_id', '=', firmId).where('account_id', '=', toId).where('product_id', 'in', moving.map((p) => p.product_id)).execute();
    const into = new Map(held.map((p) => [p.product_id, p.id]));
    for (const position of moving) {
      const target = into.get(position.product_id);
      if (target === undefined) {
        await this.db.updateTable('positions').set({ account_id: toId }).where('firm_id', '=', firmId).where('id', '=', position.id).execute();
        continue;
      }
      await this.db
        .updateTable('positions')
        .set({ shares_micros: sql`shares_micros + ${position.shares_micros}`, cost_cents: sql`cost_cents + ${position.cost_cents}` })
        .where('firm_id', '=', firmId)
        .where('id', '=', target)
        .execute();
      await this.db.updateTable('tax_lots').set({ position_id: target }).where('firm_id', '=', firmId).where('position_id', '=', position.id).execute();
      await refreshPositionLots(this.db, firmId, [target]);
      await this.db.deleteFrom('positions').where('firm_id', '=', firmId).where('id', '=', position.id).execute();
    }
    const { cash_cents: cash } = await this.db.selectFrom('accounts').select('cash_cents').where('firm_id', '=', firmId).where('id', '=', fromId).executeTakeFirstOrThrow();
    if (Number(cash) !== 0) {
      await this.db.updateTable('accounts').set({ cash_cents: sql`cash_cents + ${Number(cash)}`, ...audit }).where('firm_id', '=', firmId).where('id', '=', toId).execute();
      await this.db.updateTable('accounts').set({ cash_cents: 0, ...audit }).where('firm_id', '=', firmId).where('id', '=', fromId).execute();
    }
    return { positions: moving.length, cashCents: Number(cash) };
  }

  async createModel(firmId: number, name: string, description: string, audit: { at: string; by: string }): Promise<number> {
    const row = await this.db
      .insertInto('models')
      .values({ firm_id: firmId, name, description, cash_target_pct: 0, cash_lower_pct: 0, cash_upper_pct: 0, is_active: 1, created_at: audit.at, created_by: audit.by, edited_at: audit.at, edited_by: audit.by })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async setModelActive(firmId: number, modelId: number, active: boolean, audit: { at: string; by: string }) {
    await this.db.updateTable('models').set({ is_active: active ? 1 : 0, edited_at: audit.at, edited_by: audit.by }).where('firm_id', '=', firmId).where('id', '=', modelId).execute();
  }

  /** Replaces a self-directed model's allocation whole (its equivalents go with it). */
  async replaceAllocations(firmId: number, modelId: number, allocations: { productId: number; targetPct: number; lowerPct: number; upperPct: number }[]) {
    await this.db.deleteFrom('model_allocations').where('firm_id', '=', firmId).where('model_id', '=', modelId).execute();
    if (allocations.length === 0) return;
    await this.db
      .insertInto('model_allocations')
      .values(allocations.map((a) => ({ firm_id: firmId, model_id: modelId, product_id: a.productId, target_pct: a.targetPct, lower_pct: a.lowerPct, upper_pct: a.upperPct })))
      .execute();
  }

  // --- transfers planned by registration-level rebalances

  /** A page of the instance's transfers by id, with how many there are (one instance's rows: always counted). */
  async transfersOf(firmId: number, instanceId: number, page: { top: number; skip: number }) {
    const rows = await this.db
      .selectFrom('sleeve_transfers as s')
      .innerJoin('accounts as a', 'a.id', 's.account_id')
      .innerJoin('trade_instances as i', 'i.id', 's.trade_instance_id')
      .select(['s.id', 's.trade_instance_id', 's.batch_id', 's.registration_id', 's.account_id', 'a.number', 's.amount_cents', 's.current_pct', 's.target_pct', 's.out_of_band', 'i.status'])
      .where('s.firm_id', '=', firmId)
      .where('s.trade_instance_id', '=', instanceId)
      .orderBy('s.id')
      .limit(page.top)
      .offset(page.skip)
      .execute();
    const counted = await this.db
      .selectFrom('sleeve_transfers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firm_id', '=', firmId)
      .where('trade_instance_id', '=', instanceId)
      .executeTakeFirst();
    return { rows, total: Number(counted?.n ?? 0) };
  }

  tradeInstance(firmId: number, id: number) {
    return this.db.selectFrom('trade_instances').select(['id']).where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
  }
}
