import type { Kysely } from 'kysely';
import { firmCheck } from '../db/firm-check.js';
import { inIds } from '../db/id-chunks.js';
import { recentLotsQuery } from '../db/position-lots.js';
import type { Database } from '../db/schema.js';
import type { RecentTrade, TaxStatus } from '../engine/index.js';
import { effectiveTaxStatus } from '../book/registration-types.js';
import { centsToDollars } from '../shared/money.js';
import { lotsAcquiredSince } from './position-lots.js';
import { decodeTradeLots } from './trade-lots-codec.js';

/** What a tax-aware run knows of one household beyond its accounts' own snapshots. */
export interface HouseholdTaxData {
  householdId: number;
  realizedShortTermGain: number;
  realizedLongTermGain: number;
  recentTrades: RecentTrade[];
}

/** An account of the chunk, as the chunk's read found it. */
export interface ChunkAccount {
  id: number;
  registration_id: number;
}

/** An open order of an account of the chunk, as its snapshot reads it. */
export interface ChunkOrder {
  account_id: number;
  product_id: number;
  side: string;
  shares_micros: number;
  amount_cents: number;
  trade_instance_id: number;
}

export interface TaxInputs {
  /** Effective tax status and household of each account of the chunk. */
  accounts: Map<number, { taxStatus: TaxStatus; householdId: number }>;
  households: Map<number, HouseholdTaxData>;
}

function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The household side of a tax-aware chunk, in a fixed number of set-based queries: each account's
 * tax status and household; per household the gains realized this calendar year and its buys and
 * loss sales of the last 30 days, from every account of the household (in the chunk or not):
 * executed loss sales, open orders, pending buys, and lots acquired in the window. The chunk's
 * taxable accounts' lots are in their snapshots already; the engine reads those itself.
 */
export async function loadTaxInputs(trx: Kysely<Database>, firmId: number, chunk: readonly ChunkAccount[], asOfDate: string): Promise<{ tax: TaxInputs; orders: ChunkOrder[] }> {
  // Every account of the chunk's households, in the chunk or not: the households first (by the
  // chunk's registrations' keys), then their accounts through the (client) and (registration)
  // indexes, the firm a check on the rows found (firmCheck). As one read (the households a
  // subquery), PostgreSQL hashed every account and registration of the firm for each chunk:
  // 35–55 ms a chunk of 2,500 accounts in a firm of 35,000 and growing with the firm, against
  // 10–15 ms for the two.
  const registrationIds = [...new Set(chunk.map((a) => a.registration_id))];
  if (registrationIds.length === 0) return { tax: { accounts: new Map(), households: new Map() }, orders: [] };
  const clientIds = (
    await trx.selectFrom('registrations').select('client_id').distinct().where('firm_id', '=', firmId).where(inIds(trx, 'id', registrationIds)).execute()
  ).map((r) => r.client_id);
  const members = await trx
    .selectFrom('registrations as r')
    .innerJoin('accounts as a', 'a.registration_id', 'r.id')
    .select(['a.id', 'a.tax_status', 'r.type', 'r.client_id'])
    .where(firmCheck('r.firm_id'), '=', firmId)
    .where(firmCheck('a.firm_id'), '=', firmId)
    .where(inIds(trx, 'r.client_id', clientIds))
    .orderBy('a.id')
    .execute();
  const inChunk = new Set(chunk.map((a) => a.id));
  const accounts = new Map<number, { taxStatus: TaxStatus; householdId: number }>();
  const households = new Map<number, HouseholdTaxData>();
  for (const m of members) {
    if (inChunk.has(m.id)) accounts.set(m.id, { taxStatus: effectiveTaxStatus(m.tax_status, m.type), householdId: m.client_id });
    if (!households.has(m.client_id)) households.set(m.client_id, { householdId: m.client_id, realizedShortTermGain: 0, realizedLongTermGain: 0, recentTrades: [] });
  }

  const householdOf = new Map(members.map((m) => [m.id, m.client_id]));
  const memberIds = members.map((m) => m.id);
  // Buys matter only to a household's taxable sells and harvests (wash-sale rule 2), so only the
  // households with a taxable account in the chunk read them: about half of an advisory book's
  // households hold only retirement accounts. Loss sales (rule 1) are read for every household.
  const buying = new Set<number>();
  for (const a of accounts.values()) if (a.taxStatus === 'Taxable') buying.add(a.householdId);
  const windowStart = daysBefore(asOfDate, 30);
  const year = asOfDate.slice(0, 4);

  const realized = await trx
    .selectFrom('realized_sales')
    .select(['client_id', 'account_id', 'product_id', 'trade_date', 'term', 'gain_cents', 'disallowed_loss_cents'])
    .where('firm_id', '=', firmId)
    .where(inIds(trx, 'client_id', clientIds))
    .where('trade_date', '>=', windowStart < `${year}-01-01` ? windowStart : `${year}-01-01`)
    .where('trade_date', '<=', asOfDate)
    .execute();
  for (const r of realized) {
    const h = households.get(r.client_id);
    if (!h) continue;
    // A disallowed loss is not realized: it moved into the replacement lot's cost.
    const gain = centsToDollars(Number(r.gain_cents) + Number(r.disallowed_loss_cents));
    if (r.trade_date.startsWith(year)) {
      if (r.term === 'Long') h.realizedLongTermGain += gain;
      else h.realizedShortTermGain += gain;
    }
    if (r.trade_date >= windowStart && Number(r.gain_cents) < 0) h.recentTrades.push({ productId: r.product_id, date: r.trade_date, kind: 'LossSale', accountId: r.account_id });
  }

  // Every member's open orders, the chunk's accounts' among them: the chunk's snapshots take theirs
  // from here rather than reading them again (snapshot-repository.ts).
  const orders = await trx
    .selectFrom('trades')
    .select(['account_id', 'product_id', 'side', 'shares_micros', 'amount_cents', 'trade_instance_id', 'created_at', 'lots'])
    .where('firm_id', '=', firmId)
    .where(inIds(trx, 'account_id', memberIds))
    .where('status', '=', 'Open')
    .execute();
  for (const o of orders) {
    const householdId = householdOf.get(o.account_id) ?? -1;
    const h = households.get(householdId);
    if (!h) continue;
    const date = o.created_at.slice(0, 10);
    if (o.side === 'Buy') {
      if (buying.has(householdId)) h.recentTrades.push({ productId: o.product_id, date, kind: 'Buy' });
    } else if (o.lots !== null && decodeTradeLots(o.lots).some((l) => l.estimatedGain < 0)) h.recentTrades.push({ productId: o.product_id, date, kind: 'LossSale', accountId: o.account_id });
  }

  const buyers = memberIds.filter((id) => buying.has(householdOf.get(id)!));
  const pendingBuys =
    buyers.length === 0
      ? []
      : await trx
          .selectFrom('pending_transactions')
          .select(['account_id', 'product_id', 'trade_date'])
          .where('firm_id', '=', firmId)
          .where(inIds(trx, 'account_id', buyers))
          .where('type', '=', 'Buy')
          .where('product_id', 'is not', null)
          .execute();
  for (const p of pendingBuys) {
    const h = households.get(householdOf.get(p.account_id) ?? -1);
    if (h && p.product_id !== null) h.recentTrades.push({ productId: p.product_id, date: p.trade_date > asOfDate ? asOfDate : p.trade_date, kind: 'Buy' });
  }

  // The chunk's taxable accounts bring their lots in their snapshots; every other account of the
  // household (outside the chunk, or not taxable) brings only its lots of the window, here: from
  // the lot texts of its positions with a lot in the window (db/position-lots.ts), no probe of
  // the lots a position.
  const others = buyers.filter((id) => !inChunk.has(id) || accounts.get(id)?.taxStatus !== 'Taxable');
  if (others.length > 0) {
    for (const row of await recentLotsQuery(trx, firmId, others, windowStart).execute()) {
      const h = households.get(householdOf.get(row.account_id) ?? -1);
      if (!h) continue;
      for (const lot of lotsAcquiredSince(row.lots, windowStart)) h.recentTrades.push({ productId: lot.productId, date: lot.date, kind: 'Buy' });
    }
  }
  for (const h of households.values()) h.recentTrades.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.productId - b.productId));
  const chunkOrders = orders.filter((o) => inChunk.has(o.account_id)).map(({ account_id, product_id, side, shares_micros, amount_cents, trade_instance_id }) => ({ account_id, product_id, side, shares_micros, amount_cents, trade_instance_id }));
  return { tax: { accounts, households }, orders: chunkOrders };
}
