import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook, type TestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { fakeClock } from '../../test/support/oauth.js';
import { tradingCalls } from '../../test/support/trading.js';
import { loadConfig } from '../config.js';
import { createServices } from '../services.js';
import { rebalancerSession } from '../../test/support/rebalancer.js';
import { call, createPartner, integrate, type Partner, partnerOf, sessionThrough } from './test-support.js';

const DAY = 86_400_000;
const PUBLIC_URL = 'https://wealth.example';

describeEachDatabase('notifications (section 4.12)', (database) => {
  const clock = fakeClock(Date.UTC(2026, 2, 10, 15));
  const logs: string[] = [];
  const t = useTestApp(database, {
    clock,
    env: { ACCESS_TOKEN_TTL_SECONDS: '31536000', PUBLIC_URL, LOG_LEVEL: 'info', PUSH_ALLOW_PRIVATE_NETWORKS: 'true' },
    logStream: { write: (line) => void logs.push(line) },
  });
  let a: Partner;
  let b: Partner;
  let foreign: Partner;
  let advisorA: string;
  let advisorB: string;
  let adminA: string;
  let guidA: string;
  let guidB: string;
  let book: TestBook;
  const today = () => clock.now().toISOString().slice(0, 10);
  const webhook = (guid: string, v1 = true) => `/api${v1 ? '/v1' : ''}/Notify/Users/${guid}/Notifications`;
  const notification = (extra: object = {}) => ({ Subject: 'Statement ready', Body: 'Your March statement is ready.', CategoryName: 'Statements', Url: 'https://partner-a.example/statements/3', ActionName: 'download', ...extra });
  const count = async () => Number((await t.db.kysely.selectFrom('notifications').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const read = async (guid: string, partner: Partner, query = '') => {
    const response = await call(t, 'GET', `${webhook(guid)}${query}`, { partner });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ id: number; subject: string; body: string; url: string | null; partnerAppName: string; integrationId: number | null; categoryName: string | null }[]>();
  };

  beforeAll(async () => {
    a = partnerOf(t.firm);
    b = await createPartner(t.db.kysely, t.firm.firmId, 'Partner B');
    foreign = partnerOf(t.otherFirm);
    advisorA = await t.session('advisor');
    adminA = await t.session('admin');
    advisorB = await sessionThrough(t, 'advisor', b);
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
  });

  describe('POST /v1/Notify/Config/Integrations', () => {
    const url = '/api/v1/Notify/Config/Integrations';

    it('creates the user\'s integration with a fresh webhookGuid, and answers the same one on a second call', async () => {
      const created = await call(t, 'POST', url, { session: advisorA, partner: a, payload: { partnerAppId: a.clientId } });
      expect(created.statusCode, created.body).toBe(200); // section 7: success is 200
      const record = created.json();
      expect(record).toEqual({
        id: expect.any(Number),
        userId: t.firm.users.advisor.id,
        webhookGuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        partnerAppId: a.clientId,
        name: 'Partner of alpha',
        active: true,
        label: 'Partner of alpha',
        custom: false,
        partnerUserName: 'advisor@alpha',
        createdDate: clock.now().toISOString(),
      });
      guidA = record.webhookGuid;
      const again = await call(t, 'POST', '/api/Notify/Config/Integrations', { session: advisorA, partner: a, payload: { partnerAppId: a.clientId } });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(record);

      const throughB = await call(t, 'POST', url, { session: advisorB, partner: b, payload: { partnerAppId: b.clientId } });
      expect(throughB.statusCode).toBe(200);
      expect(throughB.json()).toMatchObject({ userId: t.firm.users.advisor.id, partnerAppId: b.clientId, name: 'Partner B' });
      guidB = throughB.json().webhookGuid;
      expect(guidB).not.toBe(guidA);
    });

    it('needs a Session token: 401 without one or with a bad one', async () => {
      for (const session of [undefined, 'Session nope']) {
        const response = await call(t, 'POST', url, { session, partner: a, payload: { partnerAppId: a.clientId } });
        expect(response.statusCode).toBe(401);
      }
    });

    it('answers 401 for missing or wrong client credentials, naming neither', async () => {
      const missing = await call(t, 'POST', url, { session: advisorA, payload: { partnerAppId: a.clientId } });
      const wrong = await call(t, 'POST', url, { session: advisorA, partner: { clientId: a.clientId, clientSecret: crypto.randomUUID() }, payload: { partnerAppId: a.clientId } });
      const unknown = await call(t, 'POST', url, { session: advisorA, partner: { clientId: 999_999, clientSecret: a.clientSecret }, payload: { partnerAppId: a.clientId } });
      for (const response of [missing, wrong, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ status: 401, code: 'unauthorized', detail: 'client_id or client_secret is missing or not valid' });
      }
    });

    it('refuses a partnerAppId other than the caller\'s (400), another firm\'s partner and a token of another partner (403)', async () => {
      const other = await call(t, 'POST', url, { session: advisorA, partner: a, payload: { partnerAppId: b.clientId } });
      expect(other.statusCode).toBe(400);
      expect(other.json().errors).toEqual([{ field: 'partnerAppId', message: 'must be the client_id of the calling partner application' }]);
      const missing = await call(t, 'POST', url, { session: advisorA, partner: a, payload: {} });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().errors).toEqual([{ field: 'partnerAppId', message: 'is required' }]);
      const otherFirm = await call(t, 'POST', url, { session: advisorA, partner: foreign, payload: { partnerAppId: foreign.clientId } });
      expect(otherFirm.statusCode).toBe(403);
      const mixed = await call(t, 'POST', url, { session: advisorA, partner: b, payload: { partnerAppId: b.clientId } });
      expect(mixed.statusCode).toBe(403);
      expect(mixed.json().detail).toMatch(/another partner application/);
    });
  });

  describe('POST /Notify/Users/{webhookGuid}/Notifications', () => {
    it('stores the notification and answers 200 (section 7) with it as read, with and without /v1', async () => {
      const response = await call(t, 'POST', webhook(guidA), { partner: a, payload: notification() });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        firmId: t.firm.firmId,
        partnerUserName: 'advisor@alpha',
        createdDate: clock.now().toISOString(),
        subject: 'Statement ready',
        body: 'Your March statement is ready.',
        url: 'https://partner-a.example/statements/3',
        status: 0,
        partnerAppName: 'Partner of alpha',
        categoryName: 'Statements',
        integrationId: expect.any(Number),
        actionName: 'download',
      });
      const bare = await call(t, 'POST', webhook(guidA, false), { partner: a, payload: { Subject: 'Plain', Body: 'No extras', CategoryName: '', Url: '' } });
      expect(bare.statusCode).toBe(200);
      expect(bare.json()).toMatchObject({ subject: 'Plain', url: null, categoryName: null, actionName: null });
      const nulls = await call(t, 'POST', webhook(guidA.toUpperCase()), { partner: a, payload: { Subject: 'Nulls', Body: 'b', CategoryName: null, Url: null, ActionName: null } });
      expect(nulls.statusCode).toBe(200);
    });

    it('refuses bad bodies with a 400 naming the field, and writes nothing', async () => {
      const before = await count();
      const cases: [object, string][] = [
        [{ Subject: undefined }, 'Subject'],
        [{ Body: undefined }, 'Body'],
        [{ Subject: '   ' }, 'Subject'],
        [{ Body: '' }, 'Body'],
        [{ Subject: 'x'.repeat(201) }, 'Subject'],
        [{ Body: 'x'.repeat(4001) }, 'Body'],
        [{ CategoryName: 'x'.repeat(101) }, 'CategoryName'],
        [{ CategoryName: 7 }, 'CategoryName'],
        [{ Url: 'not a url' }, 'Url'],
        [{ Url: '/relative/path' }, 'Url'],
        [{ Url: 'ftp://partner.example/file' }, 'Url'],
        [{ Url: 'javascript:alert(1)' }, 'Url'],
        [{ Url: `https://partner.example/${'x'.repeat(2000)}` }, 'Url'],
        [{ ActionName: 'open' }, 'ActionName'],
        [{ ActionName: 'Download' }, 'ActionName'],
      ];
      for (const [extra, field] of cases) {
        const response = await call(t, 'POST', webhook(guidA), { partner: a, payload: notification(extra) });
        expect(response.statusCode, `${JSON.stringify(extra).slice(0, 60)} ${response.body}`).toBe(400);
        expect(response.json().errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      const both = await call(t, 'POST', webhook(guidA), { partner: a, payload: {} });
      expect(both.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['Body', 'Subject']);
      expect(await count()).toBe(before);
      // The bounds themselves are accepted.
      const longest = await call(t, 'POST', webhook(guidA), { partner: a, payload: notification({ Subject: 's'.repeat(200), Body: 'b'.repeat(4000), CategoryName: 'c'.repeat(100) }) });
      expect(longest.statusCode).toBe(200);
    });

    it('answers 401 for a wrong secret and 404 for an unknown or another partner\'s guid, with the same bodies whatever the other part', async () => {
      const wrongSecret = { clientId: a.clientId, clientSecret: crypto.randomUUID() };
      const unknownGuid = crypto.randomUUID();
      const responses401 = [
        await call(t, 'POST', webhook(guidA), { partner: wrongSecret, payload: notification() }),
        await call(t, 'POST', webhook(unknownGuid), { partner: wrongSecret, payload: notification() }),
        await call(t, 'POST', webhook(guidA), { payload: notification() }),
        await call(t, 'POST', webhook(guidA), { partner: wrongSecret, payload: {} }),
        await call(t, 'GET', webhook(guidA), { partner: wrongSecret }),
        await call(t, 'GET', webhook(unknownGuid), { partner: wrongSecret }),
        // A platform token is no substitute for the partner's credentials.
        await call(t, 'GET', webhook(guidA), { session: advisorA }),
      ];
      for (const response of responses401) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(responses401[0]!.json());
      }
      const responses404 = [
        await call(t, 'POST', webhook(unknownGuid), { partner: a, payload: notification() }),
        await call(t, 'POST', webhook(guidB), { partner: a, payload: notification() }),
        await call(t, 'POST', webhook('not-a-guid'), { partner: a, payload: notification() }),
        await call(t, 'GET', webhook(unknownGuid), { partner: a }),
        await call(t, 'GET', webhook(guidB), { partner: a }),
        await call(t, 'GET', webhook(guidA), { partner: foreign }),
      ];
      for (const response of responses404) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'no such webhook' });
      }
    });

    it('never logs a webhook guid in full', async () => {
      await call(t, 'GET', webhook(guidA), { partner: a });
      await call(t, 'POST', webhook(guidB), { partner: b, payload: notification() });
      // Failures too: a wrong secret, another partner's guid, a bad body.
      await call(t, 'GET', webhook(guidA), { partner: { clientId: a.clientId, clientSecret: b.clientSecret } });
      await call(t, 'GET', `/api/notify/users/${guidB}/notifications`, { partner: a });
      await call(t, 'POST', webhook(guidA), { partner: a, payload: { Subject: 1 } });
      const text = logs.join('');
      expect(text).toContain(`/Notify/Users/${guidA.slice(0, 8)}…`);
      for (const guid of [guidA, guidB]) expect(text).not.toContain(guid);
      expect(text).not.toContain(guidA.slice(9));
    });
  });

  describe('GET /Notify/Users/{webhookGuid}/Notifications', () => {
    it('aggregates what every partner and the platform sent the user, newest first, through any partner\'s webhook', async () => {
      const fromA = (await call(t, 'POST', webhook(guidA), { partner: a, payload: notification({ Subject: 'From A' }) })).json();
      const fromB = (await call(t, 'POST', webhook(guidB, false), { partner: b, payload: notification({ Subject: 'From B', Url: 'http://partner-b.example/x', ActionName: null }) })).json();
      expect(fromB).toMatchObject({ partnerAppName: 'Partner B', actionName: null });

      // A rebalance the advisor starts and one that fails.
      const account = await book.account();
      const generate = (keys: number[]) => tradingCalls(t, () => advisorA).generate({ reason: 'NeedReview', keys });
      const complete = await generate([account]);
      const failed = await generate([account, 999_999]);

      const viaB = await read(guidB, b);
      const viaA = await read(guidA, a);
      expect(viaA).toEqual(viaB);
      expect(viaA.map((n) => n.id)).toEqual([...viaA.map((n) => n.id)].sort((x, y) => y - x));
      const [failedNote, completeNote, bNote, aNote] = viaA;
      expect(aNote).toMatchObject({ id: fromA.id, subject: 'From A', partnerAppName: 'Partner of alpha', integrationId: fromA.integrationId });
      expect(bNote).toMatchObject({ id: fromB.id, subject: 'From B', partnerAppName: 'Partner B', integrationId: fromB.integrationId });
      expect(completeNote).toMatchObject({
        subject: `Rebalance batch ${complete} Complete`,
        body: `Rebalance batch ${complete} ended Complete: 1 of 1 item, 0 errors, 0 warnings.`,
        url: `${PUBLIC_URL}/api/Trading/TradeGenerationStatus/${complete}/Message`,
        partnerAppName: 'Platform',
        integrationId: null,
        categoryName: 'Rebalance',
      });
      expect(failedNote).toMatchObject({ subject: `Rebalance batch ${failed} Failed`, partnerAppName: 'Platform', integrationId: null });
      expect(failedNote!.body).toContain('2 of 2 items, 1 error');
      // The link leads to the batch's messages.
      const messages = await call(t, 'GET', failedNote!.url!.slice(PUBLIC_URL.length), { session: advisorA });
      expect(messages.statusCode).toBe(200);
      expect(messages.json()).toMatchObject({ severity: 'Failed' });
      // Each batch is notified once.
      expect(viaA.filter((n) => n.subject.startsWith(`Rebalance batch ${complete} `))).toHaveLength(1);
      // Another user of the firm sees none of it.
      const adminGuid = (await integrate(t, adminA, a)).webhookGuid;
      expect(await read(adminGuid, a)).toEqual([]);
    });

    it('pages with $top, $skip and sinceId, and reports the total', async () => {
      const all = await read(guidA, a, '?$top=500');
      expect(all.length).toBeGreaterThan(3);
      const response = await call(t, 'GET', `${webhook(guidA)}?$top=2&$skip=1`, { partner: a });
      expect(response.headers['x-total-count']).toBe(String(all.length));
      expect(response.json().map((n: { id: number }) => n.id)).toEqual(all.slice(1, 3).map((n) => n.id));
      expect(response.headers.link).toBe(`<${webhook(guidA)}?$top=2&$skip=3>; rel="next"`);
      // The last page names no next one.
      expect((await call(t, 'GET', `${webhook(guidA)}?$top=2&$skip=${all.length - 2}`, { partner: a })).headers.link).toBeUndefined();
      const since = await read(guidA, a, `?sinceId=${all[2]!.id}`);
      expect(since.map((n) => n.id)).toEqual(all.slice(0, 2).map((n) => n.id));
      const bad = await call(t, 'GET', `${webhook(guidA)}?$top=0`, { partner: a });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual([{ field: 'querystring.$top', message: 'must be >= 1' }]);
      expect((await call(t, 'GET', `${webhook(guidA)}?$top=501`, { partner: a })).statusCode).toBe(400);
    });
  });

  describe('set aside cash expiry', () => {
    const root = (accountId: number) => `/rebalancer/v1/account/accounts/${accountId}/asidecash`;
    const sweep = () => createServices(loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL }, { database: database.config }), t.db, clock).setAsideSweeper.runOnce();
    const setAsideNotes = async (guid: string, partner: Partner, id: number) =>
      (await read(guid, partner, '?$top=500')).filter((n) => n.url?.endsWith(`/asidecash/${id}`));

    it('notifies the creator inside the transaction that expires it', async () => {
      const rebalancer = await rebalancerSession(t, 'advisor');
      const accountId = await book.account();
      const created = await call(t, 'POST', root(accountId), { session: rebalancer, payload: { cashAmountTypeId: 1, cashAmount: 250, expirationTypeId: 2, expirationValue: 3, description: 'Advisory fee' } });
      expect(created.statusCode, created.body).toBe(200);
      const fee = await call(t, 'POST', `/api/v1/Portfolio/Accounts/${accountId}/Transactions`, { session: advisorA, payload: { type: 'Fee', amount: 250, tradeDate: today() } });
      expect(fee.statusCode, fee.body).toBe(200);
      expect(fee.json().expiredSetAsideIds).toEqual([created.json().id]);
      const notes = await setAsideNotes(guidB, b, created.json().id);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({
        subject: expect.stringMatching(/^Set aside cash expired on account T/),
        body: expect.stringMatching(new RegExp(`^Advisory fee \\(\\$250\\.00\\) on account T\\S+ expired on ${today()} by transaction ${fee.json().id}\\.$`)),
        url: `${PUBLIC_URL}/rebalancer/v1/account/accounts/${accountId}/asidecash/${created.json().id}`,
        partnerAppName: 'Platform',
        categoryName: 'Set Aside Cash',
        integrationId: null,
      });
      // The link is the record's detail.
      expect((await call(t, 'GET', notes[0]!.url!.slice(PUBLIC_URL.length), { session: rebalancer })).json()).toMatchObject({ isExpired: 1 });
    });

    it('notifies each record expiring by date once, from the periodic sweep on the clock\'s day', async () => {
      const rebalancer = await rebalancerSession(t, 'advisor');
      const accountId = await book.account();
      const created = (await call(t, 'POST', root(accountId), { session: rebalancer, payload: { cashAmountTypeId: 2, cashAmount: 5, expirationTypeId: 1, expirationValue: today() } })).json();
      const byAdmin = (await call(t, 'POST', root(accountId), { session: await rebalancerSession(t, 'admin'), payload: { cashAmountTypeId: 1, cashAmount: 10, expirationTypeId: 1, expirationValue: today() } })).json();
      await sweep();
      expect(await setAsideNotes(guidA, a, created.id)).toEqual([]);

      clock.advance(DAY);
      await sweep();
      await sweep();
      clock.advance(DAY);
      await Promise.all([sweep(), sweep()]);
      const notes = await setAsideNotes(guidA, a, created.id);
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ subject: expect.stringMatching(/^Set aside cash expired on account/), partnerAppName: 'Platform', categoryName: 'Set Aside Cash' });
      expect(notes[0]!.body).toMatch(/^Set aside cash \(5%\) on account \S+ expired after \d{4}-\d{2}-\d{2}, its last protected day\.$/);
      // The admin created the other record: it is the admin's news, not the advisor's.
      expect(await setAsideNotes(guidA, a, byAdmin.id)).toEqual([]);
      // Partner A's tokens live 10 hours: the days moved forward call for a new login.
      const adminGuid = (await integrate(t, await sessionThrough(t, 'admin', a), a)).webhookGuid;
      expect(await setAsideNotes(adminGuid, a, byAdmin.id)).toHaveLength(1);
    });
  });

  it('documents every notification route in the OpenAPI document, the webhook paths without a token', async () => {
    const document = (await t.app.inject({ url: '/api/openapi.json' })).json();
    for (const path of ['/api/v1/Notify/Config/Integrations', '/api/v1/Notify/Config/Integrations/{integrationId}/Endpoint', '/api/v1/Notify/Config/Integrations/{integrationId}/Deliveries', '/api/Notify/Users/{webhookGuid}/Notifications', '/api/v1/Notify/Users/{webhookGuid}/Notifications']) {
      expect(Object.keys(document.paths), path).toContain(path);
    }
    const posting = document.paths['/api/Notify/Users/{webhookGuid}/Notifications'].post;
    expect(posting.security).toEqual([]);
    expect(Object.keys(posting.responses).sort()).toEqual(['200', '400', '401', '404', '500']);
    expect(posting.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['client_id', 'client_secret', 'webhookGuid']));
  });

  describe('push endpoint registration and deliveries', () => {
    let integrationA: number;
    let integrationB: number;
    const endpoint = (id: number, v1 = true) => `/api${v1 ? '/v1' : ''}/Notify/Config/Integrations/${id}/Endpoint`;
    const deliveries = (id: number) => `/api/v1/Notify/Config/Integrations/${id}/Deliveries`;
    let stranger: string;
    beforeAll(async () => {
      // Fresh logins: the clock moved days forward above, past partner A's token lifetime.
      advisorA = await sessionThrough(t, 'advisor', a);
      adminA = await sessionThrough(t, 'admin', a);
      stranger = await sessionThrough(t, 'admin', foreign, 'otherFirm');
      integrationA = (await integrate(t, advisorA, a)).id;
      integrationB = (await integrate(t, advisorB, b)).id;
    });

    it('registers an https endpoint (or http on loopback) and answers the signing secret once', async () => {
      const response = await call(t, 'PUT', endpoint(integrationA), { session: advisorA, partner: a, payload: { url: 'https://partner-a.example/hooks/wealth' } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ integrationId: integrationA, url: 'https://partner-a.example/hooks/wealth', signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/), registeredDate: clock.now().toISOString() });
      for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]:9/hook']) {
        const loopback = await call(t, 'PUT', endpoint(integrationA, false), { session: advisorA, partner: a, payload: { url } });
        expect(loopback.statusCode, url).toBe(200);
        expect(loopback.json().signingSecret).not.toBe(response.json().signingSecret);
      }
      const removed = await call(t, 'DELETE', endpoint(integrationA), { session: advisorA, partner: a });
      expect(removed.statusCode).toBe(204);
    });

    it('refuses plain http off loopback, non-URLs and credentials in the URL with a 400 naming url', async () => {
      for (const url of ['http://partner-a.example/hook', 'http://10.0.0.5/hook', 'ftp://partner-a.example/hook', 'partner-a.example/hook', 'https://user:pw@partner-a.example/hook', '']) {
        const response = await call(t, 'PUT', endpoint(integrationA), { session: advisorA, partner: a, payload: { url } });
        expect(response.statusCode, url).toBe(400);
        expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual(['url']);
      }
    });

    it('needs the session, the partner\'s credentials and the caller\'s own integration with that partner', async () => {
      const payload = { url: 'https://partner-a.example/hook' };
      expect((await call(t, 'PUT', endpoint(integrationA), { partner: a, payload })).statusCode).toBe(401);
      expect((await call(t, 'PUT', endpoint(integrationA), { session: advisorA, payload })).statusCode).toBe(401);
      expect((await call(t, 'PUT', endpoint(integrationA), { session: advisorA, partner: { clientId: a.clientId, clientSecret: b.clientSecret }, payload })).statusCode).toBe(401);
      // The same user's integration with partner B, through partner A.
      expect((await call(t, 'PUT', endpoint(integrationB), { session: advisorA, partner: a, payload })).statusCode).toBe(404);
      // Another user of the firm.
      expect((await call(t, 'PUT', endpoint(integrationA), { session: adminA, partner: a, payload })).statusCode).toBe(404);
      // Another firm, with its own valid credentials.
      expect((await call(t, 'PUT', endpoint(integrationA), { session: stranger, partner: foreign, payload })).statusCode).toBe(404);
      expect((await call(t, 'GET', deliveries(integrationA), { session: stranger, partner: foreign })).statusCode).toBe(404);
      expect((await call(t, 'DELETE', endpoint(integrationA), { session: stranger, partner: foreign })).statusCode).toBe(404);
      expect((await call(t, 'PUT', endpoint(999_999), { session: advisorA, partner: a, payload })).statusCode).toBe(404);
    });

    it('lists deliveries, newest first, with the total', async () => {
      const response = await call(t, 'GET', deliveries(integrationB), { session: advisorB, partner: b });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([]);
      expect(response.headers['x-total-count']).toBe('0');
      expect((await call(t, 'GET', deliveries(integrationB), { partner: b })).statusCode).toBe(401);
      expect((await call(t, 'GET', deliveries(integrationB), { session: advisorB })).statusCode).toBe(401);
      expect((await call(t, 'GET', `${deliveries(integrationB)}?$top=0`, { session: advisorB, partner: b })).statusCode).toBe(400);
    });
  });
});
