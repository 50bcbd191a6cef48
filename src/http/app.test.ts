import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';

describeEachDatabase('the service', (database) => {
  const t = useTestApp(database);

  it('answers health and readiness on both applications and at the root', async () => {
    for (const url of ['/healthz', '/api/healthz', '/rebalancer/healthz']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok', database: 'up' });
    }
    const ready = await t.app.inject({ url: '/api/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: database.name });
  });

  it('routes case-insensitively and tolerates duplicate slashes', async () => {
    const firm = t.firm;
    const credentials = firm.users.api;
    const headers = {
      authorization: `Basic ${Buffer.from(`${credentials.userName}:${credentials.password}`).toString('base64')}`,
      client_id: String(firm.clientId),
      client_secret: firm.clientSecret,
    };
    for (const url of ['/api//v1/SECURITY/token', '/api/v1/security/token', '/API/v1/Security/Token/']) {
      const response = await t.app.inject({ url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.json()).toMatchObject({ expires_in: 36000 });
      expect(typeof response.json().access_token).toBe('string');
    }
  });

  it('answers an unknown route with a 404 problem', async () => {
    const response = await t.app.inject({ url: '/api/v1/Nothing/Here' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json()).toMatchObject({ status: 404, code: 'route_not_found', title: 'Not Found' });
  });

  it('refuses a protected route without a token, with a bad token, and with the wrong scheme', async () => {
    for (const authorization of [undefined, 'Session not-a-token', 'Basic abc']) {
      const response = await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Session');
      expect(response.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    }
  });

  it('accepts Bearer as a synonym of Session', async () => {
    const session = await t.session('reader');
    const response = await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: session.replace('Session', 'Bearer') } });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a platform token on the rebalancer scope', async () => {
    const app = t.app;
    // The rebalancer has no data routes yet; its openapi is public and its unknown routes are 404.
    const response = await app.inject({ url: '/rebalancer/openapi.json' });
    expect(response.statusCode).toBe(200);
  });
});

describeEachDatabase('basic login (section 5.5)', (database) => {
  const t = useTestApp(database);
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

  it('refuses a wrong password, a wrong secret, a missing client id and another firm\'s partner app', async () => {
    const { firm, otherFirm } = t;
    const user = firm.users.api;
    const cases = [
      { authorization: basic(user.userName, 'wrong'), client_id: String(firm.clientId), client_secret: firm.clientSecret },
      { authorization: basic(user.userName, user.password), client_id: String(firm.clientId), client_secret: crypto.randomUUID() },
      { authorization: basic(user.userName, user.password), client_secret: firm.clientSecret },
      { authorization: basic(user.userName, user.password), client_id: String(otherFirm.clientId), client_secret: otherFirm.clientSecret },
      { client_id: String(firm.clientId), client_secret: firm.clientSecret },
    ];
    for (const headers of cases) {
      const response = await t.app.inject({ url: '/api/v1/security/token', headers: headers as Record<string, string> });
      expect(response.statusCode).toBe(401);
      expect(['invalid_client', 'invalid_grant', 'invalid_request']).toContain(response.json().error);
      expect(typeof response.json().error_description).toBe('string');
      expect(response.body).not.toContain(user.password);
    }
  });

  it('issues a token that reaches a protected route', async () => {
    const session = await t.session('admin');
    const response = await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: session } });
    expect(response.statusCode).toBe(200);
  });
});

describeEachDatabase('serve --app', (database) => {
  it('serves only the platform or only the rebalancer when asked', async () => {
    const { buildApp } = await import('../app.js');
    const { loadConfig } = await import('../config.js');
    const opened = await database.open();
    try {
      for (const [apps, served, absent] of [['platform', '/api/healthz', '/rebalancer/healthz'], ['rebalancer', '/rebalancer/healthz', '/api/healthz']] as const) {
        const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', WEALTH_APPS: apps }, { database: database.config }), db: opened.db });
        expect((await app.inject({ url: served })).statusCode).toBe(200);
        expect((await app.inject({ url: absent })).statusCode).toBe(404);
        await app.close();
      }
    } finally {
      await opened.drop();
    }
  });
});

describe('OpenAPI documents', () => {
  describeEachDatabase('documents', (database) => {
    const t = useTestApp(database);
    it('serves one document per application with every route tagged and its statuses declared', async () => {
      for (const prefix of ['/api', '/rebalancer']) {
        const response = await t.app.inject({ url: `${prefix}/openapi.json` });
        expect(response.statusCode).toBe(200);
        const document = response.json();
        expect(document.openapi).toBe('3.1.0');
        for (const [path, operations] of Object.entries(document.paths as Record<string, Record<string, { tags?: string[]; responses?: object }>>)) {
          for (const [method, operation] of Object.entries(operations)) {
            expect(operation.tags?.length, `${method} ${path} is tagged`).toBeGreaterThan(0);
            const statuses = Object.keys(operation.responses ?? {});
            expect(statuses.some((s) => /^[23]\d\d$/.test(s)), `${method} ${path} declares its success`).toBe(true);
          }
        }
      }
      const platform = (await t.app.inject({ url: '/api/openapi.json' })).json();
      expect(Object.keys(platform.paths)).toContain('/api/v1/Portfolio/Clients/Verbose/{key}');
      expect(Object.keys(platform.paths).some((p) => p.startsWith('/rebalancer'))).toBe(false);
      const docs = await t.app.inject({ url: '/api/docs' });
      expect([200, 302]).toContain(docs.statusCode);
    });
  });
});
