import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';

/** Section 2.13's field list, as the spec writes it. */
const SPEC_FIELDS = `brokerDealerId, wholesalerId, payeeId, payoutOverride, riaId, wholesaler401KId, planAdministratorId, custodianId,
  createdDate, copyToRep, isRIA, riaName, royalTCode, hasADV, hasU4, isActive, isDstDwnld, branchID, oldRep_ID, number, impDate,
  createdBy, editedDate, firstTransactionDate, editedBy, startDate, repStatus, firmName, actgLedgerNum, isDefault, importKey,
  raAmount, raDate, isRAActive, repRestrict, custodianPortalId, name, salutation, address1, address2, address3, zip, homePhone,
  homePhoneExt, fax, faxExt, pager, pagerExt, mobilePhone, businessPhone, businessPhoneExt, otherPhone, otherPhoneExt, reportName,
  company, jobTitle, ssN_TaxID, gender, dob, webAddress, lastName, firstName, id, city, state, email, repNasds, repOnHolds,
  repStates, payoutDashNotCompliance`.split(/,\s*/).map((f) => f.trim());

const AUDIT = ['createdDate', 'createdBy', 'editedDate', 'editedBy'];
const without = (record: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(record).filter(([k]) => !keys.includes(k)));

let serial = 0;

describeEachDatabase('representatives (sections 2.13, 4.7)', (database) => {
  const t = useTestApp(database);
  type User = 'admin' | 'advisor' | 'reader' | 'nobody';
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, user: User = 'admin', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
  let brokerDealerId: number;
  let otherBrokerDealerId: number;

  beforeAll(async () => {
    const bd = await t.db.kysely.insertInto('broker_dealers').values({ firm_id: t.firm.firmId, name: 'Aardvark Securities', code: 'AARD', is_active: 0 }).returning('id').executeTakeFirstOrThrow();
    brokerDealerId = bd.id;
    const other = await t.db.kysely.selectFrom('broker_dealers').select('id').where('firm_id', '=', t.otherFirm.firmId).executeTakeFirstOrThrow();
    otherBrokerDealerId = other.id;
  });

  const template = async () => (await call('GET', '/api/Portfolio/Representatives/Verbose/New')).json();
  const filled = async (overrides: Record<string, unknown> = {}) => ({
    ...(await template()),
    firstName: 'Grace',
    lastName: 'Hopper',
    name: 'Grace Hopper',
    number: `CRD-${++serial}-${database.name}`,
    brokerDealerId,
    ...overrides,
  });
  const create = async (record: Record<string, unknown>, user: User = 'admin') => call('POST', '/api/Portfolio/Representatives/Verbose', { portfolio: record, id: 0 }, user);

  it('serves a new-representative template with every field of section 2.13 at its default', async () => {
    const response = await call('GET', '/api/Portfolio/Representatives/Verbose/New');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(body).toMatchObject({
      id: 0,
      payeeId: -1,
      brokerDealerId: null,
      isActive: true,
      copyToRep: false,
      isRIA: false,
      hasADV: false,
      hasU4: false,
      isDstDwnld: false,
      isDefault: false,
      isRAActive: false,
      payoutDashNotCompliance: false,
      repStates: [],
      repNasds: [],
      repOnHolds: [],
      firstName: '',
      number: '',
      email: null,
      startDate: null,
      createdDate: null,
    });
    // Both path forms (section 9.2), any case.
    expect((await call('GET', '/api/v1/portfolio/representatives/verbose/new')).json()).toEqual(body);
  });

  it('lists the firm\'s broker/dealers and only theirs', async () => {
    const response = await call('GET', '/api/Portfolio/BrokerDealers', undefined, 'reader');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      { id: brokerDealerId, name: 'Aardvark Securities', code: 'AARD', isActive: false },
      { id: expect.any(Number), name: 'Test BD', code: 'BD', isActive: true },
    ]);
    const other = (await call('GET', '/api/v1/Portfolio/BrokerDealers', undefined, 'admin', 'otherFirm')).json();
    expect(other).toEqual([{ id: otherBrokerDealerId, name: 'Test BD', code: 'BD', isActive: true }]);
    expect((await call('GET', '/api/Portfolio/BrokerDealers', undefined, 'nobody')).statusCode).toBe(403);
  });

  it('creates a representative from the filled-in template and reads back exactly what was sent', async () => {
    const sent = await filled({
      payoutOverride: 82.5,
      wholesalerId: 17,
      isRIA: true,
      riaName: 'Hopper Advisory',
      startDate: '2024-03-01T14:30:00.000Z',
      dob: '1970-12-09',
      raAmount: 1250.75,
      raDate: '2025-01-15',
      repStates: ['VA', 'MD'],
      repNasds: ['Series 7', 'Series 66'],
      email: 'grace@example.com',
      city: 'Arlington',
      state: 'VA',
      ssN_TaxID: '123-45-6789',
    });
    const response = await create(sent);
    expect(response.statusCode).toBe(200);
    const record = response.json();
    expect(record.id).toBeGreaterThan(0);
    expect(Object.keys(record).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(without(record, ['id', ...AUDIT])).toEqual(without(sent, ['id', ...AUDIT]));
    expect(record).toMatchObject({ createdBy: 'admin@alpha', editedBy: 'admin@alpha' });
    for (const url of [`/api/Portfolio/Representatives/Verbose/${record.id}`, `/api/v1/Portfolio/Representatives/Verbose/${record.id}`]) {
      const read = await call('GET', url, undefined, 'reader');
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(record);
    }
  });

  it('refuses a create without its required fields, naming each under portfolio', async () => {
    const empty = await call('POST', '/api/Portfolio/Representatives/Verbose', { portfolio: {}, id: 0 });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual(
      expect.arrayContaining(['firstName', 'lastName', 'name', 'number', 'brokerDealerId'].map((f) => ({ field: `portfolio.${f}`, message: 'is required' }))),
    );
    const untouched = await create(await template());
    expect(untouched.statusCode).toBe(400);
    expect(untouched.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'portfolio.firstName', message: 'must NOT have fewer than 1 characters' },
        { field: 'portfolio.number', message: 'must NOT have fewer than 1 characters' },
        { field: 'portfolio.brokerDealerId', message: 'must be integer' },
      ]),
    );
    const noEnvelope = await call('POST', '/api/Portfolio/Representatives/Verbose', await filled());
    expect(noEnvelope.statusCode).toBe(400);
    expect(noEnvelope.json().errors).toEqual([{ field: 'portfolio', message: 'is required' }]);
    const badTypes = await create(await filled({ dob: '12/09/1970', email: 'not an email', repStates: 'VA', payoutOverride: 120, isRIA: 'yes', id: 4 }));
    expect(badTypes.statusCode).toBe(400);
    expect(badTypes.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'portfolio.dob', message: 'must match format "date"' },
        { field: 'portfolio.email', message: expect.stringContaining('must match pattern') },
        { field: 'portfolio.repStates', message: 'must be array' },
        { field: 'portfolio.payoutOverride', message: 'must be <= 100' },
        { field: 'portfolio.isRIA', message: 'must be boolean' },
        { field: 'portfolio.id', message: 'must be <= 0' },
      ]),
    );
  });

  it('refuses a broker/dealer that is unknown or another firm\'s, and a duplicate number', async () => {
    const before = (await call('GET', '/api/Portfolio/Representatives?$top=1000&$count=true')).headers['x-total-count'];
    const unknown = await create(await filled({ brokerDealerId: 999999 }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ field: 'portfolio.brokerDealerId', message: 'broker/dealer 999999 does not exist' }]);
    const foreign = await create(await filled({ brokerDealerId: otherBrokerDealerId }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'portfolio.brokerDealerId', message: `broker/dealer ${otherBrokerDealerId} does not exist` }]);
    const duplicate = await create(await filled({ number: 'R-alpha' }));
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors).toEqual([{ field: 'portfolio.number', message: 'R-alpha is already used by another representative' }]);
    expect((await call('GET', '/api/Portfolio/Representatives?$top=1000&$count=true')).headers['x-total-count']).toBe(before);
    // Numbers are unique per firm: another firm may use the same one.
    const otherFirm = await call('POST', '/api/Portfolio/Representatives/Verbose', { portfolio: { ...(await filled()), number: 'R-alpha', brokerDealerId: otherBrokerDealerId } }, 'admin', 'otherFirm');
    expect(otherFirm.statusCode).toBe(200);
  });

  it('treats payeeId -1 and null as none', async () => {
    const record = (await create(await filled({ payeeId: null }))).json();
    expect(record.payeeId).toBe(-1);
    const payee = (await create(await filled({ payeeId: 42 }))).json();
    expect(payee.payeeId).toBe(42);
  });

  it('updates from the whole record, keeps omitted optional fields, and refuses another\'s number', async () => {
    const record = (await create(await filled({ city: 'Arlington', repStates: ['VA'] }))).json();
    const { city: _city, ...rest } = record;
    const response = await call('PUT', `/api/Portfolio/Representatives/Verbose/${record.id}`, { ...rest, jobTitle: 'Principal', repStates: ['VA', 'DC'], isActive: false });
    expect(response.statusCode).toBe(200);
    const updated = response.json();
    expect(updated).toMatchObject({ jobTitle: 'Principal', repStates: ['VA', 'DC'], isActive: false, city: 'Arlington', createdDate: record.createdDate });
    expect((await call('GET', `/api/Portfolio/Representatives/Verbose/${record.id}`)).json()).toEqual(updated);

    const cleared = await call('PUT', `/api/Portfolio/Representatives/Verbose/${record.id}`, { ...updated, city: null });
    expect(cleared.json().city).toBeNull();

    const taken = await call('PUT', `/api/Portfolio/Representatives/Verbose/${record.id}`, { ...updated, number: 'R-alpha' });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual([{ field: 'number', message: 'R-alpha is already used by another representative' }]);
    const missing = await call('PUT', `/api/Portfolio/Representatives/Verbose/${record.id}`, { ...updated, brokerDealerId: 999999 });
    expect(missing.json().errors).toEqual([{ field: 'brokerDealerId', message: 'broker/dealer 999999 does not exist' }]);
  });

  it('bulk-updates all or nothing: one bad item writes nothing', async () => {
    const a = (await create(await filled())).json();
    const b = (await create(await filled())).json();
    const bad = await call('PUT', '/api/Portfolio/Representatives/Verbose', [
      { ...a, jobTitle: 'Changed' },
      { ...b, brokerDealerId: otherBrokerDealerId },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: '[1].brokerDealerId', message: `broker/dealer ${otherBrokerDealerId} does not exist` }]);
    expect((await call('GET', `/api/Portfolio/Representatives/Verbose/${a.id}`)).json()).toEqual(a);
    const swapped = await call('PUT', '/api/Portfolio/Representatives/Verbose', [{ ...a, number: b.number }]);
    expect(swapped.json().errors).toEqual([{ field: '[0].number', message: `${b.number} is already used by another representative` }]);
    const twice = await call('PUT', '/api/Portfolio/Representatives/Verbose', [a, a]);
    expect(twice.json().errors).toEqual([{ field: '[1].id', message: `representative ${a.id} is listed more than once` }]);
    const good = await call('PUT', '/api/v1/Portfolio/Representatives/Verbose', [
      { ...a, jobTitle: 'Changed' },
      { ...b, jobTitle: 'Also changed' },
    ]);
    expect(good.statusCode).toBe(200);
    expect(good.json().map((r: { jobTitle: string }) => r.jobTitle)).toEqual(['Changed', 'Also changed']);
  });

  it('keeps firms apart: another firm\'s representative is 404 and cannot be assigned a household', async () => {
    const record = (await create(await filled())).json();
    expect((await call('GET', `/api/Portfolio/Representatives/Verbose/${record.id}`, undefined, 'admin', 'otherFirm')).statusCode).toBe(404);
    const hijack = await call('PUT', `/api/Portfolio/Representatives/Verbose/${record.id}`, { ...record, brokerDealerId: otherBrokerDealerId }, 'admin', 'otherFirm');
    expect(hijack.statusCode).toBe(404);
    const list = (await call('GET', '/api/Portfolio/Representatives?$top=1000', undefined, 'admin', 'otherFirm')).json();
    expect(list.some((r: { id: number }) => r.id === record.id)).toBe(false);
  });

  it('assigns households to a representative: none, or another firm\'s, is refused', async () => {
    const record = (await create(await filled())).json();
    const household = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'The Hoppers', representativeId: record.id });
    expect(household.statusCode).toBe(200);
    expect(household.json().representativeId).toBe(record.id);
    const none = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'Orphans' });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual([{ field: 'representativeId', message: 'is required' }]);
    const nullRep = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'Orphans', representativeId: null });
    expect(nullRep.statusCode).toBe(400);
    expect(nullRep.json().errors).toEqual([{ field: 'representativeId', message: 'must be integer' }]);
    const foreign = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'Strangers', representativeId: t.otherFirm.representativeId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'representativeId', message: `representative ${t.otherFirm.representativeId} does not exist` }]);
    const moved = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${household.json().id}`, { name: 'The Hoppers', representativeId: t.otherFirm.representativeId });
    expect(moved.statusCode).toBe(400);
  });

  it('reads with portfolio.read and writes with portfolio.edit', async () => {
    expect((await call('GET', '/api/Portfolio/Representatives/Verbose/New', undefined, 'reader')).statusCode).toBe(200);
    expect((await call('GET', '/api/Portfolio/Representatives/Verbose/New', undefined, 'nobody')).statusCode).toBe(403);
    expect((await call('GET', `/api/Portfolio/Representatives/Verbose/${t.firm.representativeId}`, undefined, 'nobody')).statusCode).toBe(403);
    const denied = await create(await filled(), 'reader');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'forbidden' });
    expect((await create(await filled(), 'advisor')).statusCode).toBe(200);
  });
  // Section 2.13: "startDate (timestamp)", and the minimal payload's timestamps carry no offset.
  it('takes a startDate without an offset (2026-01-01T00:00:00) and reads it as UTC', async () => {
    const response = await create(await filled({ startDate: '2026-01-01T00:00:00', impDate: '2026-02-03T04:05:06.5' }));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ startDate: '2026-01-01T00:00:00.000Z', impDate: '2026-02-03T04:05:06.500Z' });
    const read = (await call('GET', `/api/Portfolio/Representatives/Verbose/${response.json().id}`)).json();
    expect(read).toMatchObject({ startDate: '2026-01-01T00:00:00.000Z', impDate: '2026-02-03T04:05:06.500Z' });
    // An offset is kept as the moment it names, answered in UTC.
    const offset = await create(await filled({ startDate: '2026-01-01T09:00:00+02:00' }));
    expect(offset.json().startDate).toBe('2026-01-01T07:00:00.000Z');
    for (const startDate of ['2026-02-30T00:00:00', '2026-01-01', '2026-01-01T25:00:00', '2026-01-01T00:00:00+02', 'soon']) {
      const bad = await create(await filled({ startDate }));
      expect(bad.statusCode, startDate).toBe(400);
      expect(bad.json().errors[0].field).toBe('portfolio.startDate');
    }
  });
});
