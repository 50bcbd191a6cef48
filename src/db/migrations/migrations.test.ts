import { Migrator, NO_MIGRATIONS } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, tablesOf } from '../../../test/support/databases.js';
import { type Db, migrateToLatest, retryBookkeeping } from '../database.js';
import { migrationProvider } from './index.js';

/** Every migration can be undone: all the way down leaves no table, and up again restores them all. */
describeEachDatabase('migrations down and up', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(async () => drop());

  const tables = async () =>
    (await tablesOf(db))
      .filter((t) => !t.name.startsWith('kysely_'))
      .map((t) => t.name)
      .sort();

  it('goes down to no table and back up to the same tables', async () => {
    const migrated = await tables();
    expect(migrated.length).toBeGreaterThan(50);
    const migrator = new Migrator({ db: db.kysely, provider: migrationProvider, migrationTableSchema: db.schema });
    const down = await retryBookkeeping(() => migrator.migrateTo(NO_MIGRATIONS));
    expect(down.error).toBeUndefined();
    expect(await tables()).toEqual([]);
    await migrateToLatest(db);
    expect(await tables()).toEqual(migrated);
  });
});
