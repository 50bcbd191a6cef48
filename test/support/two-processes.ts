import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseConfig } from '../../src/config.js';
import { type Db, migrateToLatest, openDatabase } from '../../src/db/database.js';
import type { TestDatabase } from './databases.js';

/**
 * One fresh database opened twice, as two processes serving it hold it (a firm's nodes behind a
 * load balancer; on SQLite the second as a CLI would): PostgreSQL two pools on one schema,
 * SQLite two connections to one file. `close` closes both and drops the database.
 */
export async function openTwice(database: TestDatabase, name: string): Promise<{ opened: { config: DatabaseConfig; db: Db }[]; close: () => Promise<void> }> {
  if (database.name === 'postgres') {
    const first = await database.open();
    const second = openDatabase(database.config, { schema: first.db.schema });
    return {
      opened: [
        { config: database.config, db: first.db },
        { config: database.config, db: second },
      ],
      close: async () => {
        await second.close();
        await first.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), `wealth-${name}-`));
  const config: DatabaseConfig = { dialect: 'sqlite', file: join(dir, 'book.sqlite') };
  const first = openDatabase(config);
  await migrateToLatest(first);
  const second = openDatabase(config);
  return {
    opened: [
      { config, db: first },
      { config, db: second },
    ],
    close: async () => {
      await first.close();
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Waits until `done` holds, for at most `ms`: another process hears of a change a moment after it. */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > ms) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
