import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { authorize, exchange } from '../../test/support/oauth.js';
import { type DemoCredentials, seedDemoFirm } from '../seed/demo.js';

const HOST = { host: 'localhost:8080' };
const CALLBACK = 'http://localhost:8080/api/oauth/callback';

const unescape = (html: string) => html.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const element = (html: string, id: string) => {
  const match = html.match(new RegExp(`<pre id="${id}">([\\s\\S]*?)</pre>`));
  return match ? unescape(match[1]!) : undefined;
};

describeEachDatabase('the demo partner\'s "copy your code" page', (database) => {
  const t = useTestApp(database);
  let demo: DemoCredentials;

  beforeAll(async () => {
    demo = await seedDemoFirm(t.db, { households: 0, seed: 1, firmCode: 'CODEPAGE' });
  });

  it('is where the demo partner sends the browser, and its code and command buy a working token', async () => {
    expect(demo.partner.redirectUris).toEqual([CALLBACK]);
    const advisor = demo.users.find((u) => u.role === 'Advisor')!;
    const flow = await authorize(t.app, { clientId: demo.partner.clientId, redirectUri: CALLBACK, userName: advisor.userName, password: advisor.password, state: 'step-1' });
    expect(flow.consent!.statusCode).toBe(302);
    expect(`${flow.location!.origin}${flow.location!.pathname}`).toBe(CALLBACK);

    const page = await t.app.inject({ url: `${flow.location!.pathname}${flow.location!.search}`, headers: HOST });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    const code = element(page.body, 'code')!;
    expect(code).toBe(flow.code);
    expect(element(page.body, 'state')).toBe('step-1');
    const command = element(page.body, 'exchange')!;
    expect(command).toContain("curl -s -X POST 'http://localhost:8080/api/v1/Security/Token'");
    expect(command).toContain(`-d code=${code}`);
    expect(command).toContain(`--data-urlencode redirect_uri='${CALLBACK}'`);

    // What the command sends, as a form body.
    const tokens = await exchange(t.app, { grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: String(demo.partner.clientId), client_secret: demo.partner.clientSecret });
    expect(tokens.statusCode).toBe(200);
    const clients = await t.app.inject({ url: '/api/v1/Portfolio/Clients', headers: { authorization: `Session ${tokens.json().access_token}` } });
    expect(clients.statusCode).toBe(200);
  });

  it('says so when the user denied access', async () => {
    const page = await t.app.inject({ url: '/api/oauth/callback?error=access_denied&state=s1', headers: HOST });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<strong id="error">access_denied</strong>');
    expect(element(page.body, 'state')).toBe('s1');
    expect(page.body).not.toContain('id="exchange"');
  });

  it('answers 400 without a code or an error', async () => {
    const page = await t.app.inject({ url: '/api/oauth/callback', headers: HOST });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('expects a code (or an error)');
  });

  it('shows hostile values escaped and offers no command for a code this service would not issue', async () => {
    const hostile = `<script>alert(1)</script>'"; rm -rf ~ #`;
    const query = new URLSearchParams({ code: hostile, state: `"><img src=x onerror=alert(2)>` });
    const page = await t.app.inject({ url: `/api/oauth/callback?${query}`, headers: HOST });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toMatch(/<script>|<img/);
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&#39;&quot;; rm -rf ~ #');
    expect(element(page.body, 'code')).toBe(hostile);
    expect(element(page.body, 'state')).toBe(`"><img src=x onerror=alert(2)>`);
    expect(page.body).not.toContain('id="exchange"');
    expect(page.body).toContain('does not look like a code this service issues');

    const described = await t.app.inject({ url: `/api/oauth/callback?${new URLSearchParams({ error: '<b>x</b>', error_description: '<i>y</i>' })}`, headers: HOST });
    expect(described.body).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(described.body).toContain('&lt;i&gt;y&lt;/i&gt;');
    expect(described.body).not.toMatch(/<b>x|<i>y/);
  });

  it('refuses an over-long parameter with a 400 naming it', async () => {
    const page = await t.app.inject({ url: `/api/oauth/callback?code=${'a'.repeat(2001)}`, headers: HOST });
    expect(page.statusCode).toBe(400);
    expect(page.json()).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: 'querystring.code' })] });
  });
});
