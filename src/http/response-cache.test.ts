import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { TradeBlockService } from '../trade-blocks/service.js';
import { openTwice, until } from '../../test/support/two-processes.js';
import { describeEachDatabase, tablesOf } from '../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import { AnswerStore } from './response-cache.js';
import { createSmallBook } from '../trade-blocks/test-support.js';
import { UNANNOUNCED_TABLES } from '../db/migrations/0031_data_change_notifications.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('AnswerStore', () => {
  const answer = (text: string) => ({ headers: { 'content-type': 'application/json' }, body: Buffer.from(text) });

  it('answers only under the stamp an answer was kept at, and drops everything when the stamp moves', () => {
    const store = new AnswerStore(1024);
    store.set('a', 's1', answer('[1]'));
    expect(store.get('a', 's1')?.body.toString()).toBe('[1]');
    expect(store.get('a', 's2')).toBeUndefined();
    expect(store.size).toBe(0);
    expect(store.get('a', 's1')).toBeUndefined();
  });

  it('keeps at most its bytes, the oldest going first, and never an answer bigger than the whole', () => {
    const store = new AnswerStore(30);
    store.set('a', 's', answer('x'.repeat(10)));
    store.set('b', 's', answer('y'.repeat(10)));
    store.set('c', 's', answer('z'.repeat(10)));
    expect(store.get('a', 's')).toBeUndefined();
    expect(store.get('b', 's')?.body.length).toBe(10);
    expect(store.get('c', 's')?.body.length).toBe(10);
    store.set('d', 's', answer('w'.repeat(40)));
    expect(store.get('d', 's')).toBeUndefined();
    expect(store.size).toBe(2);
  });
});

/**
 * Two processes serving one database, each with its own response cache: an answer cached by one
 * is never served after a change made through the other (or behind both, straight in the
 * database), and never to a caller who may not read it. SQLite: two connections to one file.
 */
describeEachDatabase('response cache', (database) => {
  const nodes: { app: FastifyInstance; db: Db }[] = [];
  let firm: TestFirm;
  let other: TestFirm;
  let blockId: number;
  let cleanup: () => Promise<void> = async () => undefined;
  const [a, b] = [() => nodes[0]!, () => nodes[1]!];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    const twice = await openTwice(database, 'response-cache');
    const configs = twice.opened;
    cleanup = twice.close;
    firm = await createTestFirm(configs[0]!.db.kysely, 'alpha');
    other = await createTestFirm(configs[0]!.db.kysely, 'beta');
    for (const { config, db } of configs) {
      const jobs = db.schema ? { JOB_SCHEMA: `${db.schema}_jobs` } : {};
      const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', VALUATION_TIME: 'off', ...jobs }, { database: config }), db });
      await app.ready();
      nodes.push({ app, db });
    }
    if (database.name === 'postgres') await until(() => nodes.every((n) => n.app.revocations.cache.answering && stampOf(n.app) !== undefined));
    const book = await createSmallBook(configs[0]!.db.kysely, firm.firmId, firm.representativeId);
    const reasons = (await call(a().app, 'GET', '/api/v1/Trading/TradeBlocks/Reasons')).json<{ id: number }[]>();
    const created = await call(a().app, 'POST', '/api/v1/Trading/TradeBlocks', [{ id: 0, entityEnum: 7, entityId: book.account, tradeBlockReasonId: reasons[0]!.id, description: 'first', startDate: '2026-01-01' }]);
    expect(created.statusCode, created.body).toBe(200);
    blockId = created.json<{ successfulTradeBlocks: { id: number }[] }>().successfulTradeBlocks[0]!.id;
  });
  afterAll(async () => {
    for (const node of nodes) await node.app.close();
    await cleanup();
  });

  const stampOf = (app: FastifyInstance) => app.dataChanges.stamp();

  async function token(app: FastifyInstance, user: keyof TestFirm['users'], of: TestFirm = firm): Promise<string> {
    const key = `${of.firmId}:${user}`;
    const known = tokens.get(key);
    if (known) return known;
    const { userName, password } = of.users[user];
    const response = await app.inject({ url: '/api/v1/security/token', headers: { authorization: basic(userName, password), client_id: String(of.clientId), client_secret: of.clientSecret } });
    expect(response.statusCode, response.body).toBe(200);
    const value = `Session ${response.json<{ access_token: string }>().access_token}`;
    tokens.set(key, value);
    return value;
  }
  const call = async (app: FastifyInstance, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, user: keyof TestFirm['users'] = 'advisor', of: TestFirm = firm) =>
    app.inject({ method, url, payload: payload as object, headers: { authorization: await token(app, user, of) } });
  const description = async (app: FastifyInstance) => {
    const response = await call(app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ description: string }>().description;
  };

  it('answers a repeated read from the cache, the same body and headers, without reading again', async () => {
    const reads = vi.spyOn(TradeBlockService.prototype, 'get');
    try {
      // On PostgreSQL a notification of the set-up's writes may still arrive between the two
      // reads and rightly drop the answer: the pair is read again until none came between.
      let first: Awaited<ReturnType<typeof call>>;
      let second: Awaited<ReturnType<typeof call>>;
      let attempts = 0;
      let readBySecond: number;
      do {
        first = await call(b().app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`);
        const before = reads.mock.calls.length;
        second = await call(b().app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`);
        readBySecond = reads.mock.calls.length - before;
      } while (readBySecond > 0 && ++attempts < 50);
      // Node b had not read the block before: its first answer came from the database.
      expect(reads.mock.calls.length).toBeGreaterThan(0);
      expect(readBySecond).toBe(0);
      expect(second.statusCode).toBe(200);
      expect(second.body).toBe(first.body);
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.headers['cache-control']).toBe('no-store');
      const page = await call(b().app, 'GET', '/api/v1/Portfolio/Accounts?$top=1&$count=true');
      const again = await call(b().app, 'GET', '/api/v1/Portfolio/Accounts?$top=1&$count=true');
      expect(again.body).toBe(page.body);
      expect(again.headers['x-total-count']).toBe(page.headers['x-total-count']);
    } finally {
      reads.mockRestore();
    }
  });

  it('a write through the API is read back at once by the process that made it, and by the other one', async () => {
    expect(await description(a().app)).toBe('first');
    expect(await description(b().app)).toBe('first');
    const block = (await call(a().app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`)).json<{ globalId: string }>();
    const heardByB = stampOf(b().app);
    // Process b hears every notification 300 ms late, as a busy node would, in order.
    const slow = b().app.dataChanges as unknown as { message(payload: string): void };
    const hear = lateBy(300, slow.message?.bind(slow));
    const late = database.name === 'postgres' ? vi.spyOn(slow, 'message').mockImplementation(hear) : undefined;
    try {
      const updated = await call(a().app, 'PUT', '/api/v1/Trading/TradeBlocks', [{ globalId: block.globalId, description: 'second', startDate: '2026-01-01' }]);
      expect(updated.statusCode, updated.body).toBe(200);
      // The write's answer went out only once the other process had heard of it (PostgreSQL: the
      // barrier every listener answers; SQLite: the file's data_version, read on the next request).
      if (database.name === 'postgres') expect(stampOf(b().app)).not.toBe(heardByB);
      expect(await description(a().app)).toBe('second');
      expect(await description(b().app)).toBe('second');
    } finally {
      late?.mockRestore();
    }
  });

  it('a write through the other process is read on the next request once the database has told it (SQLite: at once)', async () => {
    expect(await description(b().app)).toBe('second');
    const before = stampOf(b().app);
    await a().db.kysely.updateTable('trade_block_details').set({ description: 'third' }).where('id', '=', blockId).execute();
    if (database.name === 'postgres') await until(() => stampOf(b().app) !== before, 5_000);
    expect(await description(b().app)).toBe('third');
  });

  it('a batch\'s status is answered once every process has heard of what workers committed before it', async () => {
    expect(await description(b().app)).toBe('third');
    const heardByB = stampOf(b().app);
    const slow = b().app.dataChanges as unknown as { message(payload: string): void };
    const hear = lateBy(300, slow.message?.bind(slow));
    const late = database.name === 'postgres' ? vi.spyOn(slow, 'message').mockImplementation(hear) : undefined;
    try {
      // A worker's commit: no answer of this service waits for it.
      await a().db.kysely.updateTable('trade_block_details').set({ description: 'fourth' }).where('id', '=', blockId).execute();
      // Whatever the status says (here: no such batch), it goes out after the barrier.
      expect((await call(a().app, 'GET', '/api/Trading/TradeGenerationStatus/999999')).statusCode).toBe(404);
      if (database.name === 'postgres') expect(stampOf(b().app)).not.toBe(heardByB);
      expect(await description(b().app)).toBe('fourth');
    } finally {
      late?.mockRestore();
    }
    const before = stampOf(b().app);
    await a().db.kysely.updateTable('trade_block_details').set({ description: 'third' }).where('id', '=', blockId).execute();
    if (database.name === 'postgres') await until(() => stampOf(b().app) !== before, 5_000);
  });

  it('a sign-in keeps what a process has cached on PostgreSQL: tokens are not what answers read', async () => {
    const reads = vi.spyOn(TradeBlockService.prototype, 'get');
    const { userName, password } = firm.users.reader;
    const signIn = () => b().app.inject({ url: '/api/v1/security/token', headers: { authorization: basic(userName, password), client_id: String(firm.clientId), client_secret: firm.clientSecret } });
    try {
      // As in the first test, a notification of an earlier write still on its way may drop the
      // answer between the two reads: the pair is tried again until none came between.
      let readAgain: number;
      let attempts = 0;
      do {
        expect(await description(b().app)).toBe('third');
        const before = reads.mock.calls.length;
        const heard = stampOf(b().app);
        expect((await signIn()).statusCode).toBe(200);
        expect(await description(b().app)).toBe('third');
        readAgain = reads.mock.calls.length - before;
        if (database.name === 'postgres' && readAgain > 0) expect(stampOf(b().app)).not.toBe(heard);
      } while (database.name === 'postgres' && readAgain > 0 && ++attempts < 20);
      // SQLite cannot tell a token's row from any other: its stamp moves with every write.
      expect(readAgain).toBe(database.name === 'postgres' ? 0 : 1);
    } finally {
      reads.mockRestore();
    }
  });

  it('a caller of another firm, or without the privilege, is refused even when the answer is cached', async () => {
    expect(await description(b().app)).toBe('third');
    expect((await call(b().app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`, undefined, 'advisor', other)).statusCode).toBe(404);
    expect((await call(b().app, 'GET', `/api/v1/Trading/TradeBlocks/${blockId}`, undefined, 'nobody')).statusCode).toBe(403);
  });

  it.runIf(database.name === 'postgres')('with its data channel down a process reads every answer from the database, and listens again', async () => {
    expect(await description(b().app)).toBe('third');
    const admin = new pg.Client({ connectionString: (database.config as { url: string }).url });
    await admin.connect();
    try {
      const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [`wealth_data_${b().db.schema}`]);
      expect(killed.rowCount).toBe(2);
      await until(() => stampOf(b().app) === undefined, 5_000);
      // Written with the triggers off: no notification at all, only a read can see it.
      await admin.query('begin');
      await admin.query(`set local session_replication_role = replica`);
      await admin.query(`update ${b().db.schema}.trade_block_details set description = 'unannounced' where id = $1`, [blockId]);
      await admin.query('commit');
      expect(await description(b().app)).toBe('unannounced');
      await until(() => nodes.every((n) => stampOf(n.app) !== undefined), 10_000);
      expect(await description(b().app)).toBe('unannounced');
    } finally {
      await admin.end();
    }
  });

  it.runIf(database.name === 'postgres')('every table but those of sign-in and tokens notifies the data channel', async () => {
    const { rows } = await sql<{ table: string }>`select c.relname as "table" from pg_trigger t join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace where n.nspname = ${a().db.schema} and t.tgname = 'wealth_data_changed'`.execute(a().db.kysely);
    const announced = new Set(rows.map((r) => r.table));
    const tables = (await tablesOf(a().db)).map((t) => t.name).filter((name) => !name.startsWith('kysely_'));
    expect(tables.filter((name) => !announced.has(name)).sort()).toEqual([...UNANNOUNCED_TABLES].sort());
  });
});

/** A listener that acts on each payload `ms` late, in the order they came. */
const lateBy =
  (ms: number, hear: (payload: string) => void) =>
  (payload: string): void =>
    void setTimeout(() => hear(payload), ms);
