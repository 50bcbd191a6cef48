import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * PostgreSQL: every table of the schema notifies the schema's data channel on commit, once per
 * statement that changed it (the table's name as payload), so that every process serving the
 * database learns at once that what it cached may be stale (src/db/data-changes.ts, which names
 * the channel the same way). Left out are the tables of sign-in and tokens: they change with every
 * login and token refresh, nothing cached is read from them, and revocations travel on their own
 * channel (src/auth/revocations.ts). A table added later gets its trigger from `notifyChanges`.
 * Nothing to do on SQLite, where the connection itself tells of writes.
 */
export const UNANNOUNCED_TABLES = ['access_tokens', 'authorization_codes', 'refresh_tokens', 'oauth_flows', 'sign_in_failures'] as const;

export async function notifyChanges(db: AnyDb, table: string): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`create trigger wealth_data_changed after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function wealth_data_changed()`.execute(db);
}

export const dataChangeNotifications: Migration = {
  async up(db: AnyDb) {
    if (!isPostgres(db)) return;
    // Channel names are at most 63 bytes; schema names here are ASCII, so characters are bytes.
    await sql`create function wealth_data_changed() returns trigger language plpgsql as $$
begin
  perform pg_notify(left('wealth_data_' || tg_table_schema, 63), tg_table_name);
  return null;
end
$$`.execute(db);
    const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      and table_name not in (${sql.join([...UNANNOUNCED_TABLES])}) order by table_name`.execute(db);
    for (const { name } of rows) await notifyChanges(db, name);
  },
  async down(db: AnyDb) {
    if (!isPostgres(db)) return;
    // Dropping the function takes every trigger calling it along.
    await sql`drop function if exists wealth_data_changed() cascade`.execute(db);
  },
};
