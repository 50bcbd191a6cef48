import type { Db } from '../db/database.js';
import { progress } from '../shared/progress.js';
import { formatImportIssue, formatImportReport, importBook } from './importer.js';

export interface ImportCommandOptions {
  /** Problems as one JSON array on stdout instead of lines on stderr. */
  json?: boolean;
  stdout?: NodeJS.WritableStream;
  /** Problems (as lines) and progress go here. */
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `wealth import`: progress while it runs, then either a summary with the rate (exit 0) or every
 * problem, one `FILE:LINE: FIELD: message` line each on stderr, or with `json` the same problems
 * as a JSON array on stdout, `[]` when there are none (exit 1, nothing written).
 */
export async function runImportCommand(db: Db, firmId: number, files: string[], options: ImportCommandOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const meter = progress({ label: 'importing', unit: 'rows', stream: stderr });
  const report = await importBook(db, firmId, files, { onProgress: (rows) => meter.update(rows) });
  const read = Object.values(report.read).reduce((a, b) => a + b, 0);
  meter.update(read);
  const seconds = meter.finish(report.ok ? undefined : 'validated');
  if (options.json) stdout.write(`${JSON.stringify(report.errors, null, 2)}\n`);
  if (!report.ok) {
    if (!options.json) for (const issue of report.errors) stderr.write(`${formatImportIssue(issue)}\n`);
    stderr.write(`${report.errors.length} problem(s); nothing was written\n`);
    return 1;
  }
  const rate = seconds > 0 ? `, ${Math.round(read / seconds).toLocaleString('en-US')} rows/s` : '';
  (options.json ? stderr : stdout).write(`${formatImportReport(report)} in ${seconds.toFixed(1)} s${rate}\n`);
  return 0;
}
