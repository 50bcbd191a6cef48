import { type Migration, sql } from 'kysely';
import { type AnyDb, isPostgres } from './helpers.js';

/**
 * PostgreSQL checks a foreign key with a trigger fired for every row written, each a query of its
 * own (about 5 µs a key a row on our machines): for the tables written by the million (trades and
 * batch messages by a rebalance, positions and their lots by an import) those checks cost three
 * times the rows' own insert. A statement-checked key keeps every guarantee of the foreign key it
 * replaces, checked once a statement over all its rows (docs/decisions/statement-checked-keys.md):
 *
 * - rows written (insert or `COPY`): after the statement, the distinct parent keys of its new rows
 *   are locked `for key share`, as the per-row check locks each, and every one must be found;
 * - a row whose key columns change: checked and locked the same way, for that row;
 * - a parent row deleted: its children are deleted (`cascade`) or, when some remain, the statement
 *   fails (`no action`), with a fresh snapshot, so children a concurrent writer committed are seen;
 * - a parent's key changed while a child still names the old key, or a parent truncated while
 *   the child has rows: the statement fails.
 *
 * Errors carry the code (23503), the constraint's name, the table and the text of PostgreSQL's own.
 * A writer and a deleter of the same parent serialize on the parent's row lock, as with the foreign
 * key: the deleter waits for the writer's commit, then sees its rows; the writer waits for the
 * deleter's, then finds no parent. Each trigger's comment holds the key as JSON, so a check of
 * the schema (the seed's test for dangling rows) finds these keys beside the catalog's.
 */
export interface StatementCheckedKey {
  /** The foreign key it replaces: errors carry this name. */
  name: string;
  table: string;
  columns: string[];
  parent: string;
  parentColumns: string[];
  onDelete: 'no action' | 'cascade';
}

/** The text a trigger's comment starts with; the JSON of its key follows. */
export const KEY_COMMENT = 'statement-checked key ';

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
const list = (names: string[], prefix = '') => names.map((n) => prefix + ident(n)).join(', ');
const tuple = (names: string[], prefix: string) => (names.length === 1 ? `${prefix}${ident(names[0]!)}` : `(${list(names, prefix)})`);
const matches = (left: string[], leftPrefix: string, right: string[], rightPrefix: string) =>
  left.map((c, i) => `${leftPrefix}${ident(c)} = ${rightPrefix}${ident(right[i]!)}`).join(' and ');
const notNull = (names: string[], prefix: string) => names.map((c) => `${prefix}${ident(c)} is not null`).join(' and ');
/** `(a, b)=(1, 2)` as PostgreSQL's own messages write a key: `labels` named, the values of `names` read. */
const keyText = (names: string[], prefix: string, labels = names) => `format('(%s)=(%s)', ${literal(labels.join(', '))}, concat_ws(', ', ${list(names, prefix)}))`;

function functionsOf(key: StatementCheckedKey) {
  const { name, table, columns, parent, parentColumns } = key;
  const refusedWrite = `'insert or update on table "${table}" violates foreign key constraint "${name}"'`;
  const refusedParent = `'update or delete on table "${parent}" violates foreign key constraint "${name}" on table "${table}"'`;
  const raise = (message: string, detail: string) =>
    `raise exception using message = ${message}, errcode = 'foreign_key_violation', constraint = ${literal(name)}, table = ${literal(table)}, detail = ${detail};`;
  const stillReferenced = (key: string) => `format('Key %s is still referenced from table "%s".', ${key}, ${literal(table)})`;
  const notPresent = (key: string) => `format('Key %s is not present in table "%s".', ${key}, ${literal(parent)})`;

  // Each distinct key of the new rows is looked up in the parent's index with its row locked
  // inside the lookup, as the per-row check looks up and locks each row's: a parent a concurrent
  // transaction deletes is found missing once that transaction commits, and every parent found
  // stays locked until this one ends. The first key without a parent is named. One lookup a
  // distinct key, not a row: 5,000 trades of one trade instance look the instance up once.
  const written = `declare missing text;
begin
  select ${keyText(columns, 'k.')} into missing
    from (select distinct ${list(columns, 'n.')} from new_rows n where ${notNull(columns, 'n.')}) k
    where not exists (select 1 from ${ident(parent)} p where ${matches(parentColumns, 'p.', columns, 'k.')} for key share of p)
    limit 1;
  if found then ${raise(refusedWrite, notPresent('missing'))} end if;
  return null;
end`;
  const rowWritten = `begin
  if ${columns.map((c) => `new.${ident(c)} is null`).join(' or ')} then return null; end if;
  perform 1 from ${ident(parent)} p where ${matches(parentColumns, 'p.', columns, 'new.')} for key share of p;
  if not found then ${raise(refusedWrite, notPresent(keyText(columns, 'new.')))} end if;
  return null;
end`;
  // A key deleted is still referenced unless a parent row of the same key stands (as PostgreSQL's
  // own no-action check allows).
  const deleted =
    key.onDelete === 'cascade'
      ? `begin
  delete from ${ident(table)} c where ${tuple(columns, 'c.')} in (select ${list(parentColumns, 'o.')} from old_rows o);
  return null;
end`
      : `declare referenced text;
begin
  select ${keyText(columns, 'c.', parentColumns)} into referenced from ${ident(table)} c
    where ${tuple(columns, 'c.')} in (select ${list(parentColumns, 'o.')} from old_rows o)
      and not exists (select 1 from ${ident(parent)} p where ${matches(parentColumns, 'p.', columns, 'c.')}) limit 1;
  if referenced is not null then ${raise(refusedParent, stillReferenced('referenced'))} end if;
  return null;
end`;
  const rekeyed = `begin
  if exists (select 1 from ${ident(table)} c where ${matches(columns, 'c.', parentColumns, 'old.')})
    and not exists (select 1 from ${ident(parent)} p where ${matches(parentColumns, 'p.', parentColumns, 'old.')}) then
    ${raise(refusedParent, stillReferenced(keyText(parentColumns, 'old.')))}
  end if;
  return null;
end`;
  const truncated = `begin
  if exists (select 1 from ${ident(table)} limit 1) then
    raise exception using message = ${literal(`cannot truncate a table referenced in a foreign key constraint`)}, errcode = 'feature_not_supported',
      detail = ${literal(`Table "${table}" references "${parent}" (key "${name}").`)}, hint = ${literal(`Truncate table "${table}" at the same time.`)};
  end if;
  return null;
end`;
  return { written, row_written: rowWritten, deleted, rekeyed, truncated };
}

const changed = (names: string[]) => names.map((c) => `old.${ident(c)} is distinct from new.${ident(c)}`).join(' or ');

// `search_path from current`: a session with another search path (an operator's psql writing
// schema-qualified rows) still checks against this schema's tables. No sequential scans or hash and
// merge joins: the planner knows nothing of a transition table's keys and would scan a whole parent
// table (100,000 accounts) for every chunk's handful of keys; each distinct key is looked up in an
// index, as the foreign key looked up each row's.
const createFunction = (name: string, suffix: string, body: string, replace = false) =>
  `create ${replace ? 'or replace ' : ''}function ${ident(`${name}_${suffix}`)}() returns trigger language plpgsql set search_path from current set enable_seqscan = off set enable_hashjoin = off set enable_mergejoin = off as $body$\n${body}\n$body$`;

/** Drops the foreign key `key.name` and checks it by statement in its place (PostgreSQL only). */
export async function checkKeyByStatement(db: AnyDb, key: StatementCheckedKey): Promise<void> {
  const { name, table, columns, parent, parentColumns } = key;
  const bodies = functionsOf(key);
  const fn = (suffix: string) => ident(`${name}_${suffix}`);
  const statements = [
    `alter table ${ident(table)} drop constraint ${ident(name)}`,
    ...Object.entries(bodies).map(([suffix, body]) => createFunction(name, suffix, body)),
    `create trigger ${fn('written')} after insert on ${ident(table)} referencing new table as new_rows for each statement execute function ${fn('written')}()`,
    `create trigger ${fn('row_written')} after update of ${list(columns)} on ${ident(table)} for each row when (${changed(columns)}) execute function ${fn('row_written')}()`,
    `create trigger ${fn('deleted')} after delete on ${ident(parent)} referencing old table as old_rows for each statement execute function ${fn('deleted')}()`,
    `create trigger ${fn('rekeyed')} after update of ${list(parentColumns)} on ${ident(parent)} for each row when (${changed(parentColumns)}) execute function ${fn('rekeyed')}()`,
    `create trigger ${fn('truncated')} after truncate on ${ident(parent)} for each statement execute function ${fn('truncated')}()`,
    `comment on trigger ${fn('written')} on ${ident(table)} is ${literal(KEY_COMMENT + JSON.stringify(key))}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/**
 * Gives an existing statement-checked key the check after an insert that `functionsOf` writes now
 * (its triggers call the function by name, so they stay as they are).
 */
export async function replaceWrittenCheck(db: AnyDb, key: StatementCheckedKey): Promise<void> {
  await sql.raw(createFunction(key.name, 'written', functionsOf(key).written, true)).execute(db);
}

/** Undoes `checkKeyByStatement`: the foreign key as it was. */
export async function restoreForeignKey(db: AnyDb, key: StatementCheckedKey): Promise<void> {
  const { name, table, columns, parent, parentColumns, onDelete } = key;
  // Dropping the functions takes their triggers along.
  for (const suffix of ['written', 'row_written', 'deleted', 'rekeyed', 'truncated']) await sql.raw(`drop function if exists ${ident(`${name}_${suffix}`)}() cascade`).execute(db);
  await sql
    .raw(`alter table ${ident(table)} add constraint ${ident(name)} foreign key (${list(columns)}) references ${ident(parent)} (${list(parentColumns)}) on delete ${onDelete}`)
    .execute(db);
}

/** A migration making `keys` statement-checked on PostgreSQL (up) and foreign keys again (down); nothing on SQLite. */
export function keysCheckedByStatement(keys: readonly StatementCheckedKey[]): Migration {
  return {
    async up(db: AnyDb) {
      if (!isPostgres(db)) return;
      for (const key of keys) await checkKeyByStatement(db, key);
    },
    async down(db: AnyDb) {
      if (!isPostgres(db)) return;
      for (const key of keys) await restoreForeignKey(db, key);
    },
  };
}
