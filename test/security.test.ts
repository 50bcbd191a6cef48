import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest } from '../src/auth/secrets.js';
import { createHousehold } from '../src/integrations/risk-partner/test-support.js';
import { call, createPartner, integrate, sessionThrough, type Partner } from '../src/notifications/test-support.js';
import { useTestApp, type TestContext } from './support/app.js';
import { describeEachDatabase } from './support/databases.js';
import { fuzzCredentialHeaders } from './support/fuzz.js';
import { authorize, exchange, fakeClock } from './support/oauth.js';

/**
 * What a penetration test found, each closed and held by HTTP calls: no pushes into private
 * networks, one login policy for both applications, derived tokens that die with their session,
 * no 500 from a credential header, absolute URLs from PUBLIC_URL only, safe response headers, and
 * no secrets in URLs.
 */

const REDIRECT = 'https://partner.example/alpha/callback';
const basic = (user: { userName: string; password: string }) => `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`;
const partnerHeaders = (firm: TestContext['firm']) => ({ client_id: String(firm.clientId), client_secret: firm.clientSecret });

/** A receiver on 127.0.0.1 answering `status` (and `location`, for a redirect). */
async function receiver(status = 200, location?: string) {
  const received: string[] = [];
  const server: Server = createServer((request, response) => {
    received.push(request.url ?? '');
    request.resume();
    response.statusCode = status;
    if (location) response.setHeader('location', location);
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }) };
}

interface Delivery { status: string; attempts: number; lastError: string | null }

/** Partner A's integration of the advisor, with partner B posting to the same user (B's pushes go to A's endpoint). */
async function pushSetUp(t: TestContext) {
  const a: Partner = { clientId: t.firm.clientId, clientSecret: t.firm.clientSecret, name: 'Partner of alpha' };
  const b = await createPartner(t.db.kysely, t.firm.firmId, `Partner B ${Math.random()}`);
  const session = await t.session('advisor');
  const integrationA = await integrate(t, session, a);
  const integrationB = await integrate(t, await sessionThrough(t, 'advisor', b), b);
  const endpoint = `/api/v1/Notify/Config/Integrations/${integrationA.id}/Endpoint`;
  const register = (url: string) => call(t, 'PUT', endpoint, { session, partner: a, payload: { url } });
  const post = () => call(t, 'POST', `/api/Notify/Users/${integrationB.webhookGuid}/Notifications`, { partner: b, payload: { Subject: 'Statement', Body: 'ready' } });
  /** The deliveries once none is pending (or after `ms`). */
  const settled = async (ms = 8000): Promise<Delivery[]> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const list = (await call(t, 'GET', `/api/v1/Notify/Config/Integrations/${integrationA.id}/Deliveries`, { session, partner: a })).json<Delivery[]>();
      if (list.length > 0 && (list.every((d) => d.status !== 'pending' || d.attempts > 0) || Date.now() > deadline)) return list;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { integrationId: integrationA.id, register, post, settled };
}

describeEachDatabase('security: an installation on https with the defaults', (database) => {
  const clock = fakeClock();
  const t = useTestApp(database, { clock, env: { PUBLIC_URL: 'https://wealth.example', REFRESH_GRACE_SECONDS: '0' } });

  describe('push endpoints reach public addresses only', () => {
    let push: Awaited<ReturnType<typeof pushSetUp>>;
    beforeAll(async () => {
      push = await pushSetUp(t);
    });

    it('refuses loopback, private, link-local, unique-local, CGNAT, metadata and every shorthand of them, and plain http, with a 400 naming url', async () => {
      const refused = [
        'https://127.0.0.1/hook', 'https://127.1/hook', 'https://2130706433/hook', 'https://0x7f.1/hook', 'https://0177.0.0.1/hook', 'https://127.0.0.1./hook',
        'https://localhost/hook', 'https://[::1]/hook', 'https://[0:0:0:0:0:0:0:1]/hook', 'https://[::ffff:127.0.0.1]/hook', 'https://[::ffff:a00:1]/hook',
        'https://169.254.169.254/latest/meta-data/', 'https://[fd00:ec2::254]/', 'https://10.0.0.5/hook', 'https://172.16.3.4/hook', 'https://192.168.1.1/hook',
        'https://100.64.0.1/hook', 'https://[fe80::1]/hook', 'https://[fc00::1]/hook', 'https://0.0.0.0/hook', 'https://0/hook', 'https://[::]/hook',
        'https://224.0.0.1/hook', 'https://255.255.255.255/hook', 'https://[64:ff9b::7f00:1]/hook', 'https://[2002:7f00:1::]/hook',
        'http://partner.example/hook', 'http://127.0.0.1:9/hook',
      ];
      for (const url of refused) {
        const response = await push.register(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json().errors, url).toEqual([{ field: 'url', message: expect.stringContaining('public address') }]);
      }
      for (const url of ['https://partner.example/hooks/wealth', 'https://93.184.216.34/hook', 'https://[2606:4700::1111]/hook']) {
        expect((await push.register(url)).statusCode, url).toBe(200);
      }
    });

    it('checks again at delivery: a registered name that now resolves to loopback is not delivered to, and the log says so without socket text', async () => {
      const local = await receiver(200);
      try {
        expect((await push.register('https://partner.example/hooks/wealth')).statusCode).toBe(200);
        // The registered name now resolves to 127.0.0.1 (as a rebinding DNS answer would): `localhost` does.
        await t.db.kysely.updateTable('notify_integrations').set({ push_url: `http://localhost:${local.port}/hook` }).where('id', '=', push.integrationId).execute();
        expect((await push.post()).statusCode).toBe(200);
        const [latest] = await push.settled();
        expect(latest).toMatchObject({ status: 'failed', attempts: 1, lastError: 'the endpoint\'s address is not a public address' });
        // And a literal private address put there some other way (the setting on at the time) alike.
        await t.db.kysely.updateTable('notify_integrations').set({ push_url: `http://127.0.0.1:${local.port}/hook` }).where('id', '=', push.integrationId).execute();
        expect((await push.post()).statusCode).toBe(200);
        const [next] = await push.settled();
        expect(next).toMatchObject({ status: 'failed', lastError: 'the endpoint\'s address is not a public address' });
        expect(local.received).toEqual([]);
      } finally {
        await local.close();
      }
    });
  });

  describe('one login policy for both applications', () => {
    // Each call from an address of its own, so that the failures counted here lock nobody out.
    let calls = 0;
    const remoteAddress = () => `10.37.${Math.floor(++calls / 250)}.${calls % 250}`;
    const platform = (headers: Record<string, string>) => t.app.inject({ url: '/api/v1/Security/Token', headers, remoteAddress: remoteAddress() });
    const rebalancer = (headers: Record<string, string>) => t.app.inject({ url: '/rebalancer/v1/admin/token', headers, remoteAddress: remoteAddress() });
    const both = async (headers: Record<string, string>) => [(await platform(headers)).statusCode, (await rebalancer(headers)).statusCode];
    const basicLogin = async (on: boolean) => t.app.inject({ method: 'PUT', url: '/api/v1/Security/Firm/BasicLogin', payload: { enabled: on }, headers: { authorization: await t.session('admin') } });

    it('answers the rebalancer\'s Basic login exactly as the platform\'s, setting off and on', async () => {
      const { reader, api, service } = t.firm.users;
      const otherPartner = partnerHeaders(t.otherFirm);
      const cases: [string, Record<string, string>, number][] = [
        ['a person with the partner\'s credentials', { authorization: basic(reader), ...partnerHeaders(t.firm) }, 200],
        ['an API user with the partner\'s credentials', { authorization: basic(api), ...partnerHeaders(t.firm) }, 200],
        ['a person with the password alone', { authorization: basic(reader) }, 401],
        ['an API user with the password alone, setting off', { authorization: basic(api) }, 401],
        ['a service user with the password alone, setting off', { authorization: basic(service) }, 401],
        ['a wrong client secret', { authorization: basic(api), client_id: String(t.firm.clientId), client_secret: crypto.randomUUID() }, 401],
        ['a client id without its secret', { authorization: basic(api), client_id: String(t.firm.clientId) }, 401],
        ['another firm\'s partner', { authorization: basic(api), ...otherPartner }, 401],
        ['a wrong password with the partner\'s credentials', { authorization: basic({ ...api, password: 'wrong' }), ...partnerHeaders(t.firm) }, 401],
      ];
      for (const [name, headers, status] of cases) expect(await both(headers), name).toEqual([status, status]);
      const refused = await rebalancer({ authorization: basic(api) });
      expect(refused.json()).toMatchObject({ status: 401, code: 'unauthorized', detail: 'client_id or client_secret is missing or not valid' });

      expect((await basicLogin(true)).statusCode).toBe(200);
      try {
        expect(await both({ authorization: basic(api) }), 'API user, setting on').toEqual([200, 200]);
        expect(await both({ authorization: basic(service) }), 'service user, setting on').toEqual([200, 200]);
        // People sign in through the OAuth page, whatever the setting.
        expect(await both({ authorization: basic(reader) }), 'a person, setting on').toEqual([401, 401]);
      } finally {
        expect((await basicLogin(false)).statusCode).toBe(200);
      }
      expect(await both({ authorization: basic(api) }), 'API user, setting off again').toEqual([401, 401]);
    });
  });

  describe('a token minted from another belongs to its session', () => {
    const me = (token: string) => t.app.inject({ url: '/rebalancer/v1/admin/authorization/user', headers: { authorization: `Session ${token}` } });
    const mint = async (platformToken: string) => {
      const response = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: `Session ${platformToken}` } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ access_token: string; expires_in: number }>();
    };

    it('dies when the session\'s chain is revoked (a replayed refresh token)', async () => {
      const user = t.firm.users.advisor;
      const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user.userName, password: user.password });
      const tokens = (await exchange(t.app, { grant_type: 'authorization_code', code: flow.code!, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret, redirect_uri: REDIRECT })).json();
      const derived = await mint(tokens.access_token);
      expect((await me(derived.access_token)).statusCode).toBe(200);
      const refresh = () => exchange(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
      expect((await refresh()).statusCode).toBe(200);
      clock.advance(1000);
      const replay = await refresh();
      expect(replay.json()).toMatchObject({ error: 'invalid_grant' });
      expect((await me(derived.access_token)).statusCode).toBe(401);
    });

    it('dies when the user is deactivated or their password changes', async () => {
      const admin = await t.session('admin', 'otherFirm');
      const { nobody, reader } = t.otherFirm.users;
      const login = async (user: { userName: string; password: string }) =>
        (await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization: basic(user), ...partnerHeaders(t.otherFirm) } })).json().access_token as string;
      const ofNobody = await mint(await login(nobody));
      const ofReader = await mint(await login(reader));
      expect((await me(ofNobody.access_token)).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'PUT', url: `/api/v1/Security/Users/${nobody.id}/Action/Deactivate`, headers: { authorization: admin } })).statusCode).toBe(200);
      expect((await me(ofNobody.access_token)).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'PUT', url: `/api/v1/Security/Users/${nobody.id}/Action/Reactivate`, headers: { authorization: admin } })).statusCode).toBe(200);
      // Revoked at deactivation, revoked for good.
      expect((await me(ofNobody.access_token)).statusCode).toBe(401);
      expect((await me(ofReader.access_token)).statusCode).toBe(200);
      const reset = await t.app.inject({ method: 'PUT', url: `/api/v1/Security/Users/${reader.id}/Password`, payload: { password: 'another long password' }, headers: { authorization: admin } });
      expect(reset.statusCode).toBe(200);
      expect((await me(ofReader.access_token)).statusCode).toBe(401);
    });

    it('never lives longer than its parent', async () => {
      const now = new Date().toISOString();
      const secret = crypto.randomUUID();
      const app = await t.db.kysely
        .insertInto('partner_apps')
        .values({ firm_id: t.firm.firmId, name: 'Short-lived tokens', client_secret_hash: digest(secret), redirect_uris: '[]', access_token_ttl_seconds: 120, refresh_token_ttl_seconds: 86400, is_active: 1, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      const parent = await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization: basic(t.firm.users.api), client_id: String(app.id), client_secret: secret } });
      expect(parent.json().expires_in).toBe(120);
      clock.advance(30_000);
      const derived = await mint(parent.json().access_token);
      expect(derived.expires_in).toBe(90);
      clock.advance(89_000);
      expect((await me(derived.access_token)).statusCode).toBe(200);
      clock.advance(2_000);
      expect((await me(derived.access_token)).statusCode).toBe(401);
      // A parent that has expired mints nothing.
      expect((await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: `Session ${parent.json().access_token}` } })).statusCode).toBe(401);
    });
  });

  describe('no credential header reaches a 500', () => {
    it('answers a Basic value that decodes to a broken percent escape with an OAuth error, on both applications', async () => {
      const broken = 'Basic JXp6Ong='; // base64 of "%zz:x"
      const code = await t.app.inject({ method: 'POST', url: '/api/v1/Security/Token', headers: { authorization: broken, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code' });
      expect(code.statusCode).toBe(401);
      expect(code.json()).toEqual({ error: 'invalid_client', error_description: 'Authorization: Basic client credentials are not valid form-urlencoded text' });
      expect((await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization: broken } })).statusCode).toBe(401);
      expect((await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: broken } })).statusCode).toBe(401);
      for (const authorization of ['Bearer', 'Bearer ', 'Session %zz', 'Basic', 'Basic !!!', 'Basic Og==']) {
        expect((await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization } })).statusCode, authorization).toBeLessThan(500);
        expect((await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization } })).statusCode, authorization).toBe(401);
      }
    });

    it('survives a fuzz campaign over the token endpoints\' Authorization, client_id and client_secret headers', async () => {
      const result = await fuzzCredentialHeaders(t.app, 150, 37);
      expect(result.sent).toBe(150);
      expect(result.serverErrors).toEqual([]);
    }, 60_000);
  });

  describe('absolute URLs come from PUBLIC_URL, never from the Host header', () => {
    const evil = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' };

    it('in the authorization-server metadata, the demo callback page\'s curl line and a risk partner surveyUrl', async () => {
      for (const url of ['/api/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/api']) {
        const metadata = await t.app.inject({ url, headers: evil });
        expect(metadata.json()).toMatchObject({ issuer: 'https://wealth.example/api', token_endpoint: 'https://wealth.example/api/v1/Security/Token' });
        expect(metadata.body).not.toContain('evil');
      }
      const page = await t.app.inject({ url: '/api/oauth/callback?code=abc&state=s', headers: evil });
      expect(page.body).toContain('https://wealth.example/api/v1/Security/Token');
      expect(page.body).not.toContain('evil');
      const household = await createHousehold(t.db.kysely, t.firm.firmId, t.firm.representativeId);
      const created = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/Integrations/RiskPartner/CreateClient',
        payload: { name: `Host header ${household}`, extClientId: String(household), source: 'CRM' },
        headers: { ...evil, authorization: await t.session('advisor') },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().jsonInfo.surveyUrl).toMatch(/^https:\/\/wealth\.example\/api\/Integrations\/RiskPartner\/Questionnaire\?token=/);
    });
  });

  describe('response headers', () => {
    it('every answer of both applications says no-store and nosniff, and HSTS on https; errors and pages too', async () => {
      const admin = await t.session('admin');
      const reset = await t.app.inject({ method: 'PUT', url: `/api/v1/Security/Users/${t.firm.users.nobody.id}/Password`, payload: {}, headers: { authorization: admin } });
      expect(reset.json().password).toEqual(expect.any(String));
      const answers = [
        reset,
        await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: admin } }),
        await t.app.inject({ url: '/api/v1/Portfolio/Clients' }),
        await t.app.inject({ url: '/api/v1/Portfolio/Clients/abc', headers: { authorization: admin } }),
        await t.app.inject({ url: '/api/no/such/path' }),
        await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization: basic(t.firm.users.api), ...partnerHeaders(t.firm) } }),
        await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: admin } }),
        await t.app.inject({ url: '/rebalancer/v1/modeling/models' }),
        await t.app.inject({ method: 'POST', url: '/api/v1/Portfolio/Clients/Verbose', headers: { authorization: admin, 'content-type': 'application/json' }, payload: '{bad json' }),
        await t.app.inject({ url: '/api/openapi.json' }),
        await t.app.inject({ url: '/api/oauth/?response_type=code' }),
        await t.app.inject({ url: '/healthz' }),
        await t.app.inject({ url: '/' }),
      ];
      for (const answer of answers) {
        const what = `${answer.statusCode} ${answer.body.slice(0, 80)}`;
        expect(answer.headers['cache-control'], what).toBe('no-store');
        expect(answer.headers['x-content-type-options'], what).toBe('nosniff');
        expect(answer.headers['strict-transport-security'], what).toBe('max-age=31536000');
      }
    });
  });

  describe('no refresh token or client secret in a URL', () => {
    it('refuses them with a 400 naming the form to use; the code exchange keeps its query form', async () => {
      const secretInUrl = await t.app.inject({ url: `/api/v1/Security/Token?client_id=${t.firm.clientId}&client_secret=${t.firm.clientSecret}`, headers: { authorization: basic(t.firm.users.api) } });
      expect(secretInUrl.statusCode).toBe(400);
      expect(secretInUrl.json()).toEqual({ error: 'invalid_request', error_description: expect.stringContaining('send client_id and client_secret as headers or in a form body') });
      const user = t.firm.users.advisor;
      const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user.userName, password: user.password });
      const fields = { grant_type: 'authorization_code', code: flow.code!, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret, redirect_uri: REDIRECT };
      const exchanged = await exchange(t.app, fields, 'query');
      expect(exchanged.statusCode, exchanged.body).toBe(200);
      const { refresh_token: refreshToken } = exchanged.json();
      const query = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: String(t.firm.clientId) });
      for (const request of [
        { method: 'POST' as const, url: `/api/v1/Security/Token?${query}`, headers: { client_secret: t.firm.clientSecret } },
        { method: 'GET' as const, url: `/api/v1/Security/Token?refresh_token=${refreshToken}`, headers: { ...partnerHeaders(t.firm) } },
        { method: 'POST' as const, url: `/api/v1/Security/Token?grant_type=refresh_token&client_secret=${t.firm.clientSecret}`, headers: { client_id: String(t.firm.clientId), authorization: `Bearer ${refreshToken}` } },
      ]) {
        const refused = await t.app.inject(request);
        expect(refused.statusCode, request.url).toBe(400);
        expect(refused.json().error, request.url).toBe('invalid_request');
        expect(refused.json().error_description, request.url).toMatch(/must not be sent in the URL/);
      }
      // The refused attempts spent nothing: the refresh token still works in a spec form.
      const refreshed = await t.app.inject({ url: '/api/v1/Security/Token', headers: { authorization: `Bearer ${refreshToken}`, ...partnerHeaders(t.firm) } });
      expect(refreshed.statusCode, refreshed.body).toBe(200);
    });
  });
});

describeEachDatabase('security: PUSH_ALLOW_PRIVATE_NETWORKS on, plain http PUBLIC_URL', (database) => {
  const t = useTestApp(database, { env: { PUSH_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let push: Awaited<ReturnType<typeof pushSetUp>>;
  const servers: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    push = await pushSetUp(t);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('lets a firm push into its own network when the operator turns the setting on', async () => {
    const local = await receiver(204);
    servers.push(local);
    expect((await push.register(`http://127.0.0.1:${local.port}/hook`)).statusCode).toBe(200);
    expect((await push.register('https://10.0.0.5/hook')).statusCode).toBe(200);
    expect((await push.register('http://10.0.0.5/hook')).statusCode).toBe(400);
    expect((await push.register(`http://127.0.0.1:${local.port}/hook`)).statusCode).toBe(200);
    expect((await push.post()).statusCode).toBe(200);
    expect((await push.settled())[0]).toMatchObject({ status: 'delivered', lastError: null });
    expect(local.received).toEqual(['/hook']);
  });

  it('follows no redirect, and tells a closed port only as "no answer"', async () => {
    const target = await receiver(200);
    const redirecting = await receiver(307, `http://127.0.0.1:${target.port}/elsewhere`);
    servers.push(target, redirecting);
    expect((await push.register(`http://127.0.0.1:${redirecting.port}/hook`)).statusCode).toBe(200);
    expect((await push.post()).statusCode).toBe(200);
    expect((await push.settled())[0]).toMatchObject({ status: 'pending', attempts: 1, lastError: 'the endpoint answered HTTP 307' });
    expect(redirecting.received).toEqual(['/hook']);
    expect(target.received).toEqual([]);

    const closed = await receiver(200);
    await closed.close();
    expect((await push.register(`http://127.0.0.1:${closed.port}/hook`)).statusCode).toBe(200);
    expect((await push.post()).statusCode).toBe(200);
    const [latest] = await push.settled();
    expect(latest).toMatchObject({ status: 'pending', attempts: 1, lastError: 'no answer from the endpoint' });
  });

  it('sends no HSTS header while PUBLIC_URL is plain http, and still no-store and nosniff', async () => {
    const answer = await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: await t.session('reader') } });
    expect(answer.headers['strict-transport-security']).toBeUndefined();
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });
});
