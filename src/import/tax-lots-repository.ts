import type { Kysely } from 'kysely';
import { bulkWrite, type BulkWrite } from '../db/bulk-insert.js';
import { refreshPositionLots } from '../db/position-lots.js';
import type { Database } from '../db/schema.js';

/** The positions (id, shares, cost) of account/product pairs, keyed `account:product`. */
export async function positionsOf(conn: Kysely<Database>, firmId: number, accountIds: number[]) {
  const rows = await conn
    .selectFrom('positions')
    .select(['id', 'account_id', 'product_id', 'shares_micros', 'cost_cents'])
    .where('firm_id', '=', firmId)
    .where('account_id', 'in', accountIds)
    .execute();
  return new Map(rows.map((r) => [`${r.account_id}:${r.product_id}`, { id: r.id, shares: Number(r.shares_micros), cost: Number(r.cost_cents) }]));
}

/** Drops the lots of positions about to get their lots from a tax_lots file (the one-lot default). */
export async function clearLots(conn: Kysely<Database>, firmId: number, positionIds: number[]) {
  if (positionIds.length > 0) await conn.deleteFrom('tax_lots').where('firm_id', '=', firmId).where('position_id', 'in', positionIds).execute();
}

type NewLot = { positionId: number; shares: number; cost: number; acquired: string };

/** Writes a lots file's lots, and their positions' lot texts again (db/position-lots.ts): they may replace the one-lot default. */
export async function insertLots(conn: Kysely<Database>, firmId: number, lots: NewLot[]) {
  await bulkWrite(conn, taxLotsWrite(firmId, lots));
  await refreshPositionLots(conn, firmId, lots.map((l) => l.positionId));
}

/** An import's tax lots as a bulk write, not yet run (its SQL is checked in: `tax-lots-repository.sql.test.ts`). */
export function taxLotsWrite(firmId: number, lots: NewLot[]): BulkWrite<'tax_lots'> {
  return {
    table: 'tax_lots',
    columns: [['position_id', 'int4'], ['shares_micros', 'int8'], ['cost_cents', 'int8'], ['acquired_date', 'text']],
    constants: [['firm_id', 'int4', firmId]],
    rows: lots.map((l) => [l.positionId, l.shares, l.cost, l.acquired]),
  };
}

export async function setHarvestReplacements(conn: Kysely<Database>, firmId: number, pairs: { productId: number; replacementId: number }[]) {
  for (const p of pairs) {
    await conn.updateTable('products').set({ harvest_replacement_product_id: p.replacementId }).where('firm_id', '=', firmId).where('id', '=', p.productId).execute();
  }
}
