import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { fakeClock, form } from '../../../test/support/oauth.js';
import { answersOfPoints, createHousehold, householdSnapshot, pathOf, surveyUrlPattern } from './test-support.js';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const CREATE = '/api/v1/Integrations/RiskPartner/CreateClient';
const RESULTS = '/api/v1/Integrations/RiskPartner/GetSurveyResults';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
type User = 'admin' | 'advisor' | 'reader' | 'nobody';

describeEachDatabase('risk-profiling integration, built-in partner', (database) => {
  const clock = fakeClock(START);
  const t = useTestApp(database, { clock });
  let household = 0;
  let otherHousehold = 0;
  let portfolioBefore: Awaited<ReturnType<typeof householdSnapshot>>;

  const create = async (payload: unknown, user: User = 'advisor', of: 'firm' | 'otherFirm' = 'firm', url = CREATE) =>
    t.app.inject({ method: 'PUT', url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
  const results = async (query: string, user: User = 'advisor', of: 'firm' | 'otherFirm' = 'firm', url = RESULTS) =>
    t.app.inject({ url: `${url}${query}`, headers: { authorization: await t.session(user, of) } });
  const riskClients = async () => (await t.db.kysely.selectFrom('risk_clients').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
  const submit = (token: string, answers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/Integrations/RiskPartner/Questionnaire', headers: FORM, payload: form({ token, ...answers }) });
  const tokenOf = (surveyUrl: string) => new URL(surveyUrl).searchParams.get('token')!;

  beforeAll(async () => {
    household = await createHousehold(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    otherHousehold = await createHousehold(t.db.kysely, t.otherFirm.firmId, t.otherFirm.representativeId);
    portfolioBefore = await householdSnapshot(t.db.kysely, household);
  });

  it('creates a client with every field of section 2.17 and a questionnaire link', async () => {
    const response = await create({ name: 'Ada Smith', extClientId: String(household), source: 'CRM' });
    expect(response.statusCode, response.body).toBe(200);
    const client = response.json();
    const now = new Date(START).toISOString();
    expect(client).toEqual({
      id: expect.any(Number),
      name: 'Ada Smith',
      orgId: t.firm.firmId,
      userid: t.firm.users.advisor.id,
      jsonInfo: { surveyUrl: expect.stringMatching(surveyUrlPattern) },
      riskScore: null,
      createdBy: 'advisor@alpha',
      createdDate: now,
      privacyType: 'Firm',
      source: 'CRM',
      status: 'Active',
      extClientId: String(household),
      lastModified: now,
      currentSurveyId: null,
      surveySent: false,
      surveySentBy: null,
      extClientId2: null,
      readUsers: [],
      editUsers: [],
      error: null,
      haserror: false,
    });
    // Section 9.2: the unversioned path is the same route.
    const unversioned = await create({ name: 'Ada Smith Junior', extClientId: ` ${household} `, source: 'CRM' }, 'advisor', 'firm', '/api/Integrations/RiskPartner/CreateClient');
    expect(unversioned.statusCode).toBe(200);
    expect(unversioned.json()).toMatchObject({ name: 'Ada Smith Junior', extClientId: String(household), haserror: false });
  });

  it('answers a duplicate name (case and spacing ignored) with the existing client and the error, creating nothing', async () => {
    const first = (await create({ name: 'Grace  Hopper', extClientId: String(household), source: 'CRM' })).json();
    const count = await riskClients();
    const again = await create({ name: '  grace hopper ', extClientId: String(household), source: 'Other' }, 'admin');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first, error: 'name should be unique', haserror: true });
    expect(await riskClients()).toBe(count);
    // Unique within a firm: another firm may use the name.
    const other = await create({ name: 'Grace Hopper', extClientId: String(otherHousehold), source: 'CRM' }, 'admin', 'otherFirm');
    expect(other.json()).toMatchObject({ haserror: false, error: null, orgId: t.otherFirm.firmId });
    expect(other.json().id).not.toBe(first.id);
  });

  it('refuses bad bodies with a 400 naming each field, creating nothing', async () => {
    const count = await riskClients();
    const cases: [unknown, string[]][] = [
      [{ name: 'A', source: 'CRM' }, ['extClientId']],
      [{ name: 'A', extClientId: household, source: 'CRM' }, ['extClientId']],
      [{ name: 'A', extClientId: 'abc', source: 'CRM' }, ['extClientId']],
      [{ name: 'A', extClientId: '0', source: 'CRM' }, ['extClientId']],
      [{ name: 'A', extClientId: '99999999', source: 'CRM' }, ['extClientId']],
      [{ name: 'A', extClientId: String(otherHousehold), source: 'CRM' }, ['extClientId']],
      [{ name: '   ', extClientId: String(household), source: ' ' }, ['name', 'source']],
      [{ extClientId: String(household) }, ['name', 'source']],
      [{ name: 'x'.repeat(201), extClientId: String(household), source: 'CRM' }, ['name']],
    ];
    for (const [payload, fields] of cases) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      const problem = response.json();
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors.map((e: { field: string }) => e.field).sort(), JSON.stringify(payload)).toEqual(fields);
    }
    const foreign = await create({ name: 'A', extClientId: String(otherHousehold), source: 'CRM' });
    expect(foreign.json().errors[0].message).toBe(`household ${otherHousehold} was not found in your firm`);
    expect(await riskClients()).toBe(count);
  });

  it('answers null survey data for a client without a survey', async () => {
    const client = (await create({ name: 'Linus Pauling', extClientId: String(household), source: 'CRM' })).json();
    const response = await results(`?clientId=${client.id}`, 'reader');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      surveyCategory: null,
      currentSurveyId: null,
      surveys: [],
      userid: t.firm.users.advisor.id,
      ownerOrg: 'Firm alpha',
      hasRiskScore: 'false',
      ownerName: 'advisor@alpha',
      id: client.id,
      riskScore: null,
      surveyDate: null,
      surveySource: null,
      ownerEmail: null,
      createdDate: client.createdDate,
      lastModified: client.lastModified,
      createdBy: 'advisor@alpha',
      name: 'Linus Pauling',
      surveyScore: null,
      surveyRiskCategory: null,
      error: null,
      haserror: false,
    });
    expect((await results(`?clientId=${client.id}`, 'reader', 'firm', '/api/Integrations/RiskPartner/GetSurveyResults')).json()).toEqual(response.json());
  });

  it('answers 404 for an unknown client and for another firm\'s, and 400 naming querystring.clientId', async () => {
    const theirs = (await create({ name: 'Their client', extClientId: String(otherHousehold), source: 'CRM' }, 'admin', 'otherFirm')).json();
    for (const query of [`?clientId=${theirs.id}`, '?clientId=2147483647']) {
      const response = await results(query, 'admin');
      expect(response.statusCode, query).toBe(404);
      expect(response.json()).toMatchObject({ status: 404, code: 'not_found' });
      expect(response.body).not.toContain('Their client');
    }
    for (const query of ['', '?clientId=abc', '?clientId=0', '?clientId=2147483648', '?clientId=1.5']) {
      const response = await results(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().errors.map((e: { field: string }) => e.field)).toEqual(['querystring.clientId']);
    }
  });

  it('needs portfolio.edit to create and portfolio.read to read', async () => {
    const mine = (await create({ name: 'Rights check', extClientId: String(household), source: 'CRM' })).json();
    expect((await create({ name: 'By a reader', extClientId: String(household), source: 'CRM' }, 'reader')).statusCode).toBe(403);
    expect((await create({ name: 'By nobody', extClientId: String(household), source: 'CRM' }, 'nobody')).statusCode).toBe(403);
    expect((await results(`?clientId=${mine.id}`, 'nobody')).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${RESULTS}?clientId=${mine.id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: CREATE, payload: {} })).statusCode).toBe(401);
  });

  it('takes the questionnaire through the link: every question must be answered, then the score is readable', async () => {
    const client = (await create({ name: 'Marie Curie', extClientId: String(household), source: 'CRM' })).json();
    const link = client.jsonInfo.surveyUrl as string;
    const token = tokenOf(link);

    const opened = await t.app.inject({ url: pathOf(link) });
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toContain('text/html');
    expect(opened.headers['cache-control']).toBe('no-store');
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    expect(opened.headers['content-security-policy']).toContain("default-src 'none'");
    expect(opened.body).toContain('For Marie Curie.');
    expect(opened.body.match(/<fieldset/g)).toHaveLength(10);

    const { drop20: _skipped, liquidity: _alsoSkipped, ...partial } = answersOfPoints(2);
    const incomplete = await submit(token, partial);
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.body).toContain('Please answer every question. Not answered: questions 3, 7.');
    expect(incomplete.body).toContain('id="q-drop20" class="missing"');
    // What was answered stays chosen.
    expect(incomplete.body).toMatch(/name="horizon" value="6to10" checked/);
    expect((await results(`?clientId=${client.id}`)).json().surveys).toEqual([]);

    const stored = await submit(token, answersOfPoints(2));
    expect(stored.statusCode).toBe(303);
    expect(stored.headers.location).toBe(`/api/Integrations/RiskPartner/Questionnaire/Result?token=${token}`);
    const shown = await t.app.inject({ url: stored.headers.location as string });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<span id="risk-score">48</span>');
    expect(shown.body).toContain('id="risk-category">Moderate<');

    const surveyDate = new Date(START).toISOString();
    const result = (await results(`?clientId=${client.id}`)).json();
    expect(result).toMatchObject({
      surveyCategory: 'RiskTolerance',
      hasRiskScore: 'true',
      riskScore: 48,
      surveyScore: 19,
      surveyRiskCategory: 'Moderate',
      surveySource: 'Questionnaire',
      surveyDate,
      lastModified: surveyDate,
      error: null,
      haserror: false,
    });
    expect(result.surveys).toEqual([{ id: result.currentSurveyId, surveyDate, riskScore: 48, surveyScore: 19, surveyRiskCategory: 'Moderate', surveySource: 'Questionnaire', isCurrent: true }]);

    // Taking it again adds a survey that becomes current; the first one stays listed.
    clock.advance(3_600_000);
    expect((await submit(token, answersOfPoints(4))).statusCode).toBe(303);
    const again = (await results(`?clientId=${client.id}`)).json();
    expect(again).toMatchObject({ riskScore: 100, surveyScore: 40, surveyRiskCategory: 'Aggressive', surveyDate: new Date(START + 3_600_000).toISOString() });
    expect(again.surveys.map((s: { riskScore: number; isCurrent: boolean }) => [s.riskScore, s.isCurrent])).toEqual([[100, true], [48, false]]);
    expect(again.currentSurveyId).toBe(again.surveys[0].id);
    const reopened = await t.app.inject({ url: pathOf(link) });
    expect(reopened.body).toContain('Your current result is 100 (Aggressive).');

    // The client record now carries the current score; a duplicate create shows it.
    const duplicate = (await create({ name: 'MARIE CURIE', extClientId: String(household), source: 'CRM' })).json();
    expect(duplicate).toMatchObject({ id: client.id, riskScore: 100, currentSurveyId: again.currentSurveyId, haserror: true, jsonInfo: { surveyUrl: link } });
  });

  it('shows an error page, storing nothing, for a missing or unknown link', async () => {
    const surveys = async () => (await t.db.kysely.selectFrom('risk_surveys').select((e) => e.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
    const before = await surveys();
    for (const url of ['/api/Integrations/RiskPartner/Questionnaire', `/api/Integrations/RiskPartner/Questionnaire?token=${'A'.repeat(43)}`, '/api/Integrations/RiskPartner/Questionnaire/Result?token=x']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toContain('This questionnaire link is not valid.');
    }
    expect((await submit('A'.repeat(43), answersOfPoints(1))).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/Integrations/RiskPartner/Questionnaire', headers: FORM, payload: form(answersOfPoints(1)) })).statusCode).toBe(404);
    expect(await surveys()).toBe(before);
  });

  it('escapes the client name on the page and sends the result page back to the questions before a survey', async () => {
    const client = (await create({ name: '<script>alert(1)</script> Doe', extClientId: String(household), source: 'CRM' })).json();
    const page = await t.app.inject({ url: pathOf(client.jsonInfo.surveyUrl) });
    expect(page.body).toContain('For &lt;script&gt;alert(1)&lt;/script&gt; Doe.');
    expect(page.body).not.toContain('<script>');
    const token = tokenOf(client.jsonInfo.surveyUrl);
    const early = await t.app.inject({ url: `/api/Integrations/RiskPartner/Questionnaire/Result?token=${token}` });
    expect(early.statusCode).toBe(303);
    expect(early.headers.location).toBe(`/api/Integrations/RiskPartner/Questionnaire?token=${token}`);
  });

  it('documents both routes and their statuses in the OpenAPI document', async () => {
    const paths = (await t.app.inject({ url: '/api/openapi.json' })).json().paths;
    for (const prefix of ['/api/v1', '/api']) {
      expect(Object.keys(paths[`${prefix}/Integrations/RiskPartner/CreateClient`].put.responses).sort()).toEqual(['200', '400', '401', '403', '500', '502']);
      expect(Object.keys(paths[`${prefix}/Integrations/RiskPartner/GetSurveyResults`].get.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500', '502']);
    }
    expect(paths['/api/Integrations/RiskPartner/Questionnaire'].get).toBeDefined();
  });

  it('has left the household\'s portfolio as it was', async () => {
    expect(await householdSnapshot(t.db.kysely, household)).toEqual(portfolioBefore);
  });
});
