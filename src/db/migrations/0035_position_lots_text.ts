import type { Migration } from 'kysely';
import { sql } from 'kysely';
import { latestLotDateOfPosition, lotsOfPosition } from '../position-lots.js';
import type { AnyDb } from './helpers.js';

/**
 * `positions.lots`: each position's tax lots as one text, and `positions.latest_lot_date` their
 * newest acquired date, kept by every writer of tax_lots
 * (db/position-lots.ts, docs/decisions/position-lots-text.md), filled here for the lots already
 * held. A tax-aware chunk then reads its taxable accounts' lots with their positions instead of
 * probing the lots' index once a position.
 */
export const positionLotsText: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('positions').addColumn('lots', 'text').execute();
    await db.schema.alterTable('positions').addColumn('latest_lot_date', 'text').execute();
    await sql`update positions set lots = ${lotsOfPosition(db)}, latest_lot_date = ${latestLotDateOfPosition()}
      where exists (select 1 from tax_lots as l where l.position_id = positions.id)`.execute(db);
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('positions').dropColumn('latest_lot_date').execute();
    await db.schema.alterTable('positions').dropColumn('lots').execute();
  },
};
