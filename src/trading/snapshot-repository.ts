import { type Kysely, sql, type Transaction } from 'kysely';
import { jsonArrayText } from '../db/aggregate.js';
import { isPostgres } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { type BuyPriorityId, type SellPriorityId, type Model, type Product, SellPriority, type Substitution, type TradeBlock } from '../engine/index.js';
import { inIds } from '../db/id-chunks.js';
import { accountLotsQuery } from '../db/position-lots.js';
import { groupBy } from '../shared/group-by.js';
import { microsToPrice } from '../shared/money.js';
import type { TradeBlockRepository } from '../trade-blocks/repository.js';
import { tradeBlocksOf } from '../trade-blocks/engine-input.js';
import { loadSetAsideCash } from '../set-aside-cash/repository.js';
import { type AccountRow, type ChunkReads, type FirmContext, planOfRow } from './chunk-reads.js';
import { loadDoNotBuyGroupEquivalency, loadFirmPlans } from './firm-inputs-repository.js';
import { loadTaxInputs } from './tax-inputs-repository.js';

/**
 * Each account's positions as one row (position-lots.ts unpackPositions reads it): `held`, a JSON
 * array of (product_id, shares_micros, cost_cents) triples. A chunk reads tens of thousands of
 * positions, and a JavaScript object per database row costs about three times what the packed
 * read costs.
 */
export function packedPositionsQuery(trx: Kysely<Database>, firmId: number, accountIds: number[]) {
  const triple = sql`positions.product_id || ',' || positions.shares_micros || ',' || positions.cost_cents`;
  return trx
    .selectFrom('positions')
    .select(['account_id', jsonArrayText(trx, triple).as('held')])
    .where('firm_id', '=', firmId)
    .where(inIds(trx, 'account_id', accountIds))
    .groupBy('account_id');
}

export type { AccountRow, FirmContext };

/**
 * Reads everything a rebalance needs about a set of accounts inside one transaction (repeatable
 * read on PostgreSQL), so that a book changing during the run is seen as of one moment.
 */
export class SnapshotRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tradeBlocks: TradeBlockRepository,
  ) {}

  async firmContext(firmId: number, asOfDate: string): Promise<FirmContext> {
    const firm = await this.db.selectFrom('firms').select('default_asset_values').where('id', '=', firmId).executeTakeFirstOrThrow();
    const productRows = await this.db
      .selectFrom('products')
      .select(['id', 'ticker', 'type', 'price_micros', 'allows_fractional', 'wash_sale_group', 'harvest_replacement_product_id'])
      .where('firm_id', '=', firmId)
      .execute();
    const products = new Map<number, Product>(
      productRows.map((p) => [
        p.id,
        {
          id: p.id,
          ticker: p.ticker,
          type: p.type as Product['type'],
          price: p.price_micros === null ? null : microsToPrice(p.price_micros),
          fractionalShares: p.allows_fractional === 1,
          ...(p.wash_sale_group !== null ? { washSaleGroup: p.wash_sale_group } : {}),
          ...(p.harvest_replacement_product_id !== null ? { harvestReplacementProductId: p.harvest_replacement_product_id } : {}),
        },
      ]),
    );
    const firmSubstitutions = (
      await this.db.selectFrom('product_substitutions').select(['id', 'product_id', 'substitute_product_id']).where('firm_id', '=', firmId).where('account_id', 'is', null).orderBy('id').execute()
    ).map((s): Substitution => ({ id: s.id, productId: s.product_id, substituteProductId: s.substitute_product_id, scope: 'Firm' }));
    const fallback = firm.default_asset_values === 'UseDefault' ? 'PendingTransactionsAndOrders' : firm.default_asset_values;
    const models = await this.models(firmId);
    const modelsSellingIfNoGain = new Set(
      [...models.values()]
        .filter((m) => m.targets.some((t) => t.sellPriority === SellPriority.SellIfNoGain) || m.productPriorities?.some((p) => p.sellPriority === SellPriority.SellIfNoGain))
        .map((m) => m.id),
    );
    return {
      firmId,
      asOfDate,
      products,
      models,
      firmSubstitutions,
      firmDefaultAssetValues: fallback as FirmContext['firmDefaultAssetValues'],
      modelsSellingIfNoGain,
      plans: await loadFirmPlans(this.db, firmId),
      doNotBuyGroupEquivalency: await loadDoNotBuyGroupEquivalency(this.db, firmId),
      tradeBlockOptions: await this.tradeBlocks.firmOptions(firmId),
    };
  }

  /** Every model of the firm with targets and ordered equivalents (a firm has tens, not thousands). */
  private async models(firmId: number): Promise<Map<number, Model>> {
    const models = await this.db.selectFrom('models').selectAll().where('firm_id', '=', firmId).execute();
    const allocations = await this.db.selectFrom('model_allocations').selectAll().where('firm_id', '=', firmId).orderBy('product_id').execute();
    const equivalents = await this.db.selectFrom('model_equivalents').selectAll().where('firm_id', '=', firmId).orderBy('rank').execute();
    const equivalentsOf = groupBy(equivalents, (e) => e.model_allocation_id);
    const allocationsOf = groupBy(allocations, (a) => a.model_id);
    const priorities = await this.db.selectFrom('model_security_priorities').select(['model_id', 'product_id', 'buy_priority_id', 'sell_priority_id']).where('firm_id', '=', firmId).execute();
    const prioritiesOf = groupBy(priorities, (p) => p.model_id);
    return new Map(
      models.map((m): [number, Model] => {
        // Section 2.8 priorities set on the model's securities; a restricted plan's override them in the engine.
        const own = new Map((prioritiesOf.get(m.id) ?? []).map((p) => [p.product_id, { buyPriority: p.buy_priority_id as BuyPriorityId | null, sellPriority: p.sell_priority_id as SellPriorityId | null }]));
        return [
          m.id,
          {
            id: m.id,
            name: m.name,
            cashTargetPercent: m.cash_target_pct,
            cashUpperTolerance: m.cash_upper_pct,
            targets: (allocationsOf.get(m.id) ?? []).map((a) => ({
              productId: a.product_id,
              targetPercent: a.target_pct,
              lowerTolerance: a.lower_pct,
              upperTolerance: a.upper_pct,
              equivalents: (equivalentsOf.get(a.id) ?? []).map((e) => e.product_id),
              ...own.get(a.product_id),
            })),
            ...(own.size > 0 ? { productPriorities: [...own].map(([productId, p]) => ({ productId, ...p })) } : {}),
          },
        ];
      }),
    );
  }

  /**
   * Everything a rebalance reads of the accounts of `ids` that exist in the firm, as rows (the
   * snapshots are built from them by chunk-reads.ts snapshotsOf, where the engine runs); with
   * `withTaxes`, what a tax-aware chunk reads besides, in the same transaction.
   */
  async chunkReads(context: FirmContext, ids: number[], withTaxes: boolean): Promise<ChunkReads> {
    if (ids.length === 0) return emptyReads(withTaxes);
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        // A chunk's reads probe indexes by thousands of keys, and PostgreSQL costs each probe as if
        // it might read a page from disk: they cost past `jit_above_cost`, and compiling them took
        // longer than running them (measured when the lots were read by position: a chunk's lots
        // 155–240 ms with JIT, 117 ms without).
        if (isPostgres(trx)) await sql`set local jit = off`.execute(trx);
        return this.read(trx, context, ids, withTaxes);
      });
  }

  private async read(trx: Transaction<Database>, context: FirmContext, ids: number[], withTaxes: boolean): Promise<ChunkReads> {
    const { firmId } = context;
    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'registration_id', 'model_id', 'cash_cents', 'sleeve_type', 'sleeve_target_pct', 'sleeve_tolerance_lower', 'sleeve_tolerance_upper', 'restricted_plan_id', 'is_trading_blocked'])
      .where('firm_id', '=', firmId)
      .where(inIds(trx, 'id', ids))
      .orderBy('id')
      .execute();
    const found = accounts.map((a) => a.id);
    if (found.length === 0) return emptyReads(withTaxes);
    const taxReads = withTaxes ? await loadTaxInputs(trx, firmId, accounts, context.asOfDate) : null;
    const tax = taxReads?.tax ?? null;
    const setAsideCash = await loadSetAsideCash(trx, firmId, found, context.asOfDate);
    // Lots matter only to Sell If No Gain (which shares are at a loss); elsewhere the position's
    // total cost basis is all the engine reads, and lots are the largest table of a book.
    // A tax-aware run also needs every lot of a taxable account (the lots its sells relieve); the
    // recent lots of the other accounts reach it as the household's recent buys (tax-inputs-repository.ts).
    const needLots = accounts
      .filter(
        (a) =>
          (tax !== null && tax.accounts.get(a.id)?.taxStatus === 'Taxable') ||
          (a.model_id !== null && context.modelsSellingIfNoGain.has(a.model_id)) ||
          planOfRow(context, a)?.securities.some((s) => s.sellPriorityId === SellPriority.SellIfNoGain),
      )
      .map((a) => a.id);
    const lots = new Map<number, string>();
    if (needLots.length > 0) for (const row of await accountLotsQuery(trx, firmId, needLots).execute()) lots.set(row.account_id, row.lots);
    const held = new Map<number, string>();
    for (const row of await packedPositionsQuery(trx, firmId, found).execute()) held.set(row.account_id, row.held);
    const pending = await trx
      .selectFrom('pending_transactions')
      .select(['account_id', 'product_id', 'type', 'shares_micros', 'amount_cents'])
      .where('firm_id', '=', firmId)
      .where(inIds(trx, 'account_id', found))
      .execute();
    // A tax-aware chunk has read its accounts' open orders with their households'.
    const orders =
      taxReads?.orders ??
      (await trx
        .selectFrom('trades')
        .select(['account_id', 'product_id', 'side', 'shares_micros', 'amount_cents', 'trade_instance_id'])
        .where('firm_id', '=', firmId)
        .where(inIds(trx, 'account_id', found))
        .where('status', '=', 'Open')
        .execute());
    const transfers = await trx
      .selectFrom('sleeve_transfers as s')
      .innerJoin('trade_instances as i', 'i.id', 's.trade_instance_id')
      .select(['s.account_id', 's.amount_cents', 's.trade_instance_id'])
      .where('s.firm_id', '=', firmId)
      .where(inIds(trx, 's.account_id', found))
      .where('i.status', '=', 'Open')
      .execute();
    const substitutions = await trx
      .selectFrom('product_substitutions')
      .select(['id', 'account_id', 'product_id', 'substitute_product_id'])
      .where('firm_id', '=', firmId)
      .where(inIds(trx, 'account_id', found))
      .execute();
    const tradeBlocks = context.tradeBlockOptions ? await tradeBlocksOf(this.tradeBlocks.within(trx), firmId, context.tradeBlockOptions, accounts, context.asOfDate) : new Map<number, TradeBlock[]>();
    return { accounts, held, lots, setAsideCash, pending, orders, transfers, substitutions, tradeBlocks, tax };
  }
}

function emptyReads(withTaxes: boolean): ChunkReads {
  return {
    accounts: [],
    held: new Map(),
    lots: new Map(),
    setAsideCash: new Map(),
    pending: [],
    orders: [],
    transfers: [],
    substitutions: [],
    tradeBlocks: new Map(),
    tax: withTaxes ? { accounts: new Map(), households: new Map() } : null,
  };
}
