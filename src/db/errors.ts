/**
 * A unique index refused a write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). Services
 * check uniqueness first; this catches the concurrent writer that slipped between check and
 * insert, so the loser gets the same 400 instead of a 500.
 */
export function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string };
  if (e?.code === '23505') return e.constraint ?? e.message ?? '';
  if (e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return e.message ?? '';
  return null;
}

/**
 * PostgreSQL SQLSTATEs and socket errors that mean "the database cannot be reached right now"
 * (a failover, a restart, a DBA terminating backends, the pool unable to connect), and SQLite's
 * busy/locked/I-O errors. The request is fine; the service answers 503 and the caller retries.
 */
const UNAVAILABLE_CODES = new Set([
  '57P01', '57P02', '57P03', // admin shutdown, crash shutdown, cannot connect now
  '08000', '08001', '08003', '08004', '08006', // connection exceptions
  '53300', // too many connections
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND',
  'SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_FULL',
]);
const UNAVAILABLE_MESSAGES = /connection terminated|connection ended|timeout exceeded when trying to connect|client has encountered a connection error|client was closed and is not queryable|cannot use a pool after calling end/i;

export function databaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  return typeof e?.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
}
