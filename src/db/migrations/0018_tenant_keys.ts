import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * Trades and positions, the two tables a rebalance and a seed write by the million, each carried
 * two foreign keys for one fact: `firm_id` to firms and `account_id` to accounts. On PostgreSQL
 * every key is a trigger fired per row, and the firm's only said that some firm of that number
 * exists. One composite key `(firm_id, account_id)` to `accounts (firm_id, id)` replaces both: one
 * check a row instead of two, and a stronger one, since a trade or a position can no longer name
 * another firm's account (the account's own key still ties its firm to `firms`).
 *
 * SQLite keeps its keys: changing one there means rebuilding the table, and its checks are b-tree
 * lookups inside the same process (a rebalance's trade insert is at the driver's floor), while the
 * seed already skips them for rows it resolved itself (docs/decisions/composite-account-keys.md).
 */
const CHILDREN = ['trades', 'positions'] as const;

export const tenantKeys: Migration = {
  async up(db: AnyDb) {
    if (!isPostgres(db)) return;
    // The unique constraint's index serves the pages `where firm_id = ? order by id` as the plain
    // index of migration 0010 did, so that one goes.
    await sql`alter table accounts add constraint accounts_firm_id_id_uq unique (firm_id, id)`.execute(db);
    await sql`drop index accounts_firm_id_id_ix`.execute(db);
    for (const table of CHILDREN) {
      await sql`alter table ${sql.table(table)}
        drop constraint ${sql.id(`${table}_firm_id_fkey`)},
        drop constraint ${sql.id(`${table}_account_id_fkey`)},
        add constraint ${sql.id(`${table}_firm_account_fk`)} foreign key (firm_id, account_id) references accounts (firm_id, id)`.execute(db);
    }
  },
  async down(db: AnyDb) {
    if (!isPostgres(db)) return;
    for (const table of CHILDREN) {
      await sql`alter table ${sql.table(table)}
        drop constraint ${sql.id(`${table}_firm_account_fk`)},
        add constraint ${sql.id(`${table}_firm_id_fkey`)} foreign key (firm_id) references firms (id),
        add constraint ${sql.id(`${table}_account_id_fkey`)} foreign key (account_id) references accounts (id)`.execute(db);
    }
    await sql`create index accounts_firm_id_id_ix on accounts (firm_id, id)`.execute(db);
    await sql`alter table accounts drop constraint accounts_firm_id_id_uq`.execute(db);
  },
};
