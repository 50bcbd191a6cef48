import type { Migration } from 'kysely';
import { type AnyDb, index } from './helpers.js';

/**
 * A page of households shows each one's risk-profiling result, looked up by household. Without an
 * index on it, every page read all of the firm's risk-profiling clients (one a household in a firm
 * that profiles everyone).
 */
export const riskClientsByHousehold: Migration = {
  async up(db: AnyDb) {
    await index(db, 'risk_clients', ['household_id']);
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('risk_clients_household_id_ix').execute();
  },
};
