import { type Kysely, type RawBuilder, sql } from 'kysely';
import { joinedText, type Separator } from './aggregate.js';
import { idChunks, inIds } from './id-chunks.js';
import type { Database } from './schema.js';
import { TextBytes } from './text-bytes.js';

/**
 * `positions.lots`: a position's tax lots as one text, kept beside them by every writer of
 * `tax_lots` (docs/decisions/position-lots-text.md). A lot is `product_id,id,shares_micros,
 * cost_cents,"acquired_date"`, the lots of a position joined by `],[` in id order; null for a
 * position without lots. An account's lots are then its positions' texts joined by `],[` inside
 * `[[…]]` (accountLotsQuery below), the text trading/position-lots.ts unpackPositions scans: a
 * tax-aware chunk reads its taxable accounts' lots without an index probe a position and a text
 * built a lot, which on PostgreSQL were the largest part of its reads.
 * `positions.latest_lot_date` beside it is the newest acquired date of those lots: a household's
 * recent buys are read from the few positions with a lot in the window (recentLotsQuery).
 */
export const LOT_SEPARATOR = '],[' satisfies Separator;

/** A lot as a writer holds it, its id known. */
export interface LotOfText {
  id: number;
  shares_micros: number;
  cost_cents: number;
  acquired_date: string;
}

/** The `lots` text of a position of product `productId` holding `lots` (null for none), as refreshPositionLots writes it. */
export function positionLotsText(productId: number, lots: readonly LotOfText[]): string | null {
  const sorted = lots.every((lot, i) => i === 0 || (lots[i - 1] as LotOfText).id < lot.id) ? lots : [...lots].sort((a, b) => a.id - b.id);
  oneText.begin(productId);
  for (const lot of sorted) oneText.lot(lot.id, lot.shares_micros, lot.cost_cents, lot.acquired_date);
  return oneText.end();
}

/**
 * Builds positions' `lots` texts lot by lot, straight into bytes (text-bytes.ts): a bulk writer of
 * a million positions makes one string a position, not one a number and one a lot, whose garbage
 * cost a SQLite seed of 100,000 households about a second. The JavaScript spelling of the format;
 * lotsOfPosition below is the SQL one.
 */
export class LotsTextBuilder {
  readonly #text = new TextBytes(1024);
  #productId = 0;
  #lots = 0;

  /** Starts the text of a position of product `productId`. */
  begin(productId: number): void {
    this.#text.reset();
    this.#productId = productId;
    this.#lots = 0;
  }

  /** Adds the position's next lot, in id order. `acquiredDate` is `YYYY-MM-DD`, as every lot's is. */
  lot(id: number, sharesMicros: number, costCents: number, acquiredDate: string): void {
    const text = this.#text;
    if (this.#lots++ > 0) text.ascii(LOT_SEPARATOR);
    text.number(this.#productId);
    text.byte(COMMA);
    text.number(id);
    text.byte(COMMA);
    text.number(sharesMicros);
    text.byte(COMMA);
    text.number(costCents);
    text.byte(COMMA);
    text.byte(QUOTE);
    text.ascii(acquiredDate);
    text.byte(QUOTE);
  }

  /** The text begun last: null for a position without lots. */
  end(): string | null {
    return this.#lots === 0 ? null : this.#text.latin1();
  }
}

const COMMA = 44;
const QUOTE = 34;
const oneText = new LotsTextBuilder();

/**
 * Writes `lots` and `latest_lot_date` of the positions `positionIds` (of firm `firmId`) again from
 * their rows in `tax_lots`, after a writer changed them: one statement a list of positions. Every
 * writer of `tax_lots` calls it in the transaction of its change (the bulk writer of seeds and
 * imports builds both columns itself, with LotsTextBuilder, for the positions it writes with their
 * lots).
 */
export async function refreshPositionLots(db: Kysely<Database>, firmId: number, positionIds: readonly number[]): Promise<void> {
  for (const slice of idChunks(db, [...new Set(positionIds)])) {
    await db.updateTable('positions').set({ lots: lotsOfPosition(db), latest_lot_date: latestLotDateOfPosition() }).where('firm_id', '=', firmId).where(inIds(db, 'id', slice)).execute();
  }
}

/** `latest_lot_date` of the row of `positions` a statement is at, from its rows in `tax_lots`. */
export function latestLotDateOfPosition(): RawBuilder<string | null> {
  return sql<string | null>`(select max(l.acquired_date) from tax_lots as l where l.position_id = positions.id)`;
}

/**
 * The `lots` text of the row of `positions` a statement is at, from its rows in `tax_lots` (null
 * without lots): the one SQL spelling of the format, for refreshPositionLots, migration 0035 and
 * staleLotTexts.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lotsOfPosition(db: Kysely<any>): RawBuilder<string | null> {
  const lot = sql`positions.product_id || ',' || l.id || ',' || l.shares_micros || ',' || l.cost_cents || ',"' || l.acquired_date || '"'`;
  return sql<string | null>`(select ${joinedText(db, lot, LOT_SEPARATOR, sql`l.id`)} from tax_lots as l where l.position_id = positions.id)`;
}

/** The positions (of every firm) whose `lots` text is not what their lots say: none, unless a writer of tax_lots forgot to refresh it. For tests. */
export async function staleLotTexts(db: Kysely<Database>): Promise<number[]> {
  const rows = await db
    .selectFrom('positions')
    .select('id')
    .where((eb) =>
      eb.or([
        sql<boolean>`coalesce(lots, '') <> coalesce(${lotsOfPosition(db)}, '')`,
        sql<boolean>`coalesce(latest_lot_date, '') <> coalesce(${latestLotDateOfPosition()}, '')`,
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Each account's lots as one row beside packedPositionsQuery's (trading/position-lots.ts
 * unpackPositions reads both): one JSON array an account of (product_id, id, shares_micros,
 * cost_cents, acquired_date), its positions' `lots` texts joined in product order. No row for an
 * account none of whose positions has lots. Read from the lots themselves, a position's lots cost
 * an index probe and a text built a lot, on PostgreSQL the largest of a tax-aware chunk's reads
 * (docs/decisions/position-lots-text.md). Within a position the lots are in id order; the engine
 * orders them itself (by date, then id).
 */
export function accountLotsQuery(trx: Kysely<Database>, firmId: number, accountIds: number[]) {
  return trx
    .selectFrom('positions')
    // In product order whatever the plan: read through a sort by account (a bitmap scan), a group's
    // positions came in any order, and every such account's text went to JSON.parse instead of the scan.
    .select(['account_id', sql<string>`'[[' || ${joinedText(trx, sql`lots`, LOT_SEPARATOR, sql`product_id`)} || ']]'`.as('lots')])
    .where('firm_id', '=', firmId)
    .where(inIds(trx, 'account_id', accountIds))
    .where('lots', 'is not', null)
    .groupBy('account_id');
}

/**
 * The lots of the accounts' positions with a lot acquired since `since` (an ISO date), one row an
 * account as accountLotsQuery gives them: a household's other accounts hold many lots and few of
 * them recent, so only the positions whose newest lot is in the window are read, and the caller
 * picks the window's lots from their texts (trading/position-lots.ts lotsAcquiredSince).
 */
export function recentLotsQuery(trx: Kysely<Database>, firmId: number, accountIds: number[], since: string) {
  return accountLotsQuery(trx, firmId, accountIds).where('latest_lot_date', '>=', since);
}
