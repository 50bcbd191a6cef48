import { PostgresAdapter, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * The few column shapes that differ between SQLite and PostgreSQL, so that every
 * migration is written once with the schema builder.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export const isPostgres = (db: AnyDb): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

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
