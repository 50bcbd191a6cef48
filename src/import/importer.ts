import type { Db } from '../db/database.js';
import { analyze, type IdMap, inWriteTransaction, queueTables } from '../seed/repository.js';
import { IdsAhead } from './ids-ahead-repository.js';
import { checkSleeveTotals, emptyTables, forWriting, handleRow, type ImportTables } from './entities.js';
import { historyOf, loadHistoryLookups, loadStoredHistory, updateCurrentPrices } from '../performance/import-repository.js';
import { firmExists, loadHeld, loadLookups, Lookups } from './lookups-repository.js';
import { LotWriter } from './tax-lots.js';
import { SubstitutionImport } from './substitutions.js';
import { ENTITIES, type Entity, type ImportIssue, openSource, type Source, type SourceRow } from './sources.js';

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
  /** Called after each batch with the rows read so far, for progress output. */
  onProgress?: (rowsRead: number) => void;
}

const counts = (): Record<Entity, number> => Object.fromEntries(ENTITIES.map((e) => [e, 0])) as Record<Entity, number>;

/** Rows validated at a time (one read of held positions per batch). */
const BATCH_ROWS = 5_000;
/**
 * Validated rows kept before they are written: bounds memory whatever the files' size (on
 * PostgreSQL three times over: the rows of the write running, of the one queued behind it, and
 * those being validated).
 */
const FLUSH_ROWS = 20_000;

/** Thrown inside the transaction to roll back what was written before a problem was found. */
class ImportRefused extends Error {}

/**
 * Loads a book from CSV and JSON files into one firm (formats: docs/import.md). Every row is
 * validated against the firm and against the rows before it in entity order (broker/dealers,
 * representatives, products, clients, registrations, accounts, positions), so files may come in
 * any order. Rows stream: CSV files are read a batch at a time and validated rows are written
 * every FLUSH_ROWS inside one transaction, so memory holds a batch plus the keys later rows may
 * name (numbers, tickers, held positions), not the files. On PostgreSQL each write runs in the
 * database while the next rows are validated (docs/decisions/import-write-behind.md). One bad row anywhere and the
 * transaction rolls back: nothing is written. The planner's statistics are refreshed after a
 * successful import (see analyze).
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

  const sources: Source[] = [];
  for (const file of files) {
    const source = await openSource(file, errors);
    if (source) sources.push(source);
  }
  const present = new Set(sources.flatMap((s) => [...s.entities]));
  const rowsOf = new Map<string, number>(files.map((f) => [f, 0]));
  let rowsRead = 0;
  const written = new Set<Exclude<keyof ImportTables, 'prices'>>();

  try {
    // Validation runs inside the write transaction so that no other writer can take a number or
    // ticker between the check and the insert.
    await inWriteTransaction(db, async (conn) => {
      if (!(await firmExists(conn, firmId))) {
        errors.push({ file: '', line: 0, field: 'firmId', message: `no firm with id ${firmId}` });
        return;
      }
      const lookups = await loadLookups(conn, firmId, present);
      await loadHistoryLookups(conn, firmId, present, lookups);
      const at = (options.now ?? (() => new Date()))().toISOString();
      let known: IdMap = lookups.known();
      let tables = emptyTables();
      let pending = 0;
      // PostgreSQL: each flush's write runs in the database while the next rows are read and
      // validated here, and the next write is built and queued behind it before it ends, so the
      // database goes from one write to the next without waiting (docs/decisions/import-write-behind.md).
      // `writing` settles once every write sent since the last settle has, failing with the first
      // failure: that is the error the import throws. `newest` is the write sent last; the
      // connection runs writes in order, so once it has settled every write has.
      const ahead = db.dialect === 'postgres' ? new IdsAhead(conn) : undefined;
      let writing: Promise<void> | undefined;
      let newest: Promise<void> | undefined;
      const settle = async () => {
        const sent = writing;
        writing = undefined;
        await sent;
      };
      /** `more`: more rows of the same files follow, so the next write's ids are drawn ahead. */
      const flush = async (more: boolean) => {
        // After the first problem nothing more is written: the transaction will roll back, and
        // the row positions of later rows no longer match what was written.
        if (errors.length === 0 && pending > 0) {
          const rows = forWriting(tables);
          const counted = tables;
          let allocated: IdMap | undefined;
          try {
            allocated = await ahead?.take(rows);
          } catch (error) {
            // A draw sent behind a write that failed fails too: the write's error is the one to throw.
            await writing;
            throw error;
          }
          // The next write's ids are drawn behind this write's first table: they are there once the
          // next rows are validated, while the rest of this write runs.
          const drawAhead = more && ahead ? () => ahead.drawAhead(rows) : undefined;
          const queued = await queueTables(conn, db.dialect, firmId, rows, known, { at, by: options.by ?? 'import' }, allocated, drawAhead);
          // Each write starts from the ids of the one before it. Tax lots name positions of their
          // own batch, and no row names a lot: neither's ids are carried over (each write would
          // copy every id before it).
          known = queued.ids;
          delete known.positions;
          delete known.tax_lots;
          const done = queued.written.then(() => {
            for (const [table, list] of Object.entries(rows) as [Exclude<keyof ImportTables, 'prices'>, unknown[]][]) if (list.length > 0) written.add(table);
            for (const entity of ENTITIES) if (entity in counted) imported[entity] += counted[entity as keyof ImportTables].length;
          });
          // Awaited by a later settle; until then a failure must not count as unhandled.
          done.catch(() => {});
          newest = done;
          const before = writing;
          writing = before ? before.then(() => done) : done;
          writing.catch(() => {});
          // One write queued behind the one running, no more: memory holds the rows of those two
          // and of the flush being validated, whatever the files' size.
          await before;
          // SQLite writes in this process: there is nothing to run beside it.
          if (db.dialect === 'sqlite') await settle();
        }
        tables = emptyTables();
        pending = 0;
      };

      try {
        await readAndWrite();
      } finally {
        // Whatever went wrong, the transaction ends only once its last write and draw have: a
        // statement sent after the rollback would run on the released connection, outside any transaction.
        await newest?.catch(() => {});
        await ahead?.settled();
      }

      async function readAndWrite() {
        const lots = new LotWriter(conn, firmId, lookups);
        for (const entity of ENTITIES) {
          // Lots break up the positions written before them, and read their ids.
          if (entity === 'tax_lots') {
            await flush(false);
            await settle();
          }
          for (const source of sources) {
            if (!source.entities.has(entity)) continue;
            for await (const batch of source.batches(entity, BATCH_ROWS)) {
              if (entity === 'positions') {
                const stored = storedAccountsOf(batch, lookups);
                // Accounts this import adds have no positions to read: a book's positions go on beside the write.
                if (stored.size > 0) await settle();
                await loadHeld(conn, lookups, stored);
              }
              if (READS_STORED_HISTORY.has(entity)) await settle();
              await loadStoredHistory(conn, firmId, entity, batch, lookups);
              for (const row of batch) handleRow(row, lookups, tables, errors);
              if (entity === 'tax_lots') {
                await settle();
                imported.tax_lots += await lots.write(known, errors.length === 0);
              }
              read[entity] += batch.length;
              rowsOf.set(source.file, (rowsOf.get(source.file) ?? 0) + batch.length);
              rowsRead += batch.length;
              pending += batch.length;
              if (pending >= FLUSH_ROWS) await flush(true);
              options.onProgress?.(rowsRead);
            }
          }
        }
        // An empty or header-only file is a mistake (a failed export, the wrong file), not "nothing to do".
        for (const source of sources) {
          if (rowsOf.get(source.file) === 0 && !errors.some((e) => e.file === source.file)) {
            errors.push({ file: source.file, line: 0, field: '(file)', message: 'holds no rows' });
          }
        }
        checkSleeveTotals(lookups, errors);
        await flush(false);
        await settle();
        lots.checkSums(errors);
        await lots.replacements(known, errors);
        imported.substitutions = await new SubstitutionImport(conn, firmId, lookups).write(known, errors);
        if (errors.length > 0) throw new ImportRefused();
        if (imported.prices > 0) await updateCurrentPrices(conn, firmId, historyOf(lookups).priceDays.keys().flatMap((index) => known.products?.[index] ?? []));
      }
    });
  } catch (error) {
    if (!(error instanceof ImportRefused)) throw error;
  }
  if (errors.length > 0) {
    for (const entity of ENTITIES) imported[entity] = 0;
    return report();
  }
  // The planner needs statistics for the new rows (PostgreSQL; see analyze for SQLite).
  await analyze(db, [...written]);
  return report();
}

/** Entities whose batches loadStoredHistory reads stored rows for. */
const READS_STORED_HISTORY = new Set<Entity>(['prices', 'account_values']);

/** Ids of the already stored accounts that position rows name: only those can clash. */
function storedAccountsOf(rows: SourceRow[], lookups: Lookups): Set<number> {
  const stored = lookups.accounts.ids;
  const ids = new Set<number>();
  for (const row of rows) {
    const number = row.values.get('account');
    if (typeof number !== 'string' && typeof number !== 'number') continue;
    const index = lookups.accountByNumber.get(Lookups.key(String(number)));
    if (index !== undefined && index < stored.length) ids.add(stored[index] as number);
  }
  return ids;
}

/** In the order the files were given, then by line. */
function sortIssues(issues: ImportIssue[], files: string[]): ImportIssue[] {
  const order = (file: string) => (file === '' ? -1 : files.indexOf(file));
  return [...issues].sort((a, b) => order(a.file) - order(b.file) || a.line - b.line);
}

/** `FILE:LINE: FIELD: message`, the way compilers report, so editors and people find the row. */
export const formatImportIssue = (e: ImportIssue): string => `${e.file}:${e.line}: ${e.field}: ${e.message}`;

/** One line per problem, the way a person fixing the file reads it. */
export function formatImportReport(report: ImportReport): string {
  if (report.ok) {
    const written = Object.entries(report.imported)
      .filter(([, n]) => n > 0)
      .map(([entity, n]) => `${n} ${entity}`);
    return `imported ${written.join(', ') || 'nothing'} into firm ${report.firmId}`;
  }
  const lines = report.errors.map(formatImportIssue);
  return [...lines, `${report.errors.length} problem(s); nothing was written`].join('\n');
}
