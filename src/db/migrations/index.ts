import type { Migration, MigrationProvider } from 'kysely';
import { book } from './0001_book.js';
import { auth } from './0002_auth.js';

/** Ordered by name; a new migration is a new entry, never an edit of a shipped one. */
const migrations: Record<string, Migration> = {
  '0001_book': book,
  '0002_auth': auth,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
