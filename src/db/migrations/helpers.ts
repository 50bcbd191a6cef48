import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import { isPostgres } from '../dialect.js';

/**
 * The few column shapes that differ between SQLite and PostgreSQL, so that every
 * migration is written once with the schema builder.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export { isPostgres };

/**
 * A migration's `down`: drops the tables its `up` created. PostgreSQL drops them in one statement
 * (cascade covers their foreign keys to each other); SQLite drops a table only after the tables
 * whose rows still point at it, so the list is retried until it is empty.
 */
export async function dropTables(db: AnyDb, tables: string[]) {
  if (isPostgres(db)) {
    await sql`drop table if exists ${sql.join(tables.map((t) => sql.table(t)))} cascade`.execute(db);
    return;
  }
  let left = [...tables];
  for (let pass = 0; left.length > 0 && pass <= tables.length; pass++) {
    const failed: string[] = [];
    for (const table of left) await db.schema.dropTable(table).ifExists().execute().catch(() => failed.push(table));
    left = failed;
  }
  if (left.length > 0) throw new Error(`could not drop ${left.join(', ')}`);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withId<T extends string>(db: AnyDb, table: CreateTableBuilder<T, any>) {
  return isPostgres(db)
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Table with id and firm_id: every row belongs to one firm. */
export function firmTable(db: AnyDb, name: string) {
  return withId(db, db.schema.createTable(name)).addColumn('firm_id', 'integer', (c) =>
    c.notNull().references('firms.id'),
  );
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withAudit<T extends string>(table: CreateTableBuilder<T, any>) {
  return table
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text', (c) => c.notNull())
    .addColumn('edited_by', 'text', (c) => c.notNull());
}

export async function index(db: AnyDb, table: string, columns: string[], unique = false) {
  let builder = db.schema.createIndex(`${table}_${columns.join('_')}_${unique ? 'uq' : 'ix'}`).on(table).columns(columns);
  if (unique) builder = builder.unique();
  await builder.execute();
}
