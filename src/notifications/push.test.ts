import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook } from '../../test/support/book.js';
import { describeEachDatabase } from '../../test/support/databases.js';
import { createTestFirm, type TestFirm } from '../../test/support/firm.js';
import { fakeClock } from '../../test/support/oauth.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { createServices, type Services } from '../services.js';
import type { Principal } from '../auth/service.js';
import { PUSH_DEFAULTS } from './push.js';
import { signature, verifySignature } from './signature.js';
import { call, createPartner, integrate, sessionThrough } from './test-support.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner's endpoint on 127.0.0.1 answering the given statuses in turn (then the last one). */
async function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/wealth`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const header = (r: Received, name: string) => r.headers[name.toLowerCase()] as string | undefined;

async function until(condition: () => boolean, ms = 5000) {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('verifySignature', () => {
  const secret = 'whsec_test';
  const body = '{"id":1,"subject":"Hello"}';
  const at = new Date('2026-03-10T15:00:00Z');
  const timestamp = String(at.getTime() / 1000);
  const good = `v1=${signature(secret, timestamp, body)}`;

  it('accepts the signature of timestamp.body under the secret, within the tolerance', () => {
    expect(verifySignature(secret, timestamp, body, good, 300, at)).toBe(true);
    expect(verifySignature(secret, timestamp, body, good, 300, new Date(at.getTime() + 299_000))).toBe(true);
    // A header may carry several signatures (e.g. while a secret is being replaced).
    expect(verifySignature(secret, timestamp, body, `v1=${'0'.repeat(64)}, ${good}`, 300, at)).toBe(true);
  });

  it('rejects a wrong secret, an altered body, a stale or future timestamp and malformed headers', () => {
    expect(verifySignature('whsec_other', timestamp, body, good, 300, at)).toBe(false);
    expect(verifySignature(secret, timestamp, body.replace('Hello', 'Hullo'), good, 300, at)).toBe(false);
    expect(verifySignature(secret, timestamp, `${body} `, good, 300, at)).toBe(false);
    expect(verifySignature(secret, timestamp, body, good, 300, new Date(at.getTime() + 301_000))).toBe(false);
    expect(verifySignature(secret, timestamp, body, good, 300, new Date(at.getTime() - 301_000))).toBe(false);
    // The timestamp is signed: moving it forward breaks the signature.
    expect(verifySignature(secret, String(Number(timestamp) + 200), body, good, 300, at)).toBe(false);
    for (const bad of [undefined, '', 'v0=abc', good.slice(0, -2), `v1=${signature(secret, timestamp, body).toUpperCase()}x`]) {
      expect(verifySignature(secret, timestamp, body, bad, 300, at)).toBe(false);
    }
    expect(verifySignature(secret, undefined, body, good, 300, at)).toBe(false);
    expect(verifySignature(secret, 'soon', body, good, 300, at)).toBe(false);
  });
});

describeEachDatabase('push delivery, driven step by step', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  let firm: TestFirm;
  let node: Services;
  let principal: Principal;
  const clock = fakeClock(Date.UTC(2026, 2, 10, 15));
  const servers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    ({ db, drop } = await database.open());
    firm = await createTestFirm(db.kysely, 'push');
    // No dispatcher runs unless the test drives it. The receivers listen on loopback: opt in to it.
    node = createServices(loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: 'https://wealth.example', PUSH_ALLOW_PRIVATE_NETWORKS: 'true' }, { database: database.config }), db, clock);
    principal = { userId: firm.users.advisor.id, firmId: firm.firmId, userName: firm.users.advisor.userName, kind: 'user', clientId: firm.clientId, privileges: new Set() };
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
    // Each test starts with an empty push queue.
    await db.kysely.updateTable('outbox').set({ delivered_at: clock.now().toISOString() }).where('delivered_at', 'is', null).execute();
  });
  afterAll(() => drop());

  const partner = () => ({ clientId: String(firm.clientId), clientSecret: firm.clientSecret });

  async function setUp(statuses: number[]) {
    const endpoint = await receiver(statuses);
    servers.push(endpoint);
    const { record } = await node.notifications.createIntegration(principal, partner(), { partnerAppId: firm.clientId });
    const { signingSecret } = await node.notifications.registerEndpoint(principal, partner(), record.id, { url: endpoint.url });
    const webhook = await node.notifications.webhook(partner(), record.webhookGuid);
    const posted = await node.notifications.post(webhook, { Subject: 'Statement ready', Body: 'March', Url: 'https://partner.example/s/3', ActionName: 'download' });
    const deliveries = async () => (await node.notifications.deliveries(principal, partner(), record.id, { top: 100, skip: 0 })).items.filter((d) => d.notificationId === posted.id);
    return { endpoint, signingSecret, posted, deliveries, integrationId: record.id };
  }

  it('delivers once, signed, with the notification\'s read shape as the body', async () => {
    const { endpoint, signingSecret, posted, deliveries } = await setUp([204]);
    expect(await node.pushOutbox.runOnce()).toBe(1);
    expect(endpoint.received).toHaveLength(1);
    const [request] = endpoint.received;
    expect(JSON.parse(request!.body)).toEqual(posted);
    expect(header(request!, 'content-type')).toBe('application/json');
    expect(header(request!, 'Wealth-Timestamp')).toBe(String(clock.now().getTime() / 1000));
    expect(header(request!, 'Wealth-Signature')).toMatch(/^v1=[0-9a-f]{64}$/);
    expect(verifySignature(signingSecret, header(request!, 'Wealth-Timestamp'), request!.body, header(request!, 'Wealth-Signature'), 300, clock.now())).toBe(true);
    const [delivery] = await deliveries();
    expect(delivery).toEqual({ id: Number(header(request!, 'Wealth-Delivery-Id')), notificationId: posted.id, status: 'delivered', attempts: 1, lastError: null, deliveredAt: clock.now().toISOString(), createdDate: expect.any(String) });

    clock.advance(3_600_000);
    expect(await node.pushOutbox.runOnce()).toBe(0);
    expect(endpoint.received).toHaveLength(1);
  });

  it('retries a failing receiver with the outbox\'s backoff: two failures, delivered on the third try', async () => {
    const { endpoint, signingSecret, deliveries } = await setUp([500, 503, 200]);
    await node.pushOutbox.runOnce();
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 1, lastError: 'the endpoint answered HTTP 500', deliveredAt: null }]);
    // Not due before its backoff (1 s, then 2 s).
    await node.pushOutbox.runOnce();
    expect(endpoint.received).toHaveLength(1);
    clock.advance(1000);
    await node.pushOutbox.runOnce();
    expect(await deliveries()).toMatchObject([{ status: 'pending', attempts: 2, lastError: 'the endpoint answered HTTP 503' }]);
    clock.advance(1000);
    await node.pushOutbox.runOnce();
    expect(endpoint.received).toHaveLength(2);
    clock.advance(1000);
    expect(await node.pushOutbox.runOnce()).toBe(1);
    expect(await deliveries()).toMatchObject([{ status: 'delivered', attempts: 3, lastError: null, deliveredAt: clock.now().toISOString() }]);
    expect(endpoint.received).toHaveLength(3);
    // Every attempt is signed afresh, at its own time, over the same body.
    expect(new Set(endpoint.received.map((r) => r.body)).size).toBe(1);
    expect(new Set(endpoint.received.map((r) => header(r, 'Wealth-Delivery-Id'))).size).toBe(1);
    const last = endpoint.received[2]!;
    expect(verifySignature(signingSecret, header(last, 'Wealth-Timestamp'), last.body, header(last, 'Wealth-Signature'), 300, clock.now())).toBe(true);
    // A captured request replayed later, or tampered with, fails the documented check.
    const first = endpoint.received[0]!;
    expect(verifySignature(signingSecret, header(first, 'Wealth-Timestamp'), first.body, header(first, 'Wealth-Signature'), 300, new Date(clock.now().getTime() + 301_000))).toBe(false);
    expect(verifySignature(signingSecret, header(last, 'Wealth-Timestamp'), last.body.replace('March', 'April'), header(last, 'Wealth-Signature'), 300, clock.now())).toBe(false);
    expect(verifySignature('whsec_guess', header(last, 'Wealth-Timestamp'), last.body, header(last, 'Wealth-Signature'), 300, clock.now())).toBe(false);
  });

  it(`gives up after ${PUSH_DEFAULTS.maxAttempts} failed attempts and marks the delivery failed`, async () => {
    const { endpoint, deliveries } = await setUp([500]);
    for (let i = 0; i < PUSH_DEFAULTS.maxAttempts + 3; i++) {
      await node.pushOutbox.runOnce();
      clock.advance(11 * 60_000);
    }
    expect(endpoint.received).toHaveLength(PUSH_DEFAULTS.maxAttempts);
    expect(await deliveries()).toMatchObject([{ status: 'failed', attempts: PUSH_DEFAULTS.maxAttempts, lastError: `gave up after ${PUSH_DEFAULTS.maxAttempts} attempts: the endpoint answered HTTP 500`, deliveredAt: null }]);
  });

  it('counts an unreachable endpoint as a failed attempt, and fails what is left once the endpoint is removed', async () => {
    const { endpoint, deliveries, integrationId } = await setUp([200]);
    await endpoint.close();
    servers.splice(servers.indexOf(endpoint), 1);
    await node.pushOutbox.runOnce();
    const [pending] = await deliveries();
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    // The same words for a closed port, a reset or a timeout: the log maps no network.
    expect(pending!.lastError).toBe('no answer from the endpoint');
    await node.notifications.removeEndpoint(principal, partner(), integrationId);
    clock.advance(60_000);
    await node.pushOutbox.runOnce();
    expect(await deliveries()).toMatchObject([{ status: 'failed', attempts: 2, lastError: 'no push endpoint is registered any more' }]);
  });
});

describeEachDatabase('push through the running app', (database) => {
  const clock = fakeClock(Date.UTC(2026, 2, 10, 15));
  const t = useTestApp(database, { clock, env: { PUBLIC_URL: 'https://wealth.example', PUSH_ALLOW_PRIVATE_NETWORKS: 'true' } });
  let endpoint: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    endpoint = await receiver([200]);
  });
  afterAll(() => endpoint.close());

  it('pushes what another partner posts and what the platform raises to the registered endpoint, once each', async () => {
    const a = { clientId: t.firm.clientId, clientSecret: t.firm.clientSecret, name: 'Partner of alpha' };
    const b = await createPartner(t.db.kysely, t.firm.firmId, 'Partner B');
    const sessionA = await t.session('advisor');
    const integrationA = await integrate(t, sessionA, a);
    const integrationB = await integrate(t, await sessionThrough(t, 'advisor', b), b);
    const registered = await call(t, 'PUT', `/api/v1/Notify/Config/Integrations/${integrationA.id}/Endpoint`, { session: sessionA, partner: a, payload: { url: endpoint.url } });
    expect(registered.statusCode, registered.body).toBe(200);
    const { signingSecret } = registered.json();

    const posted = await call(t, 'POST', `/api/Notify/Users/${integrationB.webhookGuid}/Notifications`, { partner: b, payload: { Subject: 'From B', Body: 'Pushed to A' } });
    expect(posted.statusCode).toBe(200);
    await until(() => endpoint.received.length >= 1);
    expect(endpoint.received).toHaveLength(1);
    const [fromB] = endpoint.received;
    expect(JSON.parse(fromB!.body)).toEqual(posted.json());
    expect(verifySignature(signingSecret, header(fromB!, 'Wealth-Timestamp'), fromB!.body, header(fromB!, 'Wealth-Signature'), 300, clock.now())).toBe(true);

    const book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    const batch = await call(t, 'POST', '/api/Trading/GenerateTrades?wait=true', { session: sessionA, payload: { routine: 'Rebalance', entity: 'Account', reason: 'NeedReview', keys: [await book.account()] } });
    expect(batch.statusCode).toBe(200);
    // Written by the rebalance's transaction, without a kick: the dispatcher's poll finds it.
    await until(() => endpoint.received.length >= 2);
    const platform = JSON.parse(endpoint.received[1]!.body);
    expect(platform).toMatchObject({ subject: `Rebalance batch ${batch.json()} Complete`, partnerAppName: 'Platform', integrationId: null, url: `https://wealth.example/api/Trading/TradeGenerationStatus/${batch.json()}/Message` });

    // The receiver answers before the dispatcher records the delivery: read once both are recorded.
    const readDeliveries = () => call(t, 'GET', `/api/v1/Notify/Config/Integrations/${integrationA.id}/Deliveries`, { session: sessionA, partner: a });
    let deliveries = await readDeliveries();
    for (let i = 0; i < 500 && deliveries.json().some((d: { status: string }) => d.status === 'pending'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      deliveries = await readDeliveries();
    }
    expect(deliveries.json()).toMatchObject([
      { notificationId: platform.id, status: 'delivered', attempts: 1, lastError: null },
      { notificationId: posted.json().id, status: 'delivered', attempts: 1, lastError: null },
    ]);
    expect(deliveries.headers['x-total-count']).toBe('2');
    // B registered nothing: it gets no pushes.
    expect((await call(t, 'GET', `/api/v1/Notify/Config/Integrations/${integrationB.id}/Deliveries`, { session: await sessionThrough(t, 'advisor', b), partner: b })).json()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(endpoint.received).toHaveLength(2);
  });
});
