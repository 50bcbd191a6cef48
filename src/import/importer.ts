import type { Db } from '../db/database.js';
import { inWriteTransaction, writeTables } from '../seed/repository.js';
import { checkSleeveTotals, emptyTables, handleRow, type ImportTables } from './entities.js';
import { firmExists, loadHeld, loadLookups, Lookups } from './lookups-repository.js';
import { ENTITIES, type Entity, type ImportIssue, readSource, type SourceRow } from './sources.js';

export type { ImportIssue } from './sources.js';

export interface ImportReport {
  ok: boolean;
  firmId: number;
  files: string[];
  /** Rows read per entity. */
  read: Record<Entity, number>;
  /** Rows written per entity; all zero unless `ok`. */
  imported: Record<Entity, number>;
  /** Every bad row, by file and line; any entry means nothing was written. */
  errors: ImportIssue[];
}

export interface ImportOptions {
  /** Audit name for created_by / edited_by. */
  by?: string;
  now?: () => Date;
}

const counts = (): Record<Entity, number> => Object.fromEntries(ENTITIES.map((e) => [e, 0])) as Record<Entity, number>;

/**
 * Loads a book from CSV and JSON files into one firm (formats: docs/import.md). Every row is
 * validated first, against the firm and against the rows before it in entity order (broker/
 * dealers, representatives, products, clients, registrations, accounts, positions), so files
 * may come in any order. One bad row anywhere and nothing is written.
 */
export async function importBook(db: Db, firmId: number, files: string[], options: ImportOptions = {}): Promise<ImportReport> {
  const errors: ImportIssue[] = [];
  const read = counts();
  const imported = counts();
  const report = (): ImportReport => ({ ok: errors.length === 0, firmId, files, read, imported, errors: sortIssues(errors, files) });
  if (files.length === 0) {
    errors.push({ file: '', line: 0, field: '(files)', message: 'no files given' });
    return report();
  }

  const rows: SourceRow[] = [];
  for (const file of files) {
    const fromFile = await readSource(file, errors);
    const refused = errors.some((e) => e.file === file);
    // An empty or header-only file is a mistake (a failed export, the wrong file), not "nothing to do".
    if (fromFile.length === 0 && !refused) errors.push({ file, line: 0, field: '(file)', message: 'holds no rows' });
    // One row at a time: spreading a 500,000-row file into push() overflows the call stack.
    for (const row of fromFile) rows.push(row);
  }
  for (const row of rows) read[row.entity]++;
  const byEntity = ENTITIES.map((entity) => rows.filter((r) => r.entity === entity));

  // Validation runs inside the write transaction so that no other writer can take a number or
  // ticker between the check and the insert.
  await inWriteTransaction(db, async (conn) => {
    if (!(await firmExists(conn, firmId))) {
      errors.push({ file: '', line: 0, field: 'firmId', message: `no firm with id ${firmId}` });
      return;
    }
    const lookups = await loadLookups(conn, firmId, new Set(rows.map((r) => r.entity)));
    const tables = emptyTables();
    for (const entityRows of byEntity) {
      if (entityRows[0]?.entity === 'positions') await loadHeld(conn, lookups, existingAccountsOf(entityRows, lookups));
      for (const row of entityRows) handleRow(row, lookups, tables, errors);
    }
    checkSleeveTotals(lookups, errors);
    if (errors.length > 0) return;
    const at = (options.now ?? (() => new Date()))().toISOString();
    await writeTables(conn, db.dialect, firmId, tables, lookups.known(), { at, by: options.by ?? 'import' });
    for (const entity of ENTITIES) imported[entity] = tables[entity as keyof ImportTables].length;
  });
  return report();
}

/** Ids of the already stored accounts that position rows name: only those can clash. */
function existingAccountsOf(rows: SourceRow[], lookups: Lookups): number[] {
  const stored = lookups.accounts.ids;
  const ids = new Set<number>();
  for (const row of rows) {
    const number = row.values.get('account');
    if (typeof number !== 'string' && typeof number !== 'number') continue;
    const index = lookups.accountByNumber.get(Lookups.key(String(number)));
    if (index !== undefined && index < stored.length) ids.add(stored[index] as number);
  }
  return [...ids];
}

/** In the order the files were given, then by line. */
function sortIssues(issues: ImportIssue[], files: string[]): ImportIssue[] {
  const order = (file: string) => (file === '' ? -1 : files.indexOf(file));
  return [...issues].sort((a, b) => order(a.file) - order(b.file) || a.line - b.line);
}

/** One line per problem, the way a person fixing the file reads it. */
export function formatImportReport(report: ImportReport): string {
  if (report.ok) {
    const written = Object.entries(report.imported)
      .filter(([, n]) => n > 0)
      .map(([entity, n]) => `${n} ${entity}`);
    return `imported ${written.join(', ') || 'nothing'} into firm ${report.firmId}`;
  }
  const lines = report.errors.map((e) => `${e.file}:${e.line}: ${e.field}: ${e.message}`);
  return [...lines, `${report.errors.length} problem(s); nothing was written`].join('\n');
}
