import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * Indexes for the searches users type (part of an account number, a name or a ticker, any case):
 * `lower(column) like '%term%'` otherwise reads every account of the firm (117,000 accounts:
 * 110 ms on SQLite on the shared bench machine). docs/decisions/eclipse-search-indexes.md.
 *
 * - SQLite: FTS5 tables with the trigram tokenizer (case-insensitive) over accounts (name, number)
 *   and registrations (name), kept by triggers; a term of 3 characters or more is looked up in
 *   them. Their rowid is the row's id; `content=` keeps no second copy of the text.
 * - PostgreSQL: trigram GIN indexes (pg_trgm) on lower(name) and lower(number), which the planner
 *   uses for the same LIKE. The extension is created in `public` when it is missing and the role
 *   may; when it cannot be (no privilege, not installed on the server) the migration goes on
 *   without these indexes and the searches scan. It never goes in a suite's or a
 *   tenant's own schema: dropping that schema would drop it for every other schema.
 */
const FTS = [
  { table: 'accounts', search: 'accounts_search', columns: ['name', 'number'] },
  { table: 'registrations', search: 'registrations_search', columns: ['name'] },
] as const;

const TRIGRAM_INDEXES = [
  { name: 'accounts_name_trgm_ix', table: 'accounts', column: 'name' },
  { name: 'accounts_number_trgm_ix', table: 'accounts', column: 'number' },
  { name: 'registrations_name_trgm_ix', table: 'registrations', column: 'name' },
] as const;

/** The schema pg_trgm is installed in, creating it in `public` when it is missing; null when it cannot be had. */
async function trigramSchema(db: AnyDb): Promise<string | null> {
  const installed = async () =>
    (await sql<{ schema: string }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.schema ?? null;
  const found = await installed();
  if (found) return found;
  // A savepoint: a failed CREATE EXTENSION (no privilege, or another migration creating it at the
  // same moment) must not abort the migration's transaction.
  await sql`savepoint pg_trgm`.execute(db);
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    await sql`release savepoint pg_trgm`.execute(db);
  } catch {
    await sql`rollback to savepoint pg_trgm`.execute(db);
  }
  return installed();
}

export const searchIndexes: Migration = {
  async up(db: AnyDb) {
    if (isPostgres(db)) {
      const schema = await trigramSchema(db);
      if (schema === null) return;
      for (const ix of TRIGRAM_INDEXES) {
        await sql`create index ${sql.id(ix.name)} on ${sql.table(ix.table)} using gin (lower(${sql.ref(ix.column)}) ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
      }
      return;
    }
    // Names and columns are this file's constants, written into the statements as they are.
    for (const { table, search, columns } of FTS) {
      const list = columns.join(', ');
      const fresh = columns.map((c) => `new.${c}`).join(', ');
      const old = columns.map((c) => `old.${c}`).join(', ');
      const statements = [
        `create virtual table ${search} using fts5(${list}, content='${table}', content_rowid='id', tokenize='trigram case_sensitive 0')`,
        `create trigger ${search}_ai after insert on ${table} begin insert into ${search}(rowid, ${list}) values (new.id, ${fresh}); end`,
        `create trigger ${search}_ad after delete on ${table} begin insert into ${search}(${search}, rowid, ${list}) values ('delete', old.id, ${old}); end`,
        `create trigger ${search}_au after update of ${list} on ${table} begin
           insert into ${search}(${search}, rowid, ${list}) values ('delete', old.id, ${old});
           insert into ${search}(rowid, ${list}) values (new.id, ${fresh});
         end`,
        `insert into ${search}(${search}) values ('rebuild')`,
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
    }
  },
  async down(db: AnyDb) {
    if (isPostgres(db)) {
      for (const ix of TRIGRAM_INDEXES) await sql`drop index if exists ${sql.id(ix.name)}`.execute(db);
      return;
    }
    for (const { search } of FTS) {
      for (const suffix of ['ai', 'ad', 'au']) await sql.raw(`drop trigger if exists ${search}_${suffix}`).execute(db);
      await sql.raw(`drop table if exists ${search}`).execute(db);
    }
  },
};
