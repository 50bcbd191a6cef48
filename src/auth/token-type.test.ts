import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { authorize, exchange } from '../../test/support/oauth.js';

const REDIRECT = 'https://partner.example/alpha/callback';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * RFC 6749 5.1 makes `token_type` part of every successful token answer; section 2.1's token
 * response and 5.5's Basic login ("the response carries access_token and expires_in") name the
 * rest. Every way to a token, in both applications, says how to send it.
 */
describeEachDatabase('token_type on every token answer', (database) => {
  const t = useTestApp(database);

  it('the platform: Basic login (5.5), code exchange (5.3) and refresh (5.4) all answer token_type Bearer', async () => {
    const { api } = t.firm.users;
    const login = await t.app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: basic(api.userName, api.password), client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json()).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 36000 });
    // The token works sent either way the type allows.
    for (const scheme of ['Session', 'Bearer']) {
      const clients = await t.app.inject({ url: '/api/v1/Portfolio/Clients?$top=1', headers: { authorization: `${scheme} ${login.json().access_token}` } });
      expect(clients.statusCode, scheme).toBe(200);
    }

    const { advisor } = t.firm.users;
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: advisor.userName, password: advisor.password });
    const pair = await exchange(t.app, { grant_type: 'authorization_code', code: flow.code!, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret, redirect_uri: REDIRECT, response_type: 'code' });
    expect(pair.json()).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String) });
    const refreshed = await exchange(t.app, { grant_type: 'refresh_token', refresh_token: pair.json().refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    expect(refreshed.json()).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
  });

  it('the rebalancer: its token for Basic credentials and for a platform token answers token_type Session', async () => {
    const { service } = t.firm.users;
    const fromBasic = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: basic(service.userName, service.password), client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret } });
    expect(fromBasic.statusCode, fromBasic.body).toBe(200);
    expect(fromBasic.json()).toEqual({ eclipse_access_token: expect.any(String), access_token: fromBasic.json().eclipse_access_token, token_type: 'Session', expires_in: 36000 });
    const fromSession = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('advisor') } });
    expect(fromSession.json()).toMatchObject({ token_type: 'Session' });
  });

  it('documents token_type as always present', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const path = Object.keys(document.paths).find((p) => p.toLowerCase().endsWith('/v1/security/token'))!;
    const login = document.paths[path].get.responses['200'].content['application/json'].schema;
    expect(login.required).toContain('token_type');
  });
});
