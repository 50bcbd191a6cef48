import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { createHousehold, householdSnapshot } from './test-support.js';

const CREATE = '/api/v1/Integrations/RiskPartner/CreateClient';
const RESULTS = '/api/Integrations/RiskPartner/GetSurveyResults';
const KEY = 'partner-test-key';
const TIMEOUT_MS = 1000;

type Fault = 'none' | 'status500' | 'slow' | 'notJson' | 'hangUp' | 'foreignId';
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: Record<string, unknown> | undefined;
}

/** A partner on loopback speaking the contract of docs/risk-profiling.md, with switchable faults. */
function fakePartner() {
  const clients = new Map<number, Record<string, unknown>>();
  const results = new Map<number, Record<string, unknown>>();
  const state = { fault: 'none' as Fault, key: KEY, nextId: 7000, foreignId: 0, seen: [] as Seen[] };
  const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

  async function handle(req: IncomingMessage, res: ServerResponse) {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined;
    state.seen.push({ method: req.method!, url: req.url!, authorization: req.headers.authorization, body });
    if (state.fault === 'hangUp') return void req.socket.destroy();
    if (state.fault === 'slow') return void setTimeout(() => json(res, 200, {}), 5 * TIMEOUT_MS);
    if (state.fault === 'status500') return json(res, 500, { message: 'boom' });
    if (state.fault === 'notJson') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
    if (req.headers.authorization !== `Bearer ${state.key}`) return json(res, 401, { message: 'bad key' });

    if (req.method === 'POST' && req.url === '/partner/clients') {
      if (state.fault === 'foreignId') return json(res, 201, { ...body, id: state.foreignId });
      const existing = [...clients.values()].find((c) => c.orgId === body!.orgId && String(c.name).toLowerCase() === String(body!.name).toLowerCase());
      if (existing) return json(res, 409, existing);
      const id = state.nextId++;
      const client = {
        ...body,
        id,
        jsonInfo: JSON.stringify({ surveyUrl: `https://partner.example/survey/${id}`, theme: 'blue' }),
        riskScore: null,
        createdDate: '2026-03-01T09:00:00Z',
        lastModified: '2026-03-01T09:00:00Z',
        privacyType: 'Private',
        status: 'Invited',
        currentSurveyId: null,
        surveySent: true,
        surveySentBy: 'partner',
        extClientId2: 'CRM-9',
        readUsers: [11],
        editUsers: 'not a list',
      };
      clients.set(id, client);
      return json(res, 201, client);
    }
    const match = req.url!.match(/^\/partner\/clients\/(\d+)\/survey-results$/);
    if (req.method === 'GET' && match) {
      const id = Number(match[1]);
      const client = clients.get(id);
      if (!client) return json(res, 404, { message: 'no such client' });
      return json(res, 200, results.get(id) ?? { id, name: client.name, hasRiskScore: 'false', surveys: [], riskScore: null, ownerOrg: 'Partner org' });
    }
    return json(res, 404, { message: 'no route' });
  }

  const server: Server = createServer((req, res) => void handle(req, res));
  return {
    state,
    clients,
    results,
    server,
    listen: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/partner/`))),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

describeEachDatabase('risk-profiling integration, external partner over HTTP', (database) => {
  const partner = fakePartner();
  const env: Record<string, string> = { RISK_PARTNER: 'http', RISK_PARTNER_API_KEY: KEY, RISK_PARTNER_TIMEOUT_MS: String(TIMEOUT_MS) };
  // Registered before useTestApp's own beforeAll, so the app is built with the partner's address.
  beforeAll(async () => {
    env.RISK_PARTNER_URL = await partner.listen();
  });
  afterAll(() => partner.close());
  const t = useTestApp(database, { env });
  let household = 0;
  let otherHousehold = 0;
  let portfolioBefore: Awaited<ReturnType<typeof householdSnapshot>>;

  beforeAll(async () => {
    household = await createHousehold(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    otherHousehold = await createHousehold(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    portfolioBefore = await householdSnapshot(t.db.kysely, household);
  });
  beforeEach(() => {
    partner.state.fault = 'none';
    partner.state.key = KEY;
  });

  const create = async (payload: unknown, of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method: 'PUT', url: CREATE, payload: payload as object, headers: { authorization: await t.session('advisor', of) } });
  const results = async (query: string, of: 'firm' | 'otherFirm' = 'firm') => t.app.inject({ url: `${RESULTS}${query}`, headers: { authorization: await t.session('advisor', of) } });
  const partnerCalls = () => partner.state.seen.length;
  const links = async () => (await t.db.kysely.selectFrom('risk_partner_clients').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;

  it('creates the client at the partner with the bearer key and answers section 2.17\'s shape', async () => {
    const response = await create({ name: 'Ada Lovelace', extClientId: String(household), source: 'CRM' });
    expect(response.statusCode, response.body).toBe(200);
    const call = partner.state.seen.at(-1)!;
    expect(call).toEqual({
      method: 'POST',
      url: '/partner/clients',
      authorization: `Bearer ${KEY}`,
      body: { name: 'Ada Lovelace', extClientId: String(household), source: 'CRM', orgId: t.firm.firmId, userid: t.firm.users.advisor.id, createdBy: 'advisor@alpha' },
    });
    const id = response.json().id;
    expect(response.json()).toEqual({
      id,
      name: 'Ada Lovelace',
      orgId: t.firm.firmId,
      userid: t.firm.users.advisor.id,
      jsonInfo: { surveyUrl: `https://partner.example/survey/${id}`, theme: 'blue' },
      riskScore: null,
      createdBy: 'advisor@alpha',
      createdDate: '2026-03-01T09:00:00Z',
      privacyType: 'Private',
      source: 'CRM',
      status: 'Invited',
      extClientId: String(household),
      lastModified: '2026-03-01T09:00:00Z',
      currentSurveyId: null,
      surveySent: true,
      surveySentBy: 'partner',
      extClientId2: 'CRM-9',
      readUsers: [11],
      editUsers: [],
      error: null,
      haserror: false,
    });
  });

  it('answers the partner\'s duplicate (409) with the existing client and the error, creating nothing', async () => {
    const first = (await create({ name: 'Grace Hopper', extClientId: String(household), source: 'CRM' })).json();
    const [stored, linked] = [partner.clients.size, await links()];
    const again = await create({ name: 'grace hopper', extClientId: String(household), source: 'CRM' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first, error: 'name should be unique', haserror: true });
    expect([partner.clients.size, await links()]).toEqual([stored, linked]);
  });

  it('reads survey results: null survey data first, the partner\'s result once there is one', async () => {
    const client = (await create({ name: 'Marie Curie', extClientId: String(household), source: 'CRM' })).json();
    const empty = await results(`?clientId=${client.id}`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ id: client.id, name: 'Marie Curie', hasRiskScore: 'false', surveys: [], riskScore: null, surveyDate: null, surveyScore: null, surveyRiskCategory: null, currentSurveyId: null, error: null, haserror: false });
    expect(partner.state.seen.at(-1)).toMatchObject({ method: 'GET', url: `/partner/clients/${client.id}/survey-results`, authorization: `Bearer ${KEY}` });

    partner.results.set(client.id, {
      id: client.id,
      name: 'Marie Curie',
      riskScore: 64,
      surveyScore: 71.5,
      surveyRiskCategory: 'Moderately Aggressive',
      surveyCategory: 'Risk',
      surveyDate: '2026-03-02T08:00:00Z',
      surveySource: 'Partner web',
      currentSurveyId: 31,
      surveys: [{ id: 31, surveyDate: '2026-03-02T08:00:00Z', riskScore: 64 }, { id: 30, riskScore: 40 }, 'junk'],
      ownerOrg: 'Alpha Advisors',
    });
    const result = (await results(`?clientId=${client.id}`)).json();
    expect(result).toMatchObject({ id: client.id, hasRiskScore: 'true', riskScore: 64, surveyScore: 71.5, surveyRiskCategory: 'Moderately Aggressive', surveyCategory: 'Risk', currentSurveyId: 31, ownerOrg: 'Alpha Advisors' });
    expect(result.surveys).toEqual([
      { id: 31, surveyDate: '2026-03-02T08:00:00Z', riskScore: 64, surveyScore: null, surveyRiskCategory: null, surveySource: null, isCurrent: true },
      { id: 30, surveyDate: null, riskScore: 40, surveyScore: null, surveyRiskCategory: null, surveySource: null, isCurrent: false },
    ]);
  });

  it('answers 404 for another firm\'s client and for ids it never created, without asking the partner', async () => {
    const client = (await create({ name: 'Alpha only', extClientId: String(household), source: 'CRM' })).json();
    const calls = partnerCalls();
    for (const [query, of] of [[`?clientId=${client.id}`, 'otherFirm'], ['?clientId=6999', 'firm']] as const) {
      const response = await results(query, of);
      expect(response.statusCode, query).toBe(404);
      expect(response.body).not.toContain('Alpha only');
    }
    expect(partnerCalls()).toBe(calls);
    // Known here but gone at the partner: the partner's 404 is passed on.
    partner.clients.delete(client.id);
    expect((await results(`?clientId=${client.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with a 400 naming the field before calling the partner', async () => {
    const calls = partnerCalls();
    const foreign = await create({ name: 'Someone', extClientId: String(otherHousehold), source: 'CRM' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'extClientId', message: `household ${otherHousehold} was not found in your firm` }]);
    const missing = await results('');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { field: string }) => e.field)).toEqual(['querystring.clientId']);
    expect(partnerCalls()).toBe(calls);
  });

  it('maps partner failures and timeouts to a 502 problem, recording nothing', async () => {
    const client = (await create({ name: 'Failure check', extClientId: String(household), source: 'CRM' })).json();
    const linked = await links();
    const cases: [Fault | 'wrongKey', RegExp][] = [
      ['status500', /^the risk partner answered HTTP 500$/],
      ['slow', new RegExp(`^the risk partner did not answer within ${TIMEOUT_MS} ms$`)],
      ['notJson', /is not JSON$/],
      ['hangUp', /^the risk partner could not be reached$/],
      ['wrongKey', /refused the platform's API key \(HTTP 401\)$/],
    ];
    for (const [fault, detail] of cases) {
      if (fault === 'wrongKey') partner.state.key = 'rotated';
      else partner.state.fault = fault;
      for (const response of [await create({ name: `New ${fault}`, extClientId: String(household), source: 'CRM' }), await results(`?clientId=${client.id}`)]) {
        expect(response.statusCode, fault).toBe(502);
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json(), fault).toMatchObject({ status: 502, title: 'Bad Gateway', code: 'bad_gateway', detail: expect.stringMatching(detail) });
        expect(response.body).not.toContain('127.0.0.1');
        expect(response.body).not.toContain(KEY);
      }
      partner.state.fault = 'none';
      partner.state.key = KEY;
    }
    expect(await links()).toBe(linked);
  });

  it('refuses (502) a partner answer naming a client created for another firm', async () => {
    const theirs = (await create({ name: 'Beta client', extClientId: String(otherHousehold), source: 'CRM' }, 'otherFirm')).json();
    partner.state.fault = 'foreignId';
    partner.state.foreignId = theirs.id;
    const response = await create({ name: 'Collision', extClientId: String(household), source: 'CRM' });
    expect(response.statusCode).toBe(502);
    expect(response.body).not.toContain('Beta client');
    partner.state.fault = 'none';
    expect((await results(`?clientId=${theirs.id}`)).statusCode).toBe(404);
  });

  it('has left the household\'s portfolio as it was', async () => {
    expect(await householdSnapshot(t.db.kysely, household)).toEqual(portfolioBefore);
  });
});
