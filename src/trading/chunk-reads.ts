// What a chunk reads from the database, as the rows came (plain data: no class, no closure), and
// the accounts' snapshots built from it. The two are apart so that the building can happen where
// the engine runs: on SQLite that is a thread of its own (plan-thread.ts), which takes these
// reads as a message and builds the positions there, the lots included (docs/decisions/
// rebalance-plan-thread.md).

import type { AccountSnapshot, AssetValues, Model, PendingItem, ProductCatalog, RestrictedPlan, SetAsideCash, Substitution, TradeBlock } from '../engine/index.js';
import { groupBy } from '../shared/group-by.js';
import { centsToDollars, microsToShares } from '../shared/money.js';
import type { FirmOptions } from '../trade-blocks/repository.js';
import { unpackPositions } from './position-lots.js';
import type { ChunkOrder, TaxInputs } from './tax-inputs-repository.js';

/** What every account of a batch shares: loaded once per chunk's batch, not per account. */
export interface FirmContext {
  firmId: number;
  asOfDate: string;
  products: ProductCatalog;
  models: Map<number, Model>;
  firmSubstitutions: Substitution[];
  firmDefaultAssetValues: Exclude<AssetValues, 'UseDefault'>;
  /** Models with a Sell If No Gain security: only their accounts need tax lots. */
  modelsSellingIfNoGain: Set<number>;
  /** Restricted plans by id: accounts of one plan share one object (and the engine's line template). */
  plans: Map<number, RestrictedPlan>;
  doNotBuyGroupEquivalency: number[];
  /** The firm's trade block options; undefined only for a firm that no longer exists. */
  tradeBlockOptions: FirmOptions | undefined;
}

export interface AccountRow {
  id: number;
  registration_id: number;
  model_id: number | null;
  cash_cents: number;
  sleeve_type: string | null;
  sleeve_target_pct: number | null;
  sleeve_tolerance_lower: number | null;
  sleeve_tolerance_upper: number | null;
  restricted_plan_id: number | null;
  is_trading_blocked: number;
}

/** The rows of one chunk's accounts, read in one transaction (snapshot-repository.ts). */
export interface ChunkReads {
  /** The accounts found, in id order. */
  accounts: AccountRow[];
  /** Each account's packed positions (position-lots.ts unpackPositions). */
  held: Map<number, string>;
  /** The lots of the accounts that need them, one text an account. */
  lots: Map<number, string>;
  setAsideCash: Map<number, SetAsideCash[]>;
  pending: { account_id: number; product_id: number | null; type: string; shares_micros: number; amount_cents: number }[];
  orders: ChunkOrder[];
  /** Cash a registration rebalance moves between sleeves counts like its trades until cancelled. */
  transfers: { account_id: number; amount_cents: number; trade_instance_id: number }[];
  substitutions: { id: number; account_id: number | null; product_id: number; substitute_product_id: number }[];
  tradeBlocks: Map<number, TradeBlock[]>;
  /** A tax-aware chunk's tax status, households, realized gains and recent trades; null otherwise. */
  tax: TaxInputs | null;
}

export interface LoadedAccount {
  row: AccountRow;
  snapshot: AccountSnapshot;
}

// Pending transactions are stored with positive amounts; the type says which way they move.
const CASH_IN = new Set(['Sell', 'Deposit']);
const SHARES_OUT = new Set(['Sell']);

/** The restricted plan an account row names, when the firm still has it. */
export function planOfRow(context: FirmContext, row: AccountRow): RestrictedPlan | null {
  return row.restricted_plan_id === null ? null : (context.plans.get(row.restricted_plan_id) ?? null);
}

/** Each account's snapshot, in the order of `reads.accounts`. */
export function snapshotsOf(context: FirmContext, reads: ChunkReads): LoadedAccount[] {
  const pendingOf = groupBy(reads.pending, (p) => p.account_id);
  const ordersOf = groupBy(reads.orders, (o) => o.account_id);
  const transfersOf = groupBy(reads.transfers, (t) => t.account_id);
  const subsOf = groupBy(reads.substitutions, (s) => s.account_id);
  const { tax } = reads;

  return reads.accounts.map((row) => {
    const held = reads.held.get(row.id);
    const snapshot: AccountSnapshot = {
      accountId: row.id,
      registrationId: row.registration_id,
      asOfDate: context.asOfDate,
      products: context.products,
      custodialCash: centsToDollars(row.cash_cents),
      positions: held === undefined ? [] : unpackPositions(held, reads.lots.get(row.id) ?? null),
      pendingTransactions: (pendingOf.get(row.id) ?? []).map(
        (p): PendingItem => ({
          productId: p.product_id,
          shares: (SHARES_OUT.has(p.type) ? -1 : 1) * microsToShares(p.shares_micros),
          cash: (CASH_IN.has(p.type) ? 1 : -1) * centsToDollars(p.amount_cents),
        }),
      ),
      openOrders: [
        ...(ordersOf.get(row.id) ?? []).map(
          (o): PendingItem => ({
            productId: o.product_id,
            shares: (o.side === 'Sell' ? -1 : 1) * microsToShares(o.shares_micros),
            cash: (o.side === 'Sell' ? 1 : -1) * centsToDollars(o.amount_cents),
            tradeInstanceId: o.trade_instance_id,
          }),
        ),
        ...(transfersOf.get(row.id) ?? []).map((t): PendingItem => ({ productId: null, shares: 0, cash: centsToDollars(t.amount_cents), tradeInstanceId: t.trade_instance_id })),
      ],
      model: row.model_id === null ? null : (context.models.get(row.model_id) ?? null),
      restrictedPlan: planOfRow(context, row),
      doNotBuyGroupEquivalency: context.doNotBuyGroupEquivalency,
      setAsideCash: reads.setAsideCash.get(row.id) ?? [],
      substitutions: [
        ...(subsOf.get(row.id) ?? []).map((s): Substitution => ({ id: s.id, productId: s.product_id, substituteProductId: s.substitute_product_id, scope: 'Account' })),
        ...context.firmSubstitutions,
      ],
      tradeBlocks: reads.tradeBlocks.get(row.id) ?? [],
      firmDefaultAssetValues: context.firmDefaultAssetValues,
      ...(tax !== null ? { taxStatus: tax.accounts.get(row.id)?.taxStatus ?? 'Taxable' } : {}),
    };
    return { row, snapshot };
  });
}
