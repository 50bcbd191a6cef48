import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { authorize, csrfOf, exchange, fakeClock, form } from '../../test/support/oauth.js';

const REDIRECT = 'https://partner.example/alpha/callback';

describeEachDatabase('OAuth 2.0 authorization-code flow', (database) => {
  const clock = fakeClock();
  const t = useTestApp(database, { clock });
  const user = () => t.firm.users.advisor;
  const codeFor = async (extra: { codeChallenge?: string } = {}) => {
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user().userName, password: user().password, ...extra });
    return flow.code!;
  };
  const grant = (code: string, extra: Record<string, string> = {}) => ({
    grant_type: 'authorization_code',
    code,
    client_id: String(t.firm.clientId),
    redirect_uri: REDIRECT,
    response_type: 'code',
    client_secret: t.firm.clientSecret,
    ...extra,
  });
  const clients = (token: string) => t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: `Session ${token}` } });

  it('signs in, asks consent, redirects with code and the unchanged state, and the code buys tokens that work', async () => {
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user().userName, password: user().password, state: 'a b&c' });
    expect(flow.consent!.statusCode).toBe(302);
    expect(`${flow.location!.origin}${flow.location!.pathname}`).toBe(REDIRECT);
    expect(flow.location!.searchParams.get('state')).toBe('a b&c');
    const response = await exchange(t.app, grant(flow.code!));
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 36000 });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await clients(body.access_token)).statusCode).toBe(200);
  });

  it('accepts the exchange as query parameters, as headers and as a form body', async () => {
    for (const as of ['query', 'headers', 'form'] as const) {
      const response = await exchange(t.app, grant(await codeFor()), as);
      expect(response.statusCode, as).toBe(200);
    }
  });

  it('serves the sign-in page without JavaScript, framing or CORS, with a CSRF token', async () => {
    const page = await t.app.inject({ url: `/api/oauth/?response_type=code&client_id=${t.firm.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}&state=s`, headers: { origin: 'https://evil.example' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    expect(page.body).not.toContain('<script');
    expect(page.body).toMatch(/<form method="post" action="signin">/);
    expect(csrfOf(page.body)).toHaveLength(43);
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly/i);
  });

  it('refuses a bad CSRF token and a flow without its cookie', async () => {
    const start = await t.app.inject({ url: `/api/oauth/?response_type=code&client_id=${t.firm.clientId}&redirect_uri=${encodeURIComponent(REDIRECT)}` });
    const cookie = String(start.headers['set-cookie']).split(';')[0]!;
    const forged = await t.app.inject({ method: 'POST', url: '/api/oauth/signin', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, payload: form({ csrf: 'forged', username: user().userName, password: user().password }) });
    expect(forged.statusCode).toBe(403);
    const noCookie = await t.app.inject({ method: 'POST', url: '/api/oauth/signin', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ csrf: csrfOf(start.body), username: user().userName, password: user().password }) });
    expect(noCookie.statusCode).toBe(400);
    expect(noCookie.body).toContain('expired');
  });

  it('shows errors as a 401 page (section 7), never a redirect, for missing, empty or wrong request parameters', async () => {
    const good = { response_type: 'code', client_id: String(t.firm.clientId), redirect_uri: REDIRECT };
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...good, client_id: '' }, /missing client_id/],
      [{ response_type: 'code', redirect_uri: REDIRECT }, /missing client_id/],
      [{ ...good, response_type: 'token' }, /response_type must be &quot;code&quot;/],
      [{ client_id: good.client_id, redirect_uri: REDIRECT }, /missing response_type/],
      [{ response_type: 'code', client_id: good.client_id }, /missing redirect_uri/],
      [{ ...good, client_id: '999999' }, /not a registered application/],
      [{ ...good, client_id: String(t.otherFirm.clientId) }, /not registered for this application/],
      [{ ...good, redirect_uri: `${REDIRECT}/` }, /not registered/],
      [{ ...good, redirect_uri: REDIRECT.toUpperCase() }, /not registered/],
      [{ ...good, redirect_uri: 'https://Partner.example/alpha/callback' }, /not registered/],
      [{ ...good, redirect_uri: `${REDIRECT}?next=1` }, /not registered/],
      [{ ...good, redirect_uri: 'https://partner.example:8443/alpha/callback' }, /not registered/],
      [{ ...good, redirect_uri: 'http://partner.example/alpha/callback' }, /not registered/],
      [{ ...good, code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }, /must be S256/],
    ];
    for (const [query, message] of cases) {
      const response = await t.app.inject({ url: `/api/oauth/?${new URLSearchParams(query)}` });
      expect(response.statusCode, JSON.stringify(query)).toBe(401);
      expect(response.headers.location).toBeUndefined();
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toMatch(message);
    }
    // An unencoded redirect_uri with its own query splits into other parameters and matches nothing.
    const raw = await t.app.inject({ url: `/api/oauth/?response_type=code&client_id=${t.firm.clientId}&redirect_uri=${REDIRECT}?a=1&b=2` });
    expect(raw.statusCode).toBe(401);
    expect(raw.body).toContain('Could not create authentication code');
  });

  it('answers the versioned oauth path with 401 and WWW-Authenticate: Basic', async () => {
    for (const url of ['/api/v1/oauth/', '/api/v1/oauth/?response_type=code']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toMatch(/^Basic/);
    }
  });

  it('refuses API and service accounts at the sign-in page', async () => {
    for (const who of ['api', 'service'] as const) {
      const account = t.firm.users[who];
      const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: account.userName, password: account.password });
      expect(flow.signIn.statusCode).toBe(401);
      expect(flow.signIn.body).toContain('API and service accounts cannot sign in here; they log in with Basic credentials at /api/v1/security/token.');
      expect(flow.code).toBeUndefined();
    }
  });

  it('refuses another firm\'s user through this firm\'s application', async () => {
    const stranger = t.otherFirm.users.advisor;
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: stranger.userName, password: stranger.password });
    expect(flow.signIn.statusCode).toBe(401);
    expect(flow.signIn.body).toContain('not correct');
  });

  it('redirects a denial with error=access_denied and the state', async () => {
    const flow = await authorize(t.app, { clientId: t.firm.clientId, redirectUri: REDIRECT, userName: user().userName, password: user().password, state: 'keep', decision: 'deny' });
    expect(flow.location!.searchParams.get('error')).toBe('access_denied');
    expect(flow.location!.searchParams.get('state')).toBe('keep');
    expect(flow.code).toBeUndefined();
  });

  it('refuses a reused code with invalid_grant and revokes the tokens issued from it', async () => {
    const code = await codeFor();
    const first = (await exchange(t.app, grant(code))).json();
    const again = await exchange(t.app, grant(code));
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await clients(first.access_token)).statusCode).toBe(401);
    const refresh = await exchange(t.app, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    expect(refresh.statusCode).toBe(401);
  });

  it('refuses an expired code (one minute)', async () => {
    const code = await codeFor();
    clock.advance(61_000);
    const response = await exchange(t.app, grant(code));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'invalid_grant', error_description: 'the authorization code has expired' });
  });

  it('refuses a wrong secret, another client, a different or unencoded redirect_uri, and each missing or empty parameter', async () => {
    const wrongSecret = await exchange(t.app, grant(await codeFor(), { client_secret: crypto.randomUUID() }));
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json().error).toBe('invalid_client');
    const otherClient = await exchange(t.app, grant(await codeFor(), { client_id: String(t.otherFirm.clientId), client_secret: t.otherFirm.clientSecret }));
    expect(otherClient.json().error).toBe('invalid_grant');
    const otherRedirect = await exchange(t.app, grant(await codeFor(), { redirect_uri: `${REDIRECT}/` }));
    expect(otherRedirect.json().error).toBe('invalid_grant');
    const code = await codeFor();
    const unencoded = await t.app.inject({ method: 'POST', url: `/api/v1/Security/Token?grant_type=authorization_code&code=${code}&client_id=${t.firm.clientId}&client_secret=${t.firm.clientSecret}&response_type=code&redirect_uri=${REDIRECT}?x=1&y=2` });
    expect(unencoded.statusCode).toBe(401);
    // Section 5.3: even a plain registered URI must be URL-encoded in the query form.
    const plain = await t.app.inject({ method: 'POST', url: `/api/v1/Security/Token?grant_type=authorization_code&code=${code}&client_id=${t.firm.clientId}&client_secret=${t.firm.clientSecret}&response_type=code&redirect_uri=${REDIRECT}` });
    expect(plain.statusCode).toBe(401);
    expect(plain.json()).toEqual({ error: 'invalid_request', error_description: 'redirect_uri in the query must be URL-encoded (or send it in a form body)' });
    const encoded = await t.app.inject({ method: 'POST', url: `/api/v1/Security/Token?grant_type=authorization_code&code=${code}&client_id=${t.firm.clientId}&client_secret=${t.firm.clientSecret}&redirect_uri=${encodeURIComponent(REDIRECT)}` });
    expect(encoded.statusCode, encoded.body).toBe(200); // and response_type may be left out, as generic clients do
    for (const name of ['code', 'client_id', 'redirect_uri', 'client_secret', 'grant_type']) {
      for (const value of [undefined, '']) {
        const fields = grant(await codeFor());
        if (value === undefined) delete (fields as Record<string, string>)[name];
        else (fields as Record<string, string>)[name] = value;
        const response = await exchange(t.app, fields);
        expect(response.statusCode, `${name}=${value}`).toBe(401);
        expect(response.json().error).toBe('invalid_request');
        expect(response.json().error_description).toContain(name);
      }
    }
  });

  it('enforces PKCE (S256) when the client sent a challenge', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const wrong = await exchange(t.app, grant(await codeFor({ codeChallenge: challenge }), { code_verifier: randomBytes(32).toString('base64url') }));
    expect(wrong.json().error).toBe('invalid_grant');
    const missing = await exchange(t.app, grant(await codeFor({ codeChallenge: challenge })));
    expect(missing.json().error).toBe('invalid_grant');
    const right = await exchange(t.app, grant(await codeFor({ codeChallenge: challenge }), { code_verifier: verifier }));
    expect(right.statusCode).toBe(200);
  });

  it('refreshes in the three forms of section 5.4, rotating the refresh token each time', async () => {
    let tokens = (await exchange(t.app, grant(await codeFor()))).json();
    const headers = (rt: string) => ({ authorization: `Bearer ${rt}`, accept: 'application/json', client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    const forms = [
      (rt: string) => t.app.inject({ method: 'GET', url: '/api/v1/Security/Token', headers: headers(rt) }),
      (rt: string) => t.app.inject({ method: 'POST', url: '/api/v1/Security/Token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form({ Authorization: `Bearer ${rt}`, Accept: 'application/json', client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret }) }),
      (rt: string) => t.app.inject({ method: 'POST', url: '/api/v1/Security/Token', headers: headers(rt) }),
    ];
    for (const refresh of forms) {
      const response = await refresh(tokens.refresh_token);
      expect(response.statusCode).toBe(200);
      const next = response.json();
      expect(next.refresh_token).not.toBe(tokens.refresh_token);
      expect((await clients(next.access_token)).statusCode).toBe(200);
      tokens = next;
    }
  });

  it('revokes the whole chain when a used refresh token is presented again after the grace period', async () => {
    const first = (await exchange(t.app, grant(await codeFor()))).json();
    const refresh = (rt: string) => exchange(t.app, { grant_type: 'refresh_token', refresh_token: rt, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    const second = (await refresh(first.refresh_token)).json();
    clock.advance(5_001); // REFRESH_GRACE_SECONDS (5) has passed: this is a replay, not a retry.
    const replay = await refresh(first.refresh_token);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error).toBe('invalid_grant');
    expect((await clients(second.access_token)).statusCode).toBe(401);
    expect((await refresh(second.refresh_token)).statusCode).toBe(401);
  });

  it('gives two concurrent refreshes with the same token the same successor pair', async () => {
    const tokens = (await exchange(t.app, grant(await codeFor()))).json();
    const fields = { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret };
    const results = await Promise.all([exchange(t.app, fields), exchange(t.app, fields)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results[0].json().refresh_token).toBe(results[1].json().refresh_token);
  });

  it('refuses another client\'s refresh token', async () => {
    const tokens = (await exchange(t.app, grant(await codeFor()))).json();
    const response = await exchange(t.app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: String(t.otherFirm.clientId), client_secret: t.otherFirm.clientSecret });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('invalid_grant');
  });

  it('keeps one active refresh token per user and client', async () => {
    const older = (await exchange(t.app, grant(await codeFor()))).json();
    await exchange(t.app, grant(await codeFor()));
    const response = await exchange(t.app, { grant_type: 'refresh_token', refresh_token: older.refresh_token, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret });
    expect(response.statusCode).toBe(401);
  });

  it('expires access tokens after their lifetime', async () => {
    const tokens = (await exchange(t.app, grant(await codeFor()))).json();
    expect((await clients(tokens.access_token)).statusCode).toBe(200);
    clock.advance(36_001_000);
    expect((await clients(tokens.access_token)).statusCode).toBe(401);
  });

  it('publishes RFC 8414 metadata', async () => {
    for (const url of ['/api/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/api']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        issuer: 'http://localhost:8080/api',
        authorization_endpoint: 'http://localhost:8080/api/oauth/',
        token_endpoint: 'http://localhost:8080/api/v1/Security/Token',
        code_challenge_methods_supported: ['S256'],
      });
    }
  });
});
