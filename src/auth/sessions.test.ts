import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { AuthRepository } from './repository.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { authorize, exchange, fakeClock } from '../../test/support/oauth.js';

const REDIRECT = 'https://partner.example/alpha/callback';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Sessions survive races; abuse is contained; an administrator controls access at once. */
describeEachDatabase('sessions and abuse', (database) => {
  const clock = fakeClock();
  const t = useTestApp(database, { clock, env: { SIGN_IN_MAX_FAILURES: '5', SIGN_IN_LOCK_SECONDS: '600', REFRESH_GRACE_SECONDS: '5' } });
  const login = (userName: string, password: string, address = '10.0.0.1') =>
    t.app.inject({ url: '/api/v1/security/token', remoteAddress: address, headers: { authorization: basic(userName, password), client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret } });
  const clients = (token: string) => t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: `Session ${token}` } });
  const tokensOf = async (user: { userName: string; password: string }) => {
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user.userName, password: user.password });
    const response = await exchange(t.app, { grant_type: 'authorization_code', code: flow.code!, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret, redirect_uri: REDIRECT });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ access_token: string; refresh_token: string }>();
  };
  const refresh = (refreshToken: string) =>
    exchange(t.app, { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
  const admin = async (method: 'GET' | 'PUT', url: string, payload?: object, as: 'admin' | 'reader' = 'admin') =>
    t.app.inject({ method, url, payload, headers: { authorization: await t.session(as) } });

  it('twenty parallel refreshes with one token all get the same working pair, and the session lives on', async () => {
    const tokens = await tokensOf(t.firm.users.advisor);
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(tokens.refresh_token)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const pairs = new Set(results.map((r) => `${r.json().access_token} ${r.json().refresh_token}`));
    expect(pairs.size).toBe(1);
    const successor = results[0]!.json<{ access_token: string; refresh_token: string }>();
    expect((await clients(successor.access_token)).statusCode).toBe(200);
    // One active refresh token per user and client once the race settles: the successor works on.
    const next = await refresh(successor.refresh_token);
    expect(next.statusCode).toBe(200);
    expect((await clients(next.json().access_token)).statusCode).toBe(200);
  });

  it('a used refresh token presented after the grace period is a replay: the family is revoked', async () => {
    const tokens = await tokensOf(t.firm.users.advisor);
    const successor = (await refresh(tokens.refresh_token)).json<{ access_token: string; refresh_token: string }>();
    clock.advance(5_001);
    const replay = await refresh(tokens.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_grant');
    expect((await clients(successor.access_token)).statusCode).toBe(401);
    expect((await refresh(successor.refresh_token)).statusCode).toBe(401);
  });

  it('failures from one address never lock out another user who gives the right password', async () => {
    for (let i = 0; i < 20; i++) expect((await login(`nobody-${i}`, 'wrong', '10.9.9.9')).statusCode).toBe(401);
    const administrator = t.firm.users.admin;
    expect((await login(administrator.userName, administrator.password, '10.9.9.9')).statusCode).toBe(200);
  });

  it('locks a user name at one address after the limit; the same user elsewhere still gets in', async () => {
    const user = t.firm.users.api;
    for (let i = 0; i < 5; i++) expect((await login(user.userName, 'wrong', '10.1.1.1')).statusCode).toBe(401);
    expect((await login(user.userName, user.password, '10.1.1.1')).statusCode).toBe(429);
    expect((await login(user.userName, user.password, '10.2.2.2')).statusCode).toBe(200);
    clock.advance(601_000);
    expect((await login(user.userName, user.password, '10.1.1.1')).statusCode).toBe(200);
  });

  it('an unknown user name and a wrong password get the same answer', async () => {
    const unknown = await login('no-such-user', 'wrong', '10.3.3.3');
    const wrong = await login(t.firm.users.reader.userName, 'wrong', '10.3.3.3');
    expect(unknown.statusCode).toBe(wrong.statusCode);
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('an administrator deactivates a user (tokens refused at once), reactivates, and resets a password', async () => {
    const service = t.firm.users.service;
    const live = (await login(service.userName, service.password, '10.4.4.4')).json<{ access_token: string }>().access_token;
    expect((await clients(live)).statusCode).toBe(200);

    const listed = await admin('GET', '/api/v1/Security/Users');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toContainEqual({ id: service.id, userName: service.userName, displayName: expect.any(String), kind: 'service', isActive: true });

    const off = await admin('PUT', `/api/v1/Security/Users/${service.id}/Action/Deactivate`);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ id: service.id, isActive: false });
    expect((await clients(live)).statusCode).toBe(401);
    expect((await login(service.userName, service.password, '10.4.4.4')).statusCode).toBe(401);

    const on = await admin('PUT', `/api/v1/Security/Users/${service.id}/Action/Reactivate`);
    expect(on.json()).toMatchObject({ id: service.id, isActive: true });
    const again = (await login(service.userName, service.password, '10.4.4.4')).json<{ access_token: string }>().access_token;
    expect((await clients(live)).statusCode).toBe(401); // revoked at deactivation, stays revoked

    const reset = await admin('PUT', `/api/v1/Security/Users/${service.id}/Password`, {});
    expect(reset.statusCode).toBe(200);
    const generated = reset.json<{ password: string }>().password;
    expect(generated.length).toBeGreaterThanOrEqual(12);
    expect((await clients(again)).statusCode).toBe(401);
    expect((await login(service.userName, service.password, '10.4.4.4')).statusCode).toBe(401);
    expect((await login(service.userName, generated, '10.4.4.4')).statusCode).toBe(200);
    const chosen = await admin('PUT', `/api/v1/Security/Users/${service.id}/Password`, { password: service.password });
    expect(chosen.json()).toEqual({ user: expect.objectContaining({ id: service.id }) });
  });

  it('refuses what an administrator may not do, naming why', async () => {
    const short = await admin('PUT', `/api/v1/Security/Users/${t.firm.users.reader.id}/Password`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ field: 'password', message: expect.stringMatching(/12/) }]);
    const self = await admin('PUT', `/api/v1/Security/Users/${t.firm.users.admin.id}/Action/Deactivate`);
    expect(self.statusCode).toBe(409);
    const otherFirm = await admin('PUT', `/api/v1/Security/Users/${t.otherFirm.users.reader.id}/Action/Deactivate`);
    expect(otherFirm.statusCode).toBe(404);
    const notAdmin = await admin('PUT', `/api/v1/Security/Users/${t.firm.users.advisor.id}/Action/Deactivate`, undefined, 'reader');
    expect(notAdmin.statusCode).toBe(403);
    expect((await admin('GET', '/api/v1/Security/Users')).json()).toContainEqual(expect.objectContaining({ id: t.firm.users.advisor.id, isActive: true }));
  });

  it('pages the firm\'s users: 100 by default, $top/$skip in id order, the total always, the next page in Link', async () => {
    const path = '/api/v1/Security/Users';
    const whole = await admin('GET', path);
    const all = whole.json().map((u: { id: number }) => u.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(all).toEqual([...all].sort((a: number, b: number) => a - b));
    expect(all).not.toContain(t.otherFirm.users.reader.id);
    expect(whole.headers['x-total-count']).toBe(String(all.length));
    expect(whole.headers.link).toBeUndefined();
    const page = await admin('GET', `${path}?$top=1&$skip=1`);
    expect(page.json().map((u: { id: number }) => u.id)).toEqual(all.slice(1, 2));
    expect(page.headers['x-total-count']).toBe(String(all.length));
    expect(page.headers.link).toBe(`<${path}?$top=1&$skip=2>; rel="next"`);
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=1001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip']]) {
      const bad = await admin('GET', `${path}?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });

  it('a token issued through a partner app is refused once the app is revoked', async () => {
    const tokens = await tokensOf(t.firm.users.reader);
    expect((await clients(tokens.access_token)).statusCode).toBe(200);
    const apps = new AuthRepository(t.db.kysely, t.app.revocations);
    await apps.setPartnerAppActive(t.firm.clientId, false);
    expect((await clients(tokens.access_token)).statusCode).toBe(401);
    await apps.setPartnerAppActive(t.firm.clientId, true);
  });
});
