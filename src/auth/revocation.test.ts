import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { openTwice, until } from '../../test/support/two-processes.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import { authorize, exchange } from '../../test/support/oauth.js';
import { AuthRepository } from './repository.js';

const REDIRECT = 'https://partner.example/alpha/callback';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * Two processes serving one database, as a firm runs them behind a load balancer: each has its
 * own token cache, and a revocation written through either must be refused by the other on the
 * very next request. SQLite: two connections to one file (the second as a CLI would be).
 */
describeEachDatabase('token revocation across processes', (database) => {
  const nodes: { app: FastifyInstance; db: Db }[] = [];
  let firm: TestFirm;
  let cleanup: () => Promise<void> = async () => undefined;
  const [a, b] = [() => nodes[0]!, () => nodes[1]!];

  beforeAll(async () => {
    const twice = await openTwice(database, 'revocation');
    const configs = twice.opened;
    cleanup = twice.close;
    firm = await createTestFirm(configs[0]!.db.kysely, 'alpha');
    for (const { config, db } of configs) {
      const jobs = db.schema ? { JOB_SCHEMA: `${db.schema}_jobs` } : {};
      const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', ...jobs }, { database: config }), db });
      await app.ready();
      nodes.push({ app, db });
    }
    if (database.name === 'postgres') await until(() => nodes.every((n) => n.app.revocations.cache.answering));
  });
  afterAll(async () => {
    for (const node of nodes) await node.app.close();
    await cleanup();
  });

  const login = async (node: FastifyInstance, user: keyof TestFirm['users']) => {
    const { userName, password } = firm.users[user];
    const response = await node.inject({ url: '/api/v1/security/token', headers: { authorization: basic(userName, password), client_id: String(firm.clientId), client_secret: firm.clientSecret } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ access_token: string }>().access_token;
  };
  const clients = (node: FastifyInstance, token: string) => node.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: `Session ${token}` } });
  const asAdmin = async (node: FastifyInstance, method: 'PUT', url: string, payload?: object) =>
    node.inject({ method, url, payload, headers: { authorization: `Session ${await login(node, 'admin')}` } });

  it('a user deactivated on one process is refused on the next request by the other, which had the token cached', async () => {
    const token = await login(b().app, 'service');
    expect((await clients(b().app, token)).statusCode).toBe(200);
    expect((await clients(b().app, token)).statusCode).toBe(200);
    expect((await asAdmin(a().app, 'PUT', `/api/v1/Security/Users/${firm.users.service.id}/Action/Deactivate`)).statusCode).toBe(200);
    expect((await clients(b().app, token)).statusCode).toBe(401);
    expect((await clients(a().app, token)).statusCode).toBe(401);
    expect((await asAdmin(a().app, 'PUT', `/api/v1/Security/Users/${firm.users.service.id}/Action/Reactivate`)).statusCode).toBe(200);
  });

  it('a password reset on one process ends the sessions cached by the other', async () => {
    const token = await login(b().app, 'api');
    expect((await clients(b().app, token)).statusCode).toBe(200);
    expect((await asAdmin(a().app, 'PUT', `/api/v1/Security/Users/${firm.users.api.id}/Password`, { password: firm.users.api.password })).statusCode).toBe(200);
    expect((await clients(b().app, token)).statusCode).toBe(401);
  });

  it('a replayed authorization code on one process revokes its chain on the other', async () => {
    const flow = await authorize(a().app, { clientId: firm.clientId, redirectUri: REDIRECT, userName: firm.users.reader.userName, password: firm.users.reader.password });
    const fields = { grant_type: 'authorization_code', code: flow.code!, client_id: String(firm.clientId), client_secret: firm.clientSecret, redirect_uri: REDIRECT };
    const issued = await exchange(a().app, fields);
    expect(issued.statusCode, issued.body).toBe(200);
    const token = issued.json<{ access_token: string }>().access_token;
    expect((await clients(b().app, token)).statusCode).toBe(200);
    expect((await exchange(a().app, fields)).statusCode).toBe(401);
    expect((await clients(b().app, token)).statusCode).toBe(401);
  });

  it('a partner app revoked through one process is refused by the other', async () => {
    const token = await login(b().app, 'advisor');
    expect((await clients(b().app, token)).statusCode).toBe(200);
    const apps = new AuthRepository(a().db.kysely, a().app.revocations);
    await apps.setPartnerAppActive(firm.clientId, false);
    expect((await clients(b().app, token)).statusCode).toBe(401);
    await apps.setPartnerAppActive(firm.clientId, true);
  });

  it('with its revocation channel down a process does not answer from its cache, and it listens again', async () => {
    if (database.name !== 'postgres') {
      // SQLite has no channel: a write by another process (another connection to the file) is
      // what the cache cannot have heard of, and it answers from the file then.
      const token = await login(a().app, 'advisor');
      expect((await clients(a().app, token)).statusCode).toBe(200);
      await b().db.kysely.updateTable('access_tokens').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', firm.users.advisor.id).execute();
      expect((await clients(a().app, token)).statusCode).toBe(401);
      return;
    }
    const token = await login(b().app, 'advisor');
    expect((await clients(b().app, token)).statusCode).toBe(200);
    const channel = b().app.revocations.channel!;
    const admin = new pg.Client({ connectionString: (database.config as { url: string }).url });
    await admin.connect();
    try {
      // Every listener of the suite's channel loses its connection, as in a failover.
      const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1`, [channel]);
      expect(killed.rowCount).toBe(2);
      await until(() => !b().app.revocations.cache.answering, 5_000);
      // Written behind every cache's back, with no notification at all: only a lookup can see it.
      await admin.query(`update ${b().db.schema}.access_tokens set revoked_at = $1 where user_id = $2`, [new Date().toISOString(), firm.users.advisor.id]);
      expect((await clients(b().app, token)).statusCode).toBe(401);
      await until(() => nodes.every((n) => n.app.revocations.cache.answering), 10_000);
      const fresh = await login(b().app, 'advisor');
      expect((await clients(b().app, fresh)).statusCode).toBe(200);
      expect((await asAdmin(a().app, 'PUT', `/api/v1/Security/Users/${firm.users.advisor.id}/Action/Deactivate`)).statusCode).toBe(200);
      expect((await clients(b().app, fresh)).statusCode).toBe(401);
      expect((await asAdmin(a().app, 'PUT', `/api/v1/Security/Users/${firm.users.advisor.id}/Action/Reactivate`)).statusCode).toBe(200);
    } finally {
      await admin.end();
    }
  });
});
