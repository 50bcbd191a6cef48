import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { refreshPositionLots } from '../db/position-lots.js';
import type { LotSelection, TaxStatus } from '../engine/index.js';
import { effectiveTaxStatus } from '../book/registration-types.js';

export interface LotRow {
  id: number;
  position_id: number;
  shares_micros: number;
  cost_cents: number;
  acquired_date: string;
}

/** Everything one execution changes, applied in one transaction. */
export interface ExecutionWrite {
  tradeId: number;
  executedAt: string;
  accountId: number;
  productId: number;
  sharesDelta: number;
  costDeltaCents: number;
  cashDeltaCents: number;
  /** Relieved lots of the position: their shares and cost after the sale (0 shares: removed). */
  lotUpdates: { id: number; sharesMicros: number; costCents: number }[];
  newLot: { sharesMicros: number; costCents: number; acquiredDate: string } | null;
  sales: { clientId: number; acquiredDate: string; sharesMicros: number; proceedsCents: number; costCents: number; term: 'Short' | 'Long'; gainCents: number; disallowedCents: number; tradeDate: string }[];
  /** Lots bought within 30 days before a loss sale: the disallowed loss added to their cost. */
  washAdjustments: { lotId: number; positionId: number; addCents: number; acquiredDate: string }[];
}

export class ExecutionTransaction {
  constructor(private readonly trx: Kysely<Database>) {}

  async trade(firmId: number, instanceId: number, tradeId: number) {
    const row = await this.trx
      .selectFrom('trades as t')
      .innerJoin('trade_instances as i', 'i.id', 't.trade_instance_id')
      .innerJoin('accounts as a', 'a.id', 't.account_id')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .select(['t.id', 't.status', 't.side', 't.shares_micros', 't.price_micros', 't.lots', 't.account_id', 't.product_id', 'r.client_id', 'a.tax_status', 'r.type as registration_type', 'i.lot_selection'])
      .where('t.firm_id', '=', firmId)
      .where('t.trade_instance_id', '=', instanceId)
      .where('t.id', '=', tradeId)
      .executeTakeFirst();
    if (!row) return undefined;
    const taxStatus: TaxStatus = effectiveTaxStatus(row.tax_status, row.registration_type);
    // A sell relieves lots by the method of the run that planned it; FIFO otherwise (the custodians' default).
    const method: LotSelection = row.lot_selection ?? 'FIFO';
    return { ...row, taxStatus, method };
  }

  lots(firmId: number, accountId: number, productId: number): Promise<LotRow[]> {
    return this.trx
      .selectFrom('tax_lots as l')
      .innerJoin('positions as p', 'p.id', 'l.position_id')
      .select(['l.id', 'l.position_id', 'l.shares_micros', 'l.cost_cents', 'l.acquired_date'])
      .where('p.firm_id', '=', firmId)
      .where('p.account_id', '=', accountId)
      .where('p.product_id', '=', productId)
      .orderBy('l.acquired_date')
      .orderBy('l.id')
      .execute();
  }

  async positionShares(firmId: number, accountId: number, productId: number): Promise<number> {
    const rows = await this.trx.selectFrom('positions').select('shares_micros').where('firm_id', '=', firmId).where('account_id', '=', accountId).where('product_id', '=', productId).execute();
    return rows.reduce((s, r) => s + Number(r.shares_micros), 0);
  }

  /** Lots of the product's wash-sale group acquired in [from, to] in any account of the household, newest first. */
  recentGroupLots(firmId: number, clientId: number, productId: number, from: string, to: string): Promise<LotRow[]> {
    return this.trx
      .selectFrom('tax_lots as l')
      .innerJoin('positions as p', 'p.id', 'l.position_id')
      .innerJoin('accounts as a', 'a.id', 'p.account_id')
      .innerJoin('registrations as r', 'r.id', 'a.registration_id')
      .innerJoin('products as x', 'x.id', 'p.product_id')
      .innerJoin('products as sold', (j) => j.on('sold.id', '=', productId))
      .select(['l.id', 'l.position_id', 'l.shares_micros', 'l.cost_cents', 'l.acquired_date'])
      .where('l.firm_id', '=', firmId)
      .where('r.client_id', '=', clientId)
      .where('l.acquired_date', '>=', from)
      .where('l.acquired_date', '<=', to)
      .where((eb) => eb.or([eb('x.id', '=', productId), eb.and([eb('sold.wash_sale_group', 'is not', null), eb('x.wash_sale_group', '=', eb.ref('sold.wash_sale_group'))])]))
      .orderBy('l.acquired_date', 'desc')
      .orderBy('l.id', 'desc')
      .execute();
  }

  async apply(firmId: number, w: ExecutionWrite) {
    const executed = await this.trx.updateTable('trades').set({ status: 'Executed', executed_at: w.executedAt }).where('firm_id', '=', firmId).where('id', '=', w.tradeId).where('status', '=', 'Open').executeTakeFirst();
    if (Number(executed.numUpdatedRows) !== 1) throw new Error(`trade ${w.tradeId} changed while it was executed`);
    await this.trx.updateTable('accounts').set({ cash_cents: sql`cash_cents + ${w.cashDeltaCents}` }).where('firm_id', '=', firmId).where('id', '=', w.accountId).execute();
    let position = await this.trx.selectFrom('positions').select(['id', 'shares_micros']).where('firm_id', '=', firmId).where('account_id', '=', w.accountId).where('product_id', '=', w.productId).orderBy('id').executeTakeFirst();
    if (!position) {
      position = await this.trx.insertInto('positions').values({ firm_id: firmId, account_id: w.accountId, product_id: w.productId, shares_micros: 0, cost_cents: 0 }).returning(['id', 'shares_micros']).executeTakeFirstOrThrow();
    }
    await this.trx.updateTable('positions').set({ shares_micros: sql`shares_micros + ${w.sharesDelta}`, cost_cents: sql`cost_cents + ${w.costDeltaCents}` }).where('id', '=', position.id).execute();
    for (const u of w.lotUpdates) {
      if (u.sharesMicros <= 0) await this.trx.deleteFrom('tax_lots').where('id', '=', u.id).execute();
      else await this.trx.updateTable('tax_lots').set({ shares_micros: u.sharesMicros, cost_cents: u.costCents }).where('id', '=', u.id).execute();
    }
    if (w.newLot) await this.trx.insertInto('tax_lots').values({ firm_id: firmId, position_id: position.id, shares_micros: w.newLot.sharesMicros, cost_cents: w.newLot.costCents, acquired_date: w.newLot.acquiredDate }).execute();
    for (const a of w.washAdjustments) {
      await this.trx.updateTable('tax_lots').set({ cost_cents: sql`cost_cents + ${a.addCents}`, acquired_date: a.acquiredDate }).where('id', '=', a.lotId).execute();
      await this.trx.updateTable('positions').set({ cost_cents: sql`cost_cents + ${a.addCents}` }).where('id', '=', a.positionId).execute();
    }
    // The lots' text beside them (db/position-lots.ts): this position's, and a wash sale's replacement lots' positions.
    if (w.lotUpdates.length > 0 || w.newLot || w.washAdjustments.length > 0) await refreshPositionLots(this.trx, firmId, [position.id, ...w.washAdjustments.map((a) => a.positionId)]);
    for (const s of w.sales) {
      await this.trx
        .insertInto('realized_sales')
        .values({ firm_id: firmId, client_id: s.clientId, account_id: w.accountId, product_id: w.productId, trade_id: w.tradeId, trade_date: s.tradeDate, acquired_date: s.acquiredDate, shares_micros: s.sharesMicros, proceeds_cents: s.proceedsCents, cost_cents: s.costCents, term: s.term, gain_cents: s.gainCents, disallowed_loss_cents: s.disallowedCents, created_at: w.executedAt })
        .execute();
    }
    // A position sold out is gone (its lots go with it).
    await this.trx.deleteFrom('positions').where('id', '=', position.id).where('shares_micros', '<=', 0).execute();
  }
}

export class ExecutionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (tx: ExecutionTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new ExecutionTransaction(trx)));
  }
}
