import type { Migration } from 'kysely';
import { type AnyDb, index } from './helpers.js';

/**
 * A tax-aware run asks, for every account of a household, which lots were acquired in the last 30
 * days (wash-sale rules). Indexed by position alone, that read visits every lot of those accounts;
 * by (position, acquired date) it visits only the recent ones. The new index replaces the old one:
 * its prefix serves every lookup by position (the positions' lots, the cascade on delete).
 */
export const taxLotsByDate: Migration = {
  async up(db: AnyDb) {
    await index(db, 'tax_lots', ['position_id', 'acquired_date']);
    await db.schema.dropIndex('tax_lots_position_id_ix').execute();
  },
  async down(db: AnyDb) {
    await index(db, 'tax_lots', ['position_id']);
    await db.schema.dropIndex('tax_lots_position_id_acquired_date_ix').execute();
  },
};
