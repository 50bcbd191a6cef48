import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { insertFirm } from '../seed/repository.js';
import { type Db, openDatabase } from './database.js';
import { preparedQuery } from './prepared.js';

const wholeFirm = preparedQuery((db, code: string) => db.selectFrom('firms').selectAll().where('code', '=', code));
const firmNamed = preparedQuery((db, code: string) => db.selectFrom('firms').select(['id', 'name']).where('code', '=', code));

describeEachDatabase('preparedQuery', (database) => {
  let target: { db: Db; drop(): Promise<void> };

  beforeAll(async () => {
    target = await database.open();
    await insertFirm(target.db.kysely, { name: 'Prepared', code: 'PREP', created_at: '2026-01-01T00:00:00.000Z' });
  });
  afterAll(() => target?.drop());

  it('reads what a query built for each call reads, with its arguments', async () => {
    const built = await target.db.kysely.selectFrom('firms').select(['id', 'name']).where('code', '=', 'PREP').execute();
    expect((await firmNamed(target.db.kysely, 'PREP')).rows).toEqual(built);
    expect((await firmNamed(target.db.kysely, 'NONE')).rows).toEqual([]);
  });

  it("never reads another request's uncommitted transaction: the read waits for it to end", async () => {
    let read: Promise<unknown[]> | undefined;
    let settledInside = false;
    await target.db.kysely.transaction().execute(async (trx) => {
      await insertFirm(trx, { name: 'Uncommitted', code: 'UNCOMMITTED', created_at: '2026-01-01T00:00:00.000Z' });
      read = firmNamed(target.db.kysely, 'UNCOMMITTED').then((r) => r.rows);
      void read.then(() => (settledInside = true));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // SQLite has one connection: the read waits for the transaction. PostgreSQL reads on another
      // connection and sees nothing uncommitted.
      if (target.db.dialect === 'sqlite') expect(settledInside).toBe(false);
      else expect(await read).toEqual([]);
      throw new Error('roll back');
    }).catch((error: Error) => expect(error.message).toBe('roll back'));
    expect(await read).toEqual([]);
    expect((await firmNamed(target.db.kysely, 'UNCOMMITTED')).rows).toEqual([]);
  });

  it('inside a transaction reads what the transaction wrote', async () => {
    await target.db.kysely.transaction().execute(async (trx) => {
      await insertFirm(trx, { name: 'Own write', code: 'OWN', created_at: '2026-01-01T00:00:00.000Z' });
      expect((await firmNamed(trx, 'OWN')).rows).toEqual([expect.objectContaining({ name: 'Own write' })]);
    });
  });

  it('reads on after a column is added under it (a statement PostgreSQL will not reuse runs unnamed)', async () => {
    for (let i = 0; i < 7; i++) expect((await wholeFirm(target.db.kysely, 'PREP')).rows).toHaveLength(1);
    await sql`alter table firms add column probe_added integer`.execute(target.db.kysely);
    for (let i = 0; i < 3; i++) {
      const [row] = (await wholeFirm(target.db.kysely, 'PREP')).rows as Record<string, unknown>[];
      expect(row).toMatchObject({ name: 'Prepared', probe_added: null });
    }
  });

  it('reads on when the server no longer knows a statement it prepared (a pooler gave another connection)', async () => {
    if (database.config.dialect !== 'postgres') return;
    // One connection, so the statement dropped is the one the client believes prepared.
    const one = openDatabase({ ...database.config, poolSize: 1 }, { schema: target.db.schema });
    try {
      for (let i = 0; i < 3; i++) expect((await firmNamed(one.kysely, 'PREP')).rows).toHaveLength(1);
      await sql`deallocate all`.execute(one.kysely);
      for (let i = 0; i < 3; i++) expect((await firmNamed(one.kysely, 'PREP')).rows).toEqual([expect.objectContaining({ name: 'Prepared' })]);
    } finally {
      await one.close();
    }
  });
});
