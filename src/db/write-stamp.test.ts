import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import type { Db } from './database.js';
import { changesData, mayWrite } from './observed-dialect.js';

/**
 * The write stamp the response cache keys on: it must move after every write this process
 * commits, stay put for reads, and (SQLite) say nothing while a transaction is open.
 */
describeEachDatabase('write stamp', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(async () => drop());

  const firm = (code: string) => ({ name: `Stamp ${code}`, code, multi_trade_block: 1 as const, trade_block_dates: 1 as const, trade_block_custom_types: 0 as const, default_asset_values: 'PendingTransactionsAndOrders', created_at: new Date().toISOString() });

  it('stays put for reads and moves after a write', async () => {
    const before = db.writeStamp();
    expect(before).toBeDefined();
    await db.kysely.selectFrom('firms').selectAll().execute();
    await sql`select count(*) from firms`.execute(db.kysely);
    expect(db.writeStamp()).toBe(before);
    await db.kysely.insertInto('firms').values(firm('S1')).execute();
    expect(db.writeStamp()).not.toBe(before);
  });

  it('moves when a transaction that wrote commits, and not for one that only read', async () => {
    const before = db.writeStamp();
    await db.kysely.transaction().execute(async (trx) => {
      await trx.selectFrom('firms').selectAll().execute();
      // SQLite says nothing while the one connection holds a transaction open.
      if (database.name === 'sqlite') expect(db.writeStamp()).toBeUndefined();
    });
    expect(db.writeStamp()).toBe(before);
    await db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('firms').values(firm('S2')).execute();
      if (database.name === 'postgres') expect(db.writeStamp()).toBe(before);
    });
    expect(db.writeStamp()).not.toBe(before);
  });

  it('takes a write to the sign-in and token tables for no change of data, any other write for one', () => {
    const tokens = db.kysely.updateTable('access_tokens').set({ revoked_at: 'now' }).where('id', '=', 1);
    expect(changesData(tokens.compile())).toBe(false);
    expect(changesData(db.kysely.deleteFrom('refresh_tokens').where('id', '=', 1).compile())).toBe(false);
    expect(changesData(db.kysely.insertInto('sign_in_failures').values({ key: 'k', failures: 1, window_started_at: 'now', locked_until: null }).compile())).toBe(false);
    expect(changesData(db.kysely.updateTable('users').set({ is_active: 0 }).where('id', '=', 1).compile())).toBe(true);
    expect(changesData(db.kysely.deleteFrom('trade_block_details').where('id', '=', 1).compile())).toBe(true);
    expect(changesData(sql`update access_tokens set revoked_at = 'now'`.compile(db.kysely))).toBe(true);
    expect(changesData(db.kysely.selectFrom('access_tokens').selectAll().compile())).toBe(false);
  });

  it('does not move on PostgreSQL for a transaction rolled back', async () => {
    const before = db.writeStamp();
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx.insertInto('firms').values(firm('S3')).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    if (database.name === 'postgres') expect(db.writeStamp()).toBe(before);
    expect(await db.kysely.selectFrom('firms').select('id').where('code', '=', 'S3').execute()).toEqual([]);
  });
});

it('takes raw SQL for a write unless it plainly reads', () => {
  const raw = (text: unknown) => ({ sql: text as string, parameters: [], query: { kind: 'RawNode' }, queryId: { queryId: 'q' } }) as never;
  expect(mayWrite(raw('select 1'))).toBe(false);
  expect(mayWrite(raw('  (select 1) union (select 2)'))).toBe(false);
  expect(mayWrite(raw('update firms set name = name'))).toBe(true);
  expect(mayWrite(raw('with x as (delete from firms returning id) select * from x'))).toBe(true);
  expect(mayWrite(raw('select * from firms; delete from firms'))).toBe(true);
  expect(mayWrite(raw({ pipe() {} }))).toBe(true);
  expect(mayWrite({ sql: 'select 1', parameters: [], query: { kind: 'SelectQueryNode' }, queryId: { queryId: 'q' } } as never)).toBe(false);
  expect(mayWrite({ sql: 'insert', parameters: [], query: { kind: 'InsertQueryNode' }, queryId: { queryId: 'q' } } as never)).toBe(true);
});
