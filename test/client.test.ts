import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CLIENT_SOURCES, generateClientTypes } from '../scripts/client-types.js';
import { createPlatformClient, createRebalancerClient } from '../clients/typescript/src/index.js';
import { describeEachDatabase } from './support/databases.js';
import { useTestApp } from './support/app.js';
import { createTestBook } from './support/book.js';

it('the committed client types match what the service serves (else run `npm run client:generate`)', async () => {
  const fresh = await generateClientTypes();
  for (const name of ['platform', 'rebalancer'] as const) {
    const committed = readFileSync(join(CLIENT_SOURCES, `${name}.ts`), 'utf8');
    expect(committed === fresh[name], `clients/typescript/src/${name}.ts is out of date: run npm run client:generate`).toBe(true);
  }
}, 60_000);

describeEachDatabase('the typed client against the service', (database) => {
  const t = useTestApp(database);
  // The client's fetch, answered by the app in-process: the same requests a real server would get.
  const fetchThroughApp = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = request.body ? await request.text() : undefined;
    const answer = await t.app.inject({ method: request.method as 'GET', url: url.pathname + url.search, headers: Object.fromEntries(request.headers), payload: body });
    return new Response(answer.statusCode === 204 ? null : answer.body, { status: answer.statusCode, headers: answer.headers as Record<string, string> });
  };

  it('logs in, lists accounts and starts a rebalance with typed calls', async () => {
    const book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    await book.account();
    const anonymous = createPlatformClient({ baseUrl: 'http://localhost:8080', fetch: fetchThroughApp });
    const user = t.firm.users.advisor;
    const login = await anonymous.GET('/api/v1/Security/Token', {
      params: {
        header: {
          authorization: `Basic ${Buffer.from(`${user.userName}:${user.password}`).toString('base64')}`,
          client_id: String(t.firm.clientId),
          client_secret: t.firm.clientSecret,
        },
      },
    });
    expect(login.response.status).toBe(200);
    const token = login.data!.access_token;

    const platform = createPlatformClient({ baseUrl: 'http://localhost:8080', token, fetch: fetchThroughApp });
    const accounts = await platform.GET('/api/v1/Portfolio/Accounts', { params: { query: { $top: 10, $skip: 0, $count: false } } });
    expect(accounts.response.status).toBe(200);
    expect(Array.isArray(accounts.data)).toBe(true);

    const started = await platform.POST('/api/v1/Trading/GenerateTrades', {
      params: { query: { wait: true } },
      body: { routine: 'Rebalance', entity: 'Account', reason: 'NeedReview', keys: (accounts.data ?? []).map((a) => a.id) },
    });
    expect(started.response.status, JSON.stringify(started.error)).toBe(200);
    const status = await platform.GET('/api/v1/Trading/TradeGenerationStatus/{batchProcessingId}', { params: { path: { batchProcessingId: started.data! } } });
    expect(status.data).toMatchObject({ isDone: true });

    const rebalancer = createRebalancerClient({ baseUrl: 'http://localhost:8080', fetch: fetchThroughApp });
    const exchanged = await rebalancer.GET('/rebalancer/v1/admin/token', { params: { header: { authorization: `Session ${token}` } } });
    expect(exchanged.response.status).toBe(200);
    expect(exchanged.data!.eclipse_access_token).toEqual(expect.any(String));
  });
});
