import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import * as oauth from 'oauth4webapi';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { describeEachDatabase } from './support/databases.js';
import { csrfOf } from './support/oauth.js';
import { portsPerDatabase } from './support/ports.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const insecure = { [oauth.allowInsecureRequests]: true };

/** Stands in for the partner's redirect URI on loopback. */
function callbackReceiver(): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('signed in'));
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${address.port}/callback` });
    });
  });
}

// The issuer the metadata names is PUBLIC_URL's: the server listens where PUBLIC_URL says.
const ports = await portsPerDatabase();

describeEachDatabase('real OAuth clients against the running server', (database) => {
  const port = ports[database.name];
  const t = useTestApp(database, { env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  let base = '';
  let receiver: { server: Server; url: string };

  beforeAll(async () => {
    receiver = await callbackReceiver();
    await t.db.kysely.updateTable('partner_apps').set({ redirect_uris: JSON.stringify([receiver.url]) }).where('id', '=', t.firm.clientId).execute();
    base = await t.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => new Promise<void>((resolve) => receiver?.server.close(() => resolve())));

  it('oauth4webapi completes the code flow with PKCE and a refresh', async () => {
    const issuer = new URL(`${base}/api`);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const client: oauth.Client = { client_id: String(t.firm.clientId) };
    const auth = oauth.ClientSecretPost(t.firm.clientSecret);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint!);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.client_id,
      redirect_uri: receiver.url,
      state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    // The user's part, as a browser without JavaScript would do it.
    const page = await fetch(url);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = csrfOf(await page.text());
    const user = t.firm.users.advisor;
    const headers = { 'content-type': 'application/x-www-form-urlencoded', cookie };
    const signIn = await fetch(`${base}/api/oauth/signin`, { method: 'POST', headers, body: new URLSearchParams({ csrf, username: user.userName, password: user.password }) });
    expect(signIn.status).toBe(200);
    const consent = await fetch(`${base}/api/oauth/consent`, { method: 'POST', headers, body: new URLSearchParams({ csrf, decision: 'allow' }), redirect: 'manual' });
    expect(consent.status).toBe(302);

    const params = oauth.validateAuthResponse(as, client, new URL(consent.headers.get('location')!), state);
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await oauth.authorizationCodeGrantRequest(as, client, auth, params, receiver.url, verifier, insecure));
    expect(tokens.expires_in).toBe(36000);
    const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, auth, tokens.refresh_token!, insecure));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const clients = await fetch(`${base}/api/v1/Portfolio/Clients`, { headers: { authorization: `Session ${refreshed.access_token}` } });
    expect(clients.status).toBe(200);
  });

  it.skipIf(!existsSync(CHROMIUM))('a browser signs in, consents and is redirected; the code buys a working token', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      const query = new URLSearchParams({ response_type: 'code', client_id: String(t.firm.clientId), redirect_uri: receiver.url, state: 'browser-state' });
      await page.goto(`${base}/api/oauth/?${query}`);
      await expect(page.title()).resolves.toBe('Sign in');
      await page.screenshot({ path: join(ARTIFACTS, `oauth-sign-in-${database.name}.png`) });
      const user = t.firm.users.advisor;
      await page.fill('#username', user.userName);
      await page.fill('#password', 'wrong password');
      await page.click('button[type=submit]');
      await expect(page.locator('[role=alert]').textContent()).resolves.toContain('not correct');
      await page.fill('#password', user.password);
      await page.click('button[type=submit]');
      await expect(page.title()).resolves.toBe('Allow access');
      await Promise.all([page.waitForURL((u) => u.href.startsWith(receiver.url)), page.click('button[value=allow]')]);
      const redirected = new URL(page.url());
      expect(redirected.searchParams.get('state')).toBe('browser-state');
      const code = redirected.searchParams.get('code')!;

      const token = await fetch(`${base}/api/v1/Security/Token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, client_id: String(t.firm.clientId), redirect_uri: receiver.url, response_type: 'code', client_secret: t.firm.clientSecret }),
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const clients = await fetch(`${base}/api/v1/Portfolio/Clients`, { headers: { authorization: `Session ${access_token}` } });
      expect(clients.status).toBe(200);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
