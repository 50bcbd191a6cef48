import { beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { SnapshotRepository } from '../../trading/snapshot-repository.js';
import { TradeBlockRepository } from '../../trade-blocks/repository.js';
import { createProduct, rebalancerSession } from '../../../test/support/rebalancer.js';

/** Models as a rebalance batch reads them (the production loader's firm context). */
const modelsOf = async (db: ConstructorParameters<typeof SnapshotRepository>[0], firmId: number) => (await new SnapshotRepository(db, new TradeBlockRepository(db)).firmContext(firmId, '2026-01-01')).models;

describeEachDatabase('models and teams (section 4.10)', (database) => {
  const t = useTestApp(database);
  const tokens: Record<string, string> = {};
  let teamA: number;
  let teamB: number;
  let p: number[];
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, who = 'advisor') =>
    t.app.inject({ method, url: `/rebalancer${url}`, payload: payload as object, headers: { authorization: tokens[who]! } });
  let counter = 0;
  const model = (extra: object = {}) => ({
    name: `Growth ${++counter}`,
    cashTargetPercent: 2,
    cashUpperTolerance: 1,
    targets: [
      { productId: p[0], targetPercent: 60, lowerTolerance: 5, upperTolerance: 5, equivalents: [p[2], p[3]] },
      { productId: p[1], targetPercent: 38 },
    ],
    ...extra,
  });

  beforeAll(async () => {
    const k = t.db.kysely;
    const firmId = t.firm.firmId;
    teamA = (await k.insertInto('teams').values({ firm_id: firmId, name: 'Team A' }).returning('id').executeTakeFirstOrThrow()).id;
    teamB = (await k.insertInto('teams').values({ firm_id: firmId, name: 'Team B' }).returning('id').executeTakeFirstOrThrow()).id;
    await k.insertInto('team_users').values([
      { firm_id: firmId, team_id: teamA, user_id: t.firm.users.advisor.id },
      { firm_id: firmId, team_id: teamB, user_id: t.firm.users.reader.id },
    ]).execute();
    p = [];
    for (let i = 0; i < 5; i++) p.push((await createProduct(k, firmId)).id);
    for (const user of ['admin', 'advisor', 'reader', 'api'] as const) tokens[user] = await rebalancerSession(t, user);
  });

  it('creates and reads a model with targets, tolerances, equivalents, cash target and teams', async () => {
    const created = await call('POST', '/v1/modeling/models', model({ teamIds: [teamA, teamB], description: 'Long run' }));
    expect(created.statusCode).toBe(200);
    const body = created.json();
    expect(body).toMatchObject({ name: `Growth ${counter}`, description: 'Long run', isActive: 1, cashTargetPercent: 2, cashLowerTolerance: 0, cashUpperTolerance: 1, teamIds: [teamA, teamB], createdBy: 'advisor@alpha' });
    expect([...body.targets].sort((a, b) => a.productId - b.productId)).toEqual([
      expect.objectContaining({ productId: p[0], targetPercent: 60, lowerTolerance: 5, upperTolerance: 5, equivalents: [p[2], p[3]] }),
      expect.objectContaining({ productId: p[1], targetPercent: 38, lowerTolerance: 0, upperTolerance: 0, equivalents: [] }),
    ]);
    expect((await call('GET', `/v1/modeling/models/${body.id}`)).json()).toEqual(body);
    expect((await call('GET', `/v1/modeling/models/${body.id}/teams?isEditModel=true`)).json()).toEqual([{ id: teamA, name: 'Team A' }, { id: teamB, name: 'Team B' }]);
    // The engine reads what was written.
    const engine = (await modelsOf(t.db.kysely, t.firm.firmId)).get(body.id)!;
    expect(engine.cashTargetPercent).toBe(2);
    expect(engine.targets.find((x) => x.productId === p[0])).toMatchObject({ targetPercent: 60, equivalents: [p[2], p[3]] });
  });

  it('replaces the teams with PUT: a user of a team left out no longer sees the model', async () => {
    const created = (await call('POST', '/v1/modeling/models', model({ teamIds: [teamA, teamB] }))).json();
    const seen = async (who: string) => (await call('GET', '/v1/modeling/models', undefined, who)).json().some((m: { id: number }) => m.id === created.id);
    expect(await seen('reader')).toBe(true);
    expect(await seen('api')).toBe(false);
    const teams = (await call('GET', `/v1/modeling/models/${created.id}/teams?isEditModel=true`)).json();
    const { id, name } = created;
    const put = await call('PUT', `/v1/modeling/models/${id}`, { id, name, teamIds: teams.map((x: { id: number }) => x.id).filter((x: number) => x !== teamB) });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ teamIds: [teamA], cashTargetPercent: 2 });
    expect(put.json().targets).toHaveLength(2);
    expect(await seen('reader')).toBe(false);
    expect((await call('GET', `/v1/modeling/models/${id}`, undefined, 'reader')).statusCode).toBe(404);
    expect((await call('GET', `/v1/modeling/models/${id}/teams`, undefined, 'reader')).statusCode).toBe(404);
    expect(await seen('advisor')).toBe(true);
    // A platform administrator sees every model.
    expect(await seen('admin')).toBe(true);

    // Attaching the model to team B gives its users access again.
    const attached = await call('POST', `/v1/admin/teams/${teamB}/Models`, { modelIds: [id] });
    expect(attached.statusCode).toBe(200);
    expect(attached.json().teamId).toBe(teamB);
    expect(attached.json().modelIds).toContain(id);
    expect(await seen('reader')).toBe(true);
    // Attaching again changes nothing.
    expect((await call('POST', `/v1/admin/teams/${teamB}/Models`, { modelIds: [id] })).json()).toEqual(attached.json());
    expect((await call('POST', `/v1/admin/teams/${teamB}/Models`, { modelIds: [999999] })).json().errors).toEqual([{ field: 'modelIds[0]', message: 'model 999999 does not exist' }]);
    expect((await call('POST', '/v1/admin/teams/999999/Models', { modelIds: [id] })).statusCode).toBe(404);
    expect((await call('GET', '/v1/admin/teams', undefined, 'reader')).json()).toEqual([{ id: teamA, name: 'Team A' }, { id: teamB, name: 'Team B' }]);

    // No teams: every user of the firm sees it; another firm never does.
    await call('PUT', `/v1/modeling/models/${id}`, { name, teamIds: [] });
    expect(await seen('api')).toBe(true);
    const stranger = await rebalancerSession(t, 'admin', 'otherFirm');
    expect((await t.app.inject({ url: `/rebalancer/v1/modeling/models/${id}`, headers: { authorization: stranger } })).statusCode).toBe(404);
  });

  it('takes back the body its GET returned (section 4.10 rule 2: read, change, send back)', async () => {
    const created = (await call('POST', '/v1/modeling/models', model())).json();
    const read = (await call('GET', `/v1/modeling/models/${created.id}`)).json<Record<string, unknown>>();
    expect(read.isActive).toBe(1);
    const back = await call('PUT', `/v1/modeling/models/${created.id}`, { ...read, description: 'changed only this' });
    expect(back.statusCode, back.body).toBe(200);
    const sent = back.json<Record<string, unknown>>();
    expect(sent).toMatchObject({ name: read.name, isActive: 1, description: 'changed only this', targets: read.targets, teamIds: read.teamIds });
    const off = await call('PUT', `/v1/modeling/models/${created.id}`, { ...sent, isActive: 0 });
    expect(off.json().isActive).toBe(0);
    const bad = await call('PUT', `/v1/modeling/models/${created.id}`, { ...sent, isActive: 2 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('isActive');
  });

  it('replaces the allocation on PUT and keeps it when targets are omitted', async () => {
    const created = (await call('POST', '/v1/modeling/models', model())).json();
    const targets = [{ productId: p[4], targetPercent: 95, equivalents: [p[0]] }];
    const put = await call('PUT', `/v1/modeling/models/${created.id}`, { name: created.name, teamIds: [], cashTargetPercent: 5, targets, isActive: false });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ cashTargetPercent: 5, isActive: 0, targets: [expect.objectContaining({ productId: p[4], targetPercent: 95, equivalents: [p[0]] })] });
    const kept = await call('PUT', `/v1/modeling/models/${created.id}`, { name: 'Renamed', teamIds: [] });
    expect(kept.json()).toMatchObject({ name: 'Renamed', cashTargetPercent: 5, targets: [expect.objectContaining({ productId: p[4] })] });
    const off = await call('PUT', `/v1/modeling/models/${created.id}`, { name: 'Renamed', teamIds: [], cashTargetPercent: 4 });
    expect(off.statusCode).toBe(400);
    expect(off.json().errors).toEqual([{ field: 'targets', message: 'targets (95%) and cashTargetPercent (4%) total 99%, not 100%' }]);
  });

  it('refuses a bad model payload with a 400 naming the field', async () => {
    const existing = (await call('POST', '/v1/modeling/models', model())).json();
    const cases: [string, string, object, string, RegExp][] = [
      ['POST', '/v1/modeling/models', model({ cashTargetPercent: 3 }), 'targets', /total 101%, not 100%/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 50 }] }), 'targets', /not 100%/],
      ['POST', '/v1/modeling/models', model({ name: ' ' }), 'name', /required/],
      ['POST', '/v1/modeling/models', model({ name: existing.name }), 'name', /already/],
      ['POST', '/v1/modeling/models', model({ teamIds: [999999] }), 'teamIds[0]', /does not exist/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: 999999, targetPercent: 98 }] }), 'targets[0].productId', /does not exist/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 49 }, { productId: p[0], targetPercent: 49 }] }), 'targets[1].productId', /twice/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 98, equivalents: [999999] }] }), 'targets[0].equivalents[0]', /does not exist/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 49, equivalents: [p[1]] }, { productId: p[1], targetPercent: 49 }] }), 'targets[0].equivalents[0]', /target of the model/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 0 }] }), 'targets[0].targetPercent', /> 0/],
      ['POST', '/v1/modeling/models', model({ targets: [{ productId: p[0], targetPercent: 98, lowerTolerance: -1 }] }), 'targets[0].lowerTolerance', />= 0/],
      ['PUT', `/v1/modeling/models/${existing.id}`, { name: existing.name }, 'teamIds', /required/],
      ['PUT', `/v1/modeling/models/${existing.id}`, { id: existing.id + 1, name: existing.name, teamIds: [] }, 'id', /does not match/],
      ['PUT', `/v1/modeling/models/${existing.id}`, { name: existing.name, teamIds: [teamA, 999999] }, 'teamIds[1]', /does not exist/],
    ];
    for (const [method, url, payload, field, message] of cases) {
      const response = await call(method as 'POST', url, payload);
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      const problem = response.json().errors.find((e: { field: string }) => e.field === field);
      expect(problem, `${field} in ${response.body}`).toBeDefined();
      expect(problem.message).toMatch(message);
    }
    expect((await call('PUT', '/v1/modeling/models/999999', { name: 'x', teamIds: [] })).statusCode).toBe(404);
    expect((await call('POST', '/v1/modeling/models', model(), 'reader')).statusCode).toBe(403);
  });
  it('pages the models: 1000 by default, $top/$skip by name, the total of those the caller sees, the next page in Link', async () => {
    for (const n of [1, 2, 3]) expect((await call('POST', '/v1/modeling/models', model({ name: `Paged ${n}`, teamIds: [teamA] }), 'admin')).statusCode).toBe(200);
    expect((await call('POST', '/v1/modeling/models', model({ name: 'Paged 4', teamIds: [teamB] }), 'admin')).statusCode).toBe(200);
    const path = '/v1/modeling/models?name=paged';
    const names = (r: { json: () => { name: string }[] }) => r.json().map((m) => m.name);
    const whole = await call('GET', path);
    expect(whole.statusCode, whole.body).toBe(200);
    expect(names(whole)).toEqual(['Paged 1', 'Paged 2', 'Paged 3']);
    expect(whole.headers['x-total-count']).toBe('3');
    expect(whole.headers.link).toBeUndefined();
    // The total counts only the models the caller may see: teams decide, as they decide the list.
    expect((await call('GET', path, undefined, 'admin')).headers['x-total-count']).toBe('4');
    const reader = await call('GET', path, undefined, 'reader');
    expect(names(reader)).toEqual(['Paged 4']);
    expect(reader.headers['x-total-count']).toBe('1');
    const page = await call('GET', `${path}&$top=1&$skip=1`);
    expect(names(page)).toEqual(['Paged 2']);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toBe(`</rebalancer${path}&$top=1&$skip=2>; rel="next"`);
    const last = await call('GET', `${path}&$top=2&$skip=2`);
    expect(names(last)).toEqual(['Paged 3']);
    expect(last.headers.link).toBeUndefined();
    // Without paging parameters every model comes in the default page of 1000, as the source system's client reads the list.
    const all = await call('GET', '/v1/modeling/models', undefined, 'admin');
    expect(Number(all.headers['x-total-count'])).toBe(all.json().length);
    expect(all.headers.link).toBeUndefined();
    for (const [query, field] of [['$top=0', 'querystring.$top'], ['$top=100001', 'querystring.$top'], ['$skip=-1', 'querystring.$skip'], ['$top=x', 'querystring.$top']]) {
      const bad = await call('GET', `/v1/modeling/models?${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().errors.map((e: { field: string }) => e.field), query).toEqual([field]);
    }
    const stranger = await t.app.inject({ url: `/rebalancer${path}`, headers: { authorization: await rebalancerSession(t, 'admin', 'otherFirm') } });
    expect(stranger.json()).toEqual([]);
    expect(stranger.headers['x-total-count']).toBe('0');
  });

  // Section 4.10 rule 3: "Some environments also accept PUT on the team Models path to replace a
  // team's full model list".
  it('PUT /v1/admin/teams/{id}/Models replaces the team\'s full model list', async () => {
    const teamsOf = async (id: number) => (await call('GET', `/v1/modeling/models/${id}`, undefined, 'admin')).json().teamIds;
    const both = (await call('POST', '/v1/modeling/models', model({ teamIds: [teamA, teamB] }), 'admin')).json().id;
    const onlyB = (await call('POST', '/v1/modeling/models', model({ teamIds: [teamB] }), 'admin')).json().id;
    const onlyA = (await call('POST', '/v1/modeling/models', model({ teamIds: [teamA] }), 'admin')).json().id;

    const replaced = await call('PUT', `/v1/admin/teams/${teamB}/Models`, { modelIds: [onlyA, onlyA] }, 'admin');
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toEqual({ teamId: teamB, modelIds: [onlyA] });
    expect(await teamsOf(both)).toEqual([teamA]);
    expect(await teamsOf(onlyB)).toEqual([]);
    expect(await teamsOf(onlyA)).toEqual([teamA, teamB]);

    // Bad input names the field and changes nothing; an unknown team is 404; reading is not enough.
    const bad = await call('PUT', `/v1/admin/teams/${teamB}/Models`, { modelIds: [both, 999999] }, 'admin');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'modelIds[1]', message: 'model 999999 does not exist' }]);
    expect((await call('PUT', `/v1/admin/teams/${teamB}/Models`, {}, 'admin')).json().errors).toEqual([{ field: 'modelIds', message: 'is required' }]);
    expect((await call('PUT', '/v1/admin/teams/999999/Models', { modelIds: [] }, 'admin')).statusCode).toBe(404);
    expect((await call('PUT', `/v1/admin/teams/${teamB}/Models`, { modelIds: [] }, 'reader')).statusCode).toBe(403);
    expect(await teamsOf(onlyA)).toEqual([teamA, teamB]);

    // A caller outside the team takes away only what it can see.
    const hidden = (await call('POST', '/v1/modeling/models', model({ teamIds: [teamB] }), 'admin')).json().id;
    const byAdvisor = await call('PUT', `/v1/admin/teams/${teamB}/Models`, { modelIds: [] }, 'advisor');
    expect(byAdvisor.json()).toEqual({ teamId: teamB, modelIds: [hidden] });
    expect(await teamsOf(onlyA)).toEqual([teamA]);
    const emptied = await call('PUT', `/v1/admin/teams/${teamB}/Models`, { modelIds: [] }, 'admin');
    expect(emptied.json()).toEqual({ teamId: teamB, modelIds: [] });
  });
});
