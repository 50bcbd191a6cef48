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
