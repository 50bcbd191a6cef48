import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { authorize, exchange, fakeClock } from '../../test/support/oauth.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describeEachDatabase('authentication hardening', (database) => {
  const clock = fakeClock();
  const logLines: string[] = [];
  const t = useTestApp(database, { clock, env: { LOG_LEVEL: 'info', SIGN_IN_MAX_FAILURES: '3', SIGN_IN_LOCK_SECONDS: '600' }, logStream: { write: (line) => void logLines.push(line) } });
  const login = (userName: string, password: string) =>
    t.app.inject({ url: '/api/v1/security/token', headers: { authorization: basic(userName, password), client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret } });

  it('Basic login returns an access token and no refresh token (docs/decisions/authentication.md)', async () => {
    const user = t.firm.users.api;
    const response = await login(user.userName, user.password);
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
  });

  it('locks a user out after repeated failures with a clear message, even for the right password, until the lock ends', async () => {
    const user = t.firm.users.reader;
    for (let i = 0; i < 3; i++) expect((await login(user.userName, 'wrong')).statusCode).toBe(401);
    const locked = await login(user.userName, user.password);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'Too many failed sign-ins. Try again in 10 minute(s).' });
    expect(locked.headers['retry-after']).toBe('600');
    // The sign-in page says the same.
    const page = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: 'https://partner.example/alpha/callback', userName: user.userName, password: user.password });
    expect(page.signIn.body).toContain('Too many failed sign-ins');
    clock.advance(601_000);
    expect((await login(user.userName, user.password)).statusCode).toBe(200);
  });

  it('issues a rebalancer token for a platform token or a Basic login (with the partner\'s credentials, as on the platform), and refuses anything else', async () => {
    const fromSession = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: await t.session('advisor') } });
    expect(fromSession.statusCode).toBe(200);
    expect(fromSession.json()).toMatchObject({ token_type: 'Session', expires_in: 36000 });
    expect(fromSession.json().eclipse_access_token).toBe(fromSession.json().access_token);
    const service = t.firm.users.service;
    const partner = { client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret };
    const fromBasic = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: basic(service.userName, service.password), ...partner } });
    expect(fromBasic.statusCode).toBe(200);
    for (const authorization of [undefined, 'Session nope', basic(service.userName, 'wrong')]) {
      const refused = await t.app.inject({ url: '/rebalancer/v1/admin/token', headers: authorization ? { authorization } : {} });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ status: 401, code: 'unauthorized' });
    }
  });

  it('never writes tokens, codes, secrets or passwords to the log', async () => {
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: 'https://partner.example/alpha/callback', userName: t.firm.users.advisor.userName, password: t.firm.users.advisor.password });
    const secrets = [flow.code!, t.firm.clientSecret, t.firm.users.advisor.password];
    const query = new URLSearchParams({ grant_type: 'authorization_code', code: flow.code!, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret, redirect_uri: 'https://partner.example/alpha/callback' });
    const tokens = (await t.app.inject({ method: 'POST', url: `/api/v1/Security/Token?${query}` })).json();
    secrets.push(tokens.access_token, tokens.refresh_token);
    await exchange(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: `Session ${tokens.access_token}` } });
    const log = logLines.join('');
    expect(log).toContain('/api/v1/Security/Token');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
