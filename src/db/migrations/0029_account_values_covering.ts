import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * On PostgreSQL the key of `account_values` carries the row's other columns (`include`), so an
 * account's history is read from the index alone: the daily valuation writes one date for every
 * account at once, so one account's ~780 rows of three years lie on ~780 different table pages, and
 * an index-only scan reads about ten. SQLite stores the table in key order already (WITHOUT ROWID).
 */
export const accountValuesCovering: Migration = {
  async up(db: AnyDb) {
    if (!isPostgres(db)) return;
    await sql`alter table account_values drop constraint account_values_pk, add constraint account_values_pk primary key (firm_id, account_id, value_date) include (market_value_cents, net_flow_cents, fees_cents, income_cents)`.execute(db);
  },
  async down(db: AnyDb) {
    if (!isPostgres(db)) return;
    await sql`alter table account_values drop constraint account_values_pk, add constraint account_values_pk primary key (firm_id, account_id, value_date)`.execute(db);
  },
};
