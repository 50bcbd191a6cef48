import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * PostgreSQL: the trigram GIN indexes of migration 0026 keep a pending list of at most 64 kB
 * (`gin_pending_list_limit`, the server's default being 4 MB), and the list they hold now is merged.
 *
 * New rows wait in an unsorted pending list until a vacuum merges it or it outgrows the limit, and
 * every search reads the whole list: after 117,000 accounts were imported, the account search took
 * 15 to 50 ms with 13,000 entries pending and 0.1 to 0.3 ms once they were merged. With at most
 * 64 kB pending a search stays under 0.2 ms, and inserting 30,000 accounts' names and numbers took
 * 4 to 6 s against 2 s with 4 MB and 20 to 23 s with no list at all (`fastupdate = off`), measured
 * side by side with psql (docs/decisions/eclipse-search-indexes.md). Nothing to do on SQLite
 * (FTS5 has no such list) or where pg_trgm was not had (no indexes).
 */
const TRIGRAM_INDEXES = ['accounts_name_trgm_ix', 'accounts_number_trgm_ix', 'registrations_name_trgm_ix'] as const;

async function existing(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = current_schema() and indexname in (${sql.join([...TRIGRAM_INDEXES])})`.execute(db);
  return rows.map((r) => r.name);
}

export const searchIndexUpkeep: Migration = {
  async up(db: AnyDb) {
    if (!isPostgres(db)) return;
    for (const name of await existing(db)) {
      await sql`alter index ${sql.id(name)} set (gin_pending_list_limit = 64)`.execute(db);
      // Entries already pending stay in the list until merged; merge them now.
      await sql`select gin_clean_pending_list(${name}::regclass)`.execute(db);
    }
  },
  async down(db: AnyDb) {
    if (!isPostgres(db)) return;
    for (const name of await existing(db)) await sql`alter index ${sql.id(name)} reset (gin_pending_list_limit)`.execute(db);
  },
};
