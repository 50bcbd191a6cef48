import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import { idChunks, inIds } from './id-chunks.js';
import type { Database } from './schema.js';

/**
 * `positions.lots`: a position's tax lots as one text, kept beside them by every writer of
 * `tax_lots` (docs/decisions/position-lots-text.md). A lot is `product_id,id,shares_micros,
 * cost_cents,"acquired_date"`, the lots of a position joined by `],[` in id order; null for a
 * position without lots. An account's lots are then its positions' texts joined by `],[` inside
 * `[[…]]` (snapshot-repository.ts accountLotsQuery), the text position-lots.ts unpackPositions
 * scans: a tax-aware chunk reads its taxable accounts' lots without an index probe a position
 * and a text built a lot, which on PostgreSQL were the largest part of its reads.
 */
export const LOT_SEPARATOR = '],[';

/** A lot as a writer holds it, its id known. */
export interface LotOfText {
  id: number;
  shares_micros: number;
  cost_cents: number;
  acquired_date: string;
}

/** The `lots` text of a position of product `productId` holding `lots` (null for none), as refreshPositionLots writes it. */
export function positionLotsText(productId: number, lots: readonly LotOfText[]): string | null {
  if (lots.length === 0) return null;
  const sorted = lots.every((lot, i) => i === 0 || (lots[i - 1] as LotOfText).id < lot.id) ? lots : [...lots].sort((a, b) => a.id - b.id);
  return sorted.map((lot) => `${productId},${lot.id},${lot.shares_micros},${lot.cost_cents},"${lot.acquired_date}"`).join(LOT_SEPARATOR);
}

/**
 * Writes `lots` of the positions `positionIds` (of firm `firmId`) again from their rows in
 * `tax_lots`, after a writer changed them: one statement a list of positions. Every writer of
 * `tax_lots` calls it in the transaction of its change (the bulk writers build the text
 * themselves, positionLotsText, for the positions they write with their lots).
 */
export async function refreshPositionLots(db: Kysely<Database>, firmId: number, positionIds: readonly number[]): Promise<void> {
  for (const slice of idChunks(db, [...new Set(positionIds)])) {
    await db.updateTable('positions').set({ lots: lotsOfPosition(db) }).where('firm_id', '=', firmId).where(inIds(db, 'id', slice)).execute();
  }
}

/**
 * The `lots` text of the row of `positions` a statement is at, from its rows in `tax_lots` (null
 * without lots): the one SQL spelling of the format, for refreshPositionLots, migration 0035 and
 * staleLotTexts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lotsOfPosition(db: Kysely<any>): RawBuilder<string | null> {
  const aggregate = sql.raw(isPostgres(db) ? 'string_agg' : 'group_concat');
  return sql<string | null>`(select ${aggregate}(positions.product_id || ',' || l.id || ',' || l.shares_micros || ',' || l.cost_cents || ',"' || l.acquired_date || '"', ${sql.lit(LOT_SEPARATOR)} order by l.id) from tax_lots as l where l.position_id = positions.id)`;
}

/** The positions (of every firm) whose `lots` text is not what their lots say: none, unless a writer of tax_lots forgot to refresh it. For tests. */
export async function staleLotTexts(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('positions')
    .select('id')
    .where(sql<boolean>`coalesce(lots, '') <> coalesce(${lotsOfPosition(db)}, '')`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Each account's lots as one row beside packedPositionsQuery's (trading/position-lots.ts
 * unpackPositions reads both): one JSON array an account of (product_id, id, shares_micros, cost_cents,
 * acquired_date), its positions' `lots` texts joined, in product order as
 * the (account, product) index gives the positions. No row for an account none of whose positions
 * has lots. Read from the lots themselves, a position's lots cost an index probe and a text built
 * a lot, on PostgreSQL the largest of a tax-aware chunk's reads: 1.6 s of statements a run of
 * 30,000 accounts against 0.2 s (docs/decisions/position-lots-text.md). Lots are otherwise
 * unordered: the engine orders a position's lots itself (by date, then id); were a plan to mix the
 * positions, unpackPositions would parse the text instead of scanning it (the same lots, more
 * slowly).
 */
export function accountLotsQuery(trx: Kysely<Database>, firmId: number, accountIds: number[]) {
  return trx
    .selectFrom('positions')
    .select(['account_id', sql<string>`'[[' || ${joinedLots(trx)} || ']]'`.as('lots')])
    .where('firm_id', '=', firmId)
    .where(inIds(trx, 'account_id', accountIds))
    .where('lots', 'is not', null)
    .groupBy('account_id');
}

const joinedLots = (db: Kysely<Database>) => (isPostgres(db) ? sql`string_agg(lots, ${sql.lit(LOT_SEPARATOR)})` : sql`group_concat(lots, ${sql.lit(LOT_SEPARATOR)})`);
