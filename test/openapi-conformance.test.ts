// The OpenAPI documents tell the truth: Stoplight Prism, a validating proxy, stands in front of
// the real app (one Prism per document, shared by the suite) and checks every GET of both
// documents and the README's flows (log in, list, rebalance, follow the batch) against them.
// Any violation it reports (the `sl-violations` header) fails the suite. Both databases.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { createTestBook, type TestBook } from './support/book.js';
import { describeEachDatabase } from './support/databases.js';
import { startValidatingProxy, type ValidatingProxy } from './support/prism.js';

interface ParameterSchema { type?: string; pattern?: string; format?: string; enum?: unknown[]; const?: unknown; anyOf?: ParameterSchema[]; oneOf?: ParameterSchema[] }
type Parameter = { name: string; in: string; required?: boolean; schema?: ParameterSchema };
type Document = { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };

interface Violation {
  request: string;
  status: number;
  violations: unknown;
}

describeEachDatabase('the OpenAPI documents, checked by a validating proxy in front of the app', (database) => {
  const t = useTestApp(database);
  const proxies: Record<'api' | 'rebalancer', ValidatingProxy> = {} as never;
  const found: Violation[] = [];
  let platformToken: string;
  let rebalancerToken: string;
  let book: TestBook;
  let ids: Record<string, string>;

  beforeAll(async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [api, rebalancer] = await Promise.all([
      startValidatingProxy(`${address}/api/openapi.json`, address),
      startValidatingProxy(`${address}/rebalancer/openapi.json`, address),
    ]);
    proxies.api = api;
    proxies.rebalancer = rebalancer;
    book = await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(Object.values(proxies).map((p) => p.stop()));
  });

  /** A request through the document's proxy; its violations are kept for the final check. */
  const call = async (app: 'api' | 'rebalancer', path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown; raw?: string } = {}) => {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${proxies[app].url}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? init.raw : JSON.stringify(init.body) });
    const text = await response.text();
    const violations = response.headers.get('sl-violations');
    if (violations) found.push({ request: `${init.method ?? 'GET'} ${path}`, status: response.status, violations: JSON.parse(violations) });
    return { status: response.status, headers: response.headers, text, json: <T = ReturnType<typeof JSON.parse>>() => JSON.parse(text) as T };
  };
  const asPlatform = () => ({ authorization: `Session ${platformToken}` });
  const asRebalancer = () => ({ authorization: `Session ${rebalancerToken}` });

  it('the README flows: log in, list accounts, rebalance, follow the batch to its trades and messages', async () => {
    const admin = t.firm.users.admin;
    const login = await call('api', '/api/v1/Security/Token', {
      headers: { authorization: `Basic ${Buffer.from(`${admin.userName}:${admin.password}`).toString('base64')}`, client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret },
    });
    expect(login.status, login.text).toBe(200);
    platformToken = login.json().access_token;
    const exchanged = await call('rebalancer', '/rebalancer/v1/admin/token', { headers: asPlatform() });
    expect(exchanged.status, exchanged.text).toBe(200);
    rebalancerToken = exchanged.json().eclipse_access_token;

    const accounts = [await book.account(), await book.account(), await book.account({ modelId: null })];
    const listed = await call('api', '/api/v1/Portfolio/Accounts?$top=100', { headers: asPlatform() });
    expect(listed.status).toBe(200);
    expect(listed.json<{ id: number }[]>().map((a) => a.id)).toEqual(expect.arrayContaining(accounts));

    const started = await call('api', '/api/v1/Trading/GenerateTrades', { method: 'POST', headers: asPlatform(), body: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: accounts } });
    expect(started.status, started.text).toBe(200);
    const batchId = started.json<number>();
    let status;
    for (;;) {
      status = await call('api', `/api/v1/Trading/TradeGenerationStatus/${batchId}`, { headers: asPlatform() });
      if (status.json().isDone) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // One account has no model: the batch fails with its message (spec section 7 rule 3), the others keep their trades.
    expect(status.json()).toMatchObject({ status: 'Failed', errorCount: 1 });
    const message = await call('api', `/api/v1/Trading/TradeGenerationStatus/${batchId}/Message`, { headers: asPlatform() });
    expect(message.json().details).toContainEqual(expect.objectContaining({ severity: 'Error', entityId: accounts[2] }));
    const instanceId = status.json().tradeInstanceId as number;
    const trades = await call('api', `/api/v1/Trading/TradeInstances/${instanceId}/Trades?$top=2`, { headers: asPlatform() });
    expect(trades.status).toBe(200);
    expect(trades.headers.get('x-total-count')).toBe('4');

    const quick = await call('api', '/api/v1/Trading/GenerateTrades?wait=true', {
      method: 'POST',
      headers: asPlatform(),
      body: { routine: 'QuickTrade', trades: [{ accountId: accounts[0], productId: book.products.VTI, tradeType: 'Shares', amount: 1, side: '1' }] },
    });
    expect(quick.status, quick.text).toBe(200);
    const refused = await call('api', '/api/v1/Trading/GenerateTrades', { method: 'POST', headers: asPlatform(), body: { routine: 'Rebalance', reason: 'NeedReview', entity: 'Account', keys: accounts, taxOptions: { lotSelect: 'HIFO' } } });
    expect(refused.status).toBe(400);
    // Prism reports the unknown field too; that violation is the point of this request.
    expect(found.pop()).toMatchObject({ request: 'POST /api/v1/Trading/GenerateTrades', status: 400 });

    // A CSV import: its template comes back as text/csv and goes in as text/csv, both as documented.
    const template = await call('api', '/api/v1/Trading/TradeBlocks/Import/Delete/Template', { headers: asPlatform() });
    expect(template.headers.get('content-type')).toMatch(/^text\/csv/);
    const imported = await call('api', '/api/v1/Trading/TradeBlocks/Import/Delete', { method: 'POST', headers: { ...asPlatform(), 'content-type': 'text/csv' }, raw: template.text });
    expect(imported.status, imported.text).toBeLessThan(500);

    const client = await t.db.kysely.selectFrom('registrations').select('client_id').where('id', '=', book.registrationId).executeTakeFirstOrThrow();
    ids = {
      accountId: String(accounts[0]),
      eclipseAccountId: String(accounts[0]),
      clientId: String(client.client_id),
      registrationId: String(book.registrationId),
      productId: String(book.products.VTI),
      assetId: String(book.products.VTI),
      modelId: String(book.modelId),
      batchProcessingId: String(batchId),
      tradeInstanceId: String(instanceId),
      entity: 'Account',
    };
  }, 120_000);

  /** A value its schema accepts for one parameter: a real record's id where the test has one. */
  const sampleOf = (name: string, schema: ParameterSchema = {}): string | undefined => {
    const branch = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
    if (branch.enum) return String(branch.enum[0]);
    if (typeof branch.const === 'string' || typeof branch.const === 'number') return String(branch.const);
    if (branch.format === 'date') return '2026-01-02';
    if (branch.format === 'date-time') return '2026-01-02T00:00:00Z';
    if (branch.pattern?.includes('[Rr][Ee][Bb]')) return 'rebalance';
    if (branch.type === 'integer' || branch.type === 'number') return name === 'entityEnum' ? '1' : (ids[name === 'entityId' ? 'accountId' : name] ?? ids.accountId!);
    return undefined;
  };

  /** Values for a GET's path and required query parameters: real records where the test has them. */
  const valuesFor = (path: string, parameters: Parameter[]): string[] => {
    const query = new URLSearchParams();
    for (const p of parameters.filter((x) => x.in === 'query' && x.required)) query.set(p.name, sampleOf(p.name, p.schema) ?? 'a');
    const search = query.size > 0 ? `?${query.toString()}` : '';
    const verbose = /\/(Clients|Registrations|Accounts|Products|Representatives)\/Verbose/.exec(path)?.[1];
    const key = { Clients: ids.clientId, Registrations: ids.registrationId, Accounts: ids.accountId, Products: ids.productId, Representatives: String(t.firm.representativeId) }[verbose ?? 'Clients']!;
    const pathSchema = (name: string) => parameters.find((x) => x.in === 'path' && x.name === name)?.schema;
    const constrained = (schema?: ParameterSchema) => Boolean(schema && (schema.enum || schema.const !== undefined || schema.anyOf || schema.oneOf));
    return [
      path.replace(/\{(\w+)\}/g, (_, name: string) => {
        if (name === 'key') return key;
        const schema = pathSchema(name);
        return (constrained(schema) ? sampleOf(name, schema) : undefined) ?? ids[name] ?? '1';
      }) + search,
    ];
  };

  it('every GET of both documents answers as its document says', async () => {
    const statuses: string[] = [];
    for (const app of ['api', 'rebalancer'] as const) {
      const document = (await (await fetch(`${proxies[app].url}/${app}/openapi.json`)).json()) as Document;
      const headers = app === 'api' ? asPlatform() : asRebalancer();
      for (const [path, item] of Object.entries(document.paths)) {
        if (!item.get) continue;
        for (const url of valuesFor(path, item.get.parameters ?? [])) {
          const response = await call(app, url, { headers });
          expect(response.status, `GET ${url}: ${response.text.slice(0, 300)}`).toBeLessThan(500);
          statuses.push(`${response.status} ${url}`);
        }
      }
    }
    // The checks read real answers: the administrator's tokens open (nearly) every read.
    const refused = statuses.filter((s) => /^40[13] /.test(s));
    expect(refused.length, refused.join('\n')).toBeLessThanOrEqual(statuses.length / 10);
  }, 300_000);

  it('no request or answer broke its document', () => {
    const lines = found.flatMap((f) => (f.violations as { location: string[]; message: string }[]).map((v) => `${f.request} → ${f.status}: ${v.location.join('.')} ${v.message}`));
    expect(lines).toEqual([]);
  });
});
