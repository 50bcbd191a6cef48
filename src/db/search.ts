import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

/**
 * A search term as people type it: a number (an id, or digits of an account number), part of a
 * name, or a ticker. Matched case-insensitively anywhere in the text; `\` escapes the LIKE
 * wildcards the user typed. docs/decisions/eclipse-search-indexes.md.
 */
export interface SearchTerm {
  /** The term as typed, trimmed. */
  text: string;
  /** Lower-cased `%term%` for `like … escape '\'`. */
  pattern: string;
  /** The term as an id when it is all digits. */
  id: number | null;
}

export function searchTerm(text: string): SearchTerm {
  const trimmed = text.trim().toLowerCase();
  return { text: text.trim(), pattern: `%${trimmed.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, id: /^\d{1,9}$/.test(trimmed) ? Number(trimmed) : null };
}

export const likeTerm = (column: string, term: SearchTerm) => sql<boolean>`lower(${sql.ref(column)}) like ${term.pattern} escape '\\'`;

/** The shortest term the trigram indexes find: a shorter one is matched by reading the rows in id order. */
const TRIGRAM = 3;

/** The FTS5 trigram tables of migration 0026 (SQLite), each over its table's text columns. */
export type SearchTable = 'accounts_search' | 'registrations_search';

/** Whether the term is looked up in a SQLite FTS5 trigram table. */
export const usesTrigramTable = (db: Kysely<Database>, term: SearchTerm) => !isPostgres(db) && term.text.length >= TRIGRAM;

/** Whether an index can find the term (SQLite's FTS5 tables, PostgreSQL's trigram GIN indexes): three characters or more. */
export const indexable = (term: SearchTerm) => term.text.length >= TRIGRAM;

/**
 * Rows whose `columns` contain the term, case-insensitively, or (`byId`) whose id it is. On SQLite
 * a term of three characters or more is looked up in the table's FTS5 trigram index (migration
 * 0026) as a phrase, which is a substring; on PostgreSQL the LIKE itself uses the trigram GIN
 * indexes when pg_trgm was available (the planner's choice), and reads the rows otherwise.
 */
export function textMatch(db: Kysely<Database>, id: string, search: SearchTable, columns: { ref: string; name: string }[], term: SearchTerm, byId: boolean): RawBuilder<boolean> {
  if (!usesTrigramTable(db, term)) {
    const likes = columns.map((c) => likeTerm(c.ref, term));
    return sql<boolean>`(${sql.join(byId && term.id !== null ? [sql`${sql.ref(id)} = ${term.id}`, ...likes] : likes, sql` or `)})`;
  }
  return sql<boolean>`${sql.ref(id)} in (${byId && term.id !== null ? sql`${ftsIds(search, columns, term)} union all select ${term.id}` : ftsIds(search, columns, term)})`;
}

/** The rowids (the rows' ids) of a SQLite FTS5 trigram table whose columns contain the term. */
export function ftsIds(search: SearchTable, columns: { name: string }[], term: SearchTerm) {
  const phrase = `"${term.text.replace(/"/g, '""')}"`;
  const query = columns.length === 1 ? `${columns[0]!.name} : ${phrase}` : `{${columns.map((c) => c.name).join(' ')}} : ${phrase}`;
  return sql`select rowid from ${sql.table(search)} where ${sql.table(search)} match ${query}`;
}

/**
 * The firm column to compare. Beside a trigram lookup it is written `+firm_id`, which keeps SQLite
 * from walking the firm's (firm_id, id) index in id order and testing every account against the
 * matches, a cost that grows with the firm; it reads the matches by id instead, a cost that grows
 * with the matches.
 */
export const firmColumn = (db: Kysely<Database>, column: string, term: SearchTerm | undefined) =>
  term && usesTrigramTable(db, term) ? sql<number>`+${sql.ref(column)}` : sql<number>`${sql.ref(column)}`;

/**
 * Accounts (`a`, joined to their registration `r`) whose number, name or registration's name
 * contains the term, or whose id it is. A term the indexes find is looked up in them: the ids of
 * the matching accounts, with those of the accounts of the matching registrations (two lookups,
 * which an `or` across the two tables could not use); a shorter one is compared row by row.
 */
export function accountOrRegistrationMatch(db: Kysely<Database>, term: SearchTerm): RawBuilder<boolean> {
  if (!indexable(term)) {
    const clauses = [likeTerm('a.number', term), likeTerm('a.name', term), likeTerm('r.name', term)];
    return sql<boolean>`(${sql.join(term.id === null ? clauses : [sql`${sql.ref('a.id')} = ${term.id}`, ...clauses], sql` or `)})`;
  }
  const fts = usesTrigramTable(db, term);
  const accounts = fts ? ftsIds('accounts_search', [{ name: 'number' }, { name: 'name' }], term) : sql`select id from accounts where ${likeTerm('number', term)} or ${likeTerm('name', term)}`;
  const registrations = fts ? ftsIds('registrations_search', [{ name: 'name' }], term) : sql`select id from registrations where ${likeTerm('name', term)}`;
  const byRegistration = sql`select id from accounts where registration_id in (${registrations})`;
  const ids = term.id === null ? sql`${accounts} union all ${byRegistration}` : sql`${accounts} union all ${byRegistration} union all select ${term.id}`;
  return sql<boolean>`${sql.ref('a.id')} in (${ids})`;
}
