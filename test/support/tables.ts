import type { TableMetadata } from 'kysely';
import type { Db } from '../../src/db/database.js';

/**
 * The tables of the suite's own schema, as Kysely's introspection describes them. The introspection
 * lists every schema's columns: a parallel suite dropping its schema at that moment fails the
 * listing (see retryBookkeeping in src/db/database.ts), so it is tried again.
 */
export async function tablesOf(db: Db): Promise<TableMetadata[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await db.kysely.introspection.getTables()).filter((t) => !db.schema || t.schema === db.schema);
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
