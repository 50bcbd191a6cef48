import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { useTestApp } from '../../../test/support/app.js';

type User = 'admin' | 'advisor' | 'reader' | 'nobody';
type Field = { userDefineDefinitionId: number; code: string; value: string | null; canEdit: boolean; [k: string]: unknown };
const DEFS = '/api/v1/Portfolio/UserDefinedFields/Definitions';

describeEachDatabase('custom fields (sections 2.16, 4.9)', (database) => {
  const t = useTestApp(database);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, user: User = 'admin', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
  const defs: Record<string, number> = {};
  let sequence = 0;

  const household = async (name = 'The Lovelaces') =>
    (await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name, representativeId: t.firm.representativeId, notes: 'keeps' })).json();
  const expanded = async (id: number, user: User = 'admin') => (await call('GET', `/api/portfolio/clients/verbose/${id}?expand=userdefinedfields`, undefined, user)).json();
  const withValue = (fields: Field[], code: string, value: string | null) => fields.map((f) => (f.code === code ? { ...f, value } : f));
  const valueOf = (fields: Field[], code: string) => fields.find((f) => f.code === code)?.value;

  beforeAll(async () => {
    const define = async (body: object) => {
      const response = await call('POST', DEFS, body);
      if (response.statusCode !== 200) throw new Error(response.body);
      return response.json().id as number;
    };
    // Created out of order: reads follow `sequence`.
    defs.RISK = await define({ entity: 'Household', name: 'Risk Tolerance', category: 'Suitability', type: 'List', code: 'RISK', sequence: 20, options: ['Conservative', 'Moderate', 'Aggressive'] });
    defs.NOTE = await define({ entity: 'Household', name: 'Note', type: 'Text', code: 'NOTE', sequence: 10 });
    defs.INCOME = await define({ entity: 'Household', name: 'Annual Income', category: 'Financials', type: 'Number', code: 'INCOME', sequence: 30 });
    defs.REVIEW = await define({ entity: 'Household', name: 'Next Review', type: 'Date', code: 'REVIEW', sequence: 40 });
    defs.VIP = await define({ entity: 'Household', name: 'VIP', type: 'Boolean', code: 'VIP', sequence: 50 });
    defs.COMPLIANCE = await define({ entity: 'Household', name: 'Compliance Hold', type: 'Text', code: 'COMPLIANCE', sequence: 60, securityCode: 'platform.admin' });
    defs.TAX = await define({ entity: 'Registration', name: 'Tax Status', type: 'List', code: 'TAX', options: ['Taxable', 'Tax-Deferred'] });
    defs.OBJECTIVE = await define({ entity: 'Account', name: 'Objective', type: 'Text', code: 'OBJECTIVE' });
    defs.LICENSE = await define({ entity: 'Representative', name: 'License Renewal', type: 'Date', code: 'LICENSE' });
    defs.RATING = await define({ entity: 'Product', name: 'Internal Rating', type: 'List', code: 'RATING', options: ['Approved', 'Watch'] });
    defs.FOREIGN = (await (await call('POST', DEFS, { entity: 'Household', name: 'Theirs', type: 'Text', code: 'NOTE' }, 'admin', 'otherFirm')).json()).id;
  });

  it('manages definitions: platform administrators write, portfolio readers read, canEdit is the caller\'s', async () => {
    const list = await call('GET', `${DEFS}?entity=Household`, undefined, 'advisor');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((d: { code: string }) => d.code)).toEqual(['NOTE', 'RISK', 'INCOME', 'REVIEW', 'VIP', 'COMPLIANCE']);
    expect(list.json().find((d: { code: string }) => d.code === 'COMPLIANCE')).toMatchObject({ canEdit: false, securityCode: 'platform.admin', input: 'text' });
    expect(list.json().find((d: { code: string }) => d.code === 'RISK')).toMatchObject({
      id: defs.RISK, entity: 'Household', name: 'Risk Tolerance', category: 'Suitability', type: 'List', sequence: 20,
      options: ['Conservative', 'Moderate', 'Aggressive'], input: 'select', securityCode: null, canEdit: true, createdBy: 'admin@alpha',
    });
    const one = await call('GET', `/api/Portfolio/UserDefinedFields/Definitions/${defs.COMPLIANCE}`);
    expect(one.json()).toMatchObject({ code: 'COMPLIANCE', canEdit: true });
    expect((await call('GET', `${DEFS}/${defs.COMPLIANCE}`, undefined, 'reader')).json().canEdit).toBe(false);
    expect((await call('GET', DEFS)).json()).toHaveLength(10);
    expect((await call('GET', `${DEFS}?entity=Client`)).json().errors[0].field).toBe('querystring.entity');

    expect((await call('POST', DEFS, { entity: 'Household', name: 'x', type: 'Text', code: 'X1' }, 'advisor')).statusCode).toBe(403);
    expect((await call('GET', DEFS, undefined, 'nobody')).statusCode).toBe(403);
    expect((await call('GET', `${DEFS}/${defs.RISK}`, undefined, 'admin', 'otherFirm')).statusCode).toBe(404);
    expect((await call('DELETE', `${DEFS}/${defs.RISK}`, undefined, 'admin', 'otherFirm')).statusCode).toBe(404);
    expect((await call('PUT', `${DEFS}/${defs.RISK}`, { entity: 'Household', name: 'x', type: 'Text', code: 'RISK' }, 'admin', 'otherFirm')).statusCode).toBe(404);
  });

  it('refuses a bad definition, naming the field', async () => {
    const cases: [object, string, string][] = [
      [{ entity: 'Household', name: 'L', type: 'List', code: 'L1' }, 'options', 'a List field needs at least one option'],
      [{ entity: 'Household', name: 'L', type: 'List', code: 'L1', options: ['a', 'b', 'a'] }, 'options[2]', '"a" is listed more than once'],
      [{ entity: 'Household', name: 'T', type: 'Text', code: 'T1', options: ['a'] }, 'options', 'only List fields have options; a Text field takes none'],
      [{ entity: 'Household', name: 'N', type: 'Text', code: 'NOTE' }, 'code', 'NOTE is already used by another Household custom field'],
      [{ entity: 'Household', name: 'N', type: 'Money', code: 'M1' }, 'type', 'must be one of Text, Number, Date, List, Boolean'],
      [{ entity: 'Household', name: 'N', type: 'Text', code: '1 bad' }, 'code', 'must match pattern "^[A-Za-z][A-Za-z0-9_]*$"'],
      [{ entity: 'Household', name: 'N', type: 'Text', code: 'S1', securityCode: 'root' }, 'securityCode', expect.stringContaining('must be one of portfolio.read')],
      [{ name: 'N', type: 'Text', code: 'E1' }, 'entity', 'is required'],
    ];
    for (const [body, field, message] of cases) {
      const response = await call('POST', DEFS, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors).toContainEqual({ field, message });
    }
    // The same code at another level is another field.
    expect((await call('POST', DEFS, { entity: 'Account', name: 'Note', type: 'Text', code: 'NOTE' })).statusCode).toBe(200);
  });

  it('adds userDefinedFields to a record only when asked, one per definition of the level, by sequence', async () => {
    const client = await household();
    const plain = await call('GET', `/api/v1/Portfolio/Clients/Verbose/${client.id}`);
    expect(plain.json()).toEqual(client);
    const response = await call('GET', `/api/v1/portfolio/clients/verbose/${client.id}?expand=userdefinedfields`, undefined, 'advisor');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject(client);
    expect(body.userDefinedFields.map((f: Field) => f.code)).toEqual(['NOTE', 'RISK', 'INCOME', 'REVIEW', 'VIP', 'COMPLIANCE']);
    expect(body.userDefinedFields[1]).toEqual({
      userDefineDataId: null,
      value: null,
      childParameter: null,
      entity: 'Household',
      entityId: client.id,
      entityName: 'The Lovelaces',
      userDefineDefinitionId: defs.RISK,
      name: 'Risk Tolerance',
      category: 'Suitability',
      type: 'List',
      code: 'RISK',
      sequence: 20,
      options: ['Conservative', 'Moderate', 'Aggressive'],
      input: 'select',
      securityCode: null,
      canEdit: true,
    });
    expect(body.userDefinedFields.find((f: Field) => f.code === 'COMPLIANCE').canEdit).toBe(false);
    expect((await expanded(client.id, 'reader')).userDefinedFields.every((f: Field) => !f.canEdit)).toBe(true);
    const unknown = await call('GET', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields,positions`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ field: 'querystring.expand', message: 'unknown part "positions"; known: userDefinedFields' }]);
    const list = (await call('GET', '/api/v1/Portfolio/Clients?$top=1000&expand=userDefinedFields')).json();
    expect(list.find((c: { id: number }) => c.id === client.id).userDefinedFields).toHaveLength(6);
  });

  it('round-trips: GET with expand, change one value, PUT the whole thing back: exactly that field changes', async () => {
    const client = await household();
    const first = await expanded(client.id);
    let fields = withValue(first.userDefinedFields, 'RISK', 'Moderate');
    fields = withValue(fields, 'NOTE', 'Prefers email');
    fields = withValue(fields, 'REVIEW', '2026-03-31');
    fields = withValue(fields, 'COMPLIANCE', 'Hold pending KYC');
    const seeded = await call('PUT', `/api/portfolio/clients/verbose/${client.id}?expand=userdefinedfields`, { ...first, userDefinedFields: fields });
    expect(seeded.statusCode).toBe(200);
    const before = seeded.json();
    expect(before.userDefinedFields.map((f: Field) => [f.code, f.value])).toEqual([
      ['NOTE', 'Prefers email'], ['RISK', 'Moderate'], ['INCOME', null], ['REVIEW', '2026-03-31'], ['VIP', null], ['COMPLIANCE', 'Hold pending KYC'],
    ]);
    expect(before.userDefinedFields.find((f: Field) => f.code === 'RISK').userDefineDataId).toEqual(expect.any(Number));

    // An advisor changes one value and sends the rest back as read, the non-editable field included.
    const read = await expanded(client.id, 'advisor');
    const response = await call('PUT', `/api/portfolio/clients/verbose/${client.id}?expand=userdefinedfields`, { ...read, userDefinedFields: withValue(read.userDefinedFields, 'RISK', 'Aggressive') }, 'advisor');
    expect(response.statusCode).toBe(200);
    const after = response.json();
    const changed = (record: { userDefinedFields: Field[] }) => record.userDefinedFields.map((f) => (f.code === 'RISK' ? { ...f, value: 'Aggressive' } : f));
    expect(after.userDefinedFields).toEqual(changed(read));
    const { editedDate: _e, editedBy: _b, userDefinedFields: _f, ...record } = after;
    const { editedDate: _e2, editedBy: _b2, userDefinedFields: _f2, ...recordBefore } = read;
    expect(record).toEqual(recordBefore);
    expect((await expanded(client.id, 'advisor')).userDefinedFields).toEqual(changed(read));
  });

  it('validates each value against its type and options, naming the item', async () => {
    const client = await household();
    const read = await expanded(client.id);
    const cases: [string, unknown, string][] = [
      ['INCOME', 'lots', '"lots" is not a number (write it as text, e.g. "1250.50")'],
      ['INCOME', '1,000', '"1,000" is not a number (write it as text, e.g. "1250.50")'],
      ['REVIEW', '2026-02-30', '"2026-02-30" is not a date YYYY-MM-DD'],
      ['REVIEW', '03/31/2026', '"03/31/2026" is not a date YYYY-MM-DD'],
      ['RISK', 'Reckless', '"Reckless" is not one of the options: Conservative, Moderate, Aggressive'],
      ['VIP', 'yes', '"yes" is not true or false'],
    ];
    for (const [code, value, message] of cases) {
      const index = read.userDefinedFields.findIndex((f: Field) => f.code === code);
      const response = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, { ...read, userDefinedFields: withValue(read.userDefinedFields, code, value as string) });
      expect(response.statusCode, `${code} ${String(value)}`).toBe(400);
      expect(response.json().errors).toEqual([{ field: `userDefinedFields[${index}].value`, message: `${code}: ${message}` }]);
    }
    const numberAsJson = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...read, userDefinedFields: [{ userDefineDefinitionId: defs.INCOME, value: 5 }] });
    expect(numberAsJson.json().errors).toContainEqual({ field: 'userDefinedFields[0].value', message: 'must be string or null' });
    const tooLong = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...read, userDefinedFields: withValue(read.userDefinedFields, 'NOTE', 'x'.repeat(4001)) });
    expect(tooLong.json().errors).toContainEqual({ field: 'userDefinedFields[0].value', message: 'must NOT have more than 4000 characters' });
    const unknown = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...read, userDefinedFields: [...read.userDefinedFields, { userDefineDefinitionId: defs.TAX, value: 'Taxable' }, { userDefineDefinitionId: defs.FOREIGN, value: 'x' }, { userDefineDefinitionId: defs.NOTE, value: 'again' }] });
    expect(unknown.json().errors).toEqual([
      { field: 'userDefinedFields[6].userDefineDefinitionId', message: `no Household custom field ${defs.TAX} in this firm` },
      { field: 'userDefinedFields[7].userDefineDefinitionId', message: `no Household custom field ${defs.FOREIGN} in this firm` },
      { field: 'userDefinedFields[8].userDefineDefinitionId', message: 'NOTE is listed more than once' },
    ]);
    // Good values of every type are stored as sent; "" is no value.
    const good = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, {
      ...read,
      userDefinedFields: [
        { userDefineDefinitionId: defs.INCOME, value: '-1250.50' },
        { userDefineDefinitionId: defs.REVIEW, value: '2028-02-29' },
        { userDefineDefinitionId: defs.RISK, value: 'Conservative' },
        { userDefineDefinitionId: defs.VIP, value: 'true' },
        { userDefineDefinitionId: defs.NOTE, value: '' },
      ],
    });
    expect(good.statusCode).toBe(200);
    expect(good.json().userDefinedFields.map((f: Field) => [f.code, f.value])).toEqual([
      ['NOTE', null], ['RISK', 'Conservative'], ['INCOME', '-1250.50'], ['REVIEW', '2028-02-29'], ['VIP', 'true'], ['COMPLIANCE', null],
    ]);
    expect((await expanded(client.id)).userDefinedFields).toEqual(good.json().userDefinedFields);
  });

  it('refuses a change to a field the caller may not edit (403 naming it); sending it back unchanged is fine', async () => {
    const client = await household();
    const read = await expanded(client.id, 'advisor');
    const index = read.userDefinedFields.findIndex((f: Field) => f.code === 'COMPLIANCE');
    const response = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, { ...read, name: 'Renamed', userDefinedFields: withValue(read.userDefinedFields, 'COMPLIANCE', 'cleared by advisor') }, 'advisor');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden' });
    expect(response.json().errors).toEqual([{ field: `userDefinedFields[${index}].value`, message: 'COMPLIANCE can only be changed with the platform.admin privilege' }]);
    expect((await expanded(client.id)).name).toBe('The Lovelaces');
    // Set by an administrator, the advisor may still send it back as it is, or the record without any list.
    const byAdmin = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, { ...read, userDefinedFields: withValue(read.userDefinedFields, 'COMPLIANCE', 'Hold') });
    expect(byAdmin.statusCode).toBe(200);
    const again = await expanded(client.id, 'advisor');
    const unchanged = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, { ...again, name: 'Renamed', userDefinedFields: withValue(again.userDefinedFields, 'NOTE', 'advisor note') }, 'advisor');
    expect(unchanged.statusCode).toBe(200);
    expect(valueOf(unchanged.json().userDefinedFields, 'COMPLIANCE')).toBe('Hold');
    const clearing = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...again, userDefinedFields: withValue(again.userDefinedFields, 'COMPLIANCE', null) }, 'advisor');
    expect(clearing.statusCode).toBe(403);
  });

  it('refuses a list that leaves out a field holding a value; null clears; no list leaves values alone', async () => {
    const client = await household();
    const read = await expanded(client.id);
    await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...read, userDefinedFields: withValue(withValue(read.userDefinedFields, 'NOTE', 'kept'), 'INCOME', '90000') });
    const current = await expanded(client.id);

    const partial = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, {
      ...current,
      name: 'Partial',
      userDefinedFields: current.userDefinedFields.filter((f: Field) => f.code !== 'INCOME').map((f: Field) => (f.code === 'RISK' ? { ...f, value: 'Moderate' } : f)),
    });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().errors).toEqual([
      { field: 'userDefinedFields', message: `leaves out INCOME (userDefineDefinitionId ${defs.INCOME}), which has a value; send it back unchanged, or with value null to clear it` },
    ]);
    expect(await expanded(client.id)).toEqual(current);
    // Fields without a value may be left out.
    const short = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}?expand=userDefinedFields`, {
      ...current,
      userDefinedFields: [{ userDefineDefinitionId: defs.NOTE, value: 'kept' }, { userDefineDefinitionId: defs.INCOME, value: null }],
    });
    expect(short.statusCode).toBe(200);
    expect(short.json().userDefinedFields.map((f: Field) => f.value)).toEqual(['kept', null, null, null, null, null]);
    const noList = await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { name: 'No list', representativeId: t.firm.representativeId });
    expect(noList.statusCode).toBe(200);
    expect(noList.json()).not.toHaveProperty('userDefinedFields');
    expect(valueOf((await expanded(client.id)).userDefinedFields, 'NOTE')).toBe('kept');
  });

  it('bulk PUT is all or nothing: one bad item writes nothing, records or values', async () => {
    const a = await expanded((await household('Bulk A')).id);
    const b = await expanded((await household('Bulk B')).id);
    const bad = await call('PUT', '/api/v1/portfolio/clients/verbose?expand=userdefinedfields', [
      { ...a, name: 'Bulk A changed', userDefinedFields: withValue(a.userDefinedFields, 'NOTE', 'written?') },
      { ...b, userDefinedFields: withValue(withValue(b.userDefinedFields, 'VIP', 'true'), 'INCOME', 'a lot') },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: '[1].userDefinedFields[2].value', message: 'INCOME: "a lot" is not a number (write it as text, e.g. "1250.50")' }]);
    expect(await expanded(a.id)).toEqual(a);
    expect(await expanded(b.id)).toEqual(b);
    const forbidden = await call('PUT', '/api/v1/portfolio/clients/verbose', [
      { ...a, userDefinedFields: withValue(a.userDefinedFields, 'NOTE', 'written?') },
      { ...b, userDefinedFields: withValue(b.userDefinedFields, 'COMPLIANCE', 'x') },
    ], 'advisor');
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().errors[0].field).toBe('[1].userDefinedFields[5].value');
    expect(await expanded(a.id)).toEqual(a);

    const good = await call('PUT', '/api/v1/portfolio/clients/verbose?expand=userdefinedfields', [
      { ...a, userDefinedFields: withValue(a.userDefinedFields, 'NOTE', 'A note') },
      { ...b, userDefinedFields: withValue(b.userDefinedFields, 'RISK', 'Moderate') },
    ]);
    expect(good.statusCode).toBe(200);
    expect(good.json().map((r: { userDefinedFields: Field[] }) => [valueOf(r.userDefinedFields, 'NOTE'), valueOf(r.userDefinedFields, 'RISK')])).toEqual([
      ['A note', null],
      [null, 'Moderate'],
    ]);
  });

  it('serves every level: clients, registrations, accounts, representatives and products', async () => {
    const client = await household();
    const registration = (await call('POST', '/api/v1/Portfolio/Registrations/Verbose', { clientId: client.id, name: 'Joint', type: 'Joint' })).json();
    const account = (await call('POST', '/api/v1/Portfolio/Accounts/Verbose', { registrationId: registration.id, number: `UDF-${database.name}-${++sequence}`, name: 'Brokerage', custodian: 'Schwab' })).json();
    const product = (await call('POST', '/api/v1/Portfolio/Products/Verbose', { ticker: `UDF${database.name.slice(0, 2)}${++sequence}`, name: 'Fund', type: 'ETF' })).json();
    const levels: [string, number, string, string, string][] = [
      ['registrations', registration.id, 'Registration', 'TAX', 'Tax-Deferred'],
      ['accounts', account.id, 'Account', 'OBJECTIVE', 'Growth'],
      ['representatives', t.firm.representativeId, 'Representative', 'LICENSE', '2027-01-31'],
      ['products', product.id, 'Product', 'RATING', 'Watch'],
    ];
    for (const [path, id, level, code, value] of levels) {
      const read = await call('GET', `/api/portfolio/${path}/verbose/${id}?expand=userdefinedfields`);
      expect(read.statusCode, path).toBe(200);
      const record = read.json();
      expect(record.userDefinedFields.map((f: Field) => [f.entity, f.entityId, f.code]), path).toContainEqual([level, id, code]);
      const put = await call('PUT', `/api/portfolio/${path}/verbose/${id}?expand=userdefinedfields`, { ...record, userDefinedFields: withValue(record.userDefinedFields, code, value) });
      expect(put.statusCode, `${path}: ${put.body}`).toBe(200);
      expect(valueOf(put.json().userDefinedFields, code), path).toBe(value);
      const { userDefinedFields: _f, editedDate: _e, editedBy: _b, ...rest } = put.json();
      const { userDefinedFields: _g, editedDate: _d, editedBy: _c, ...restBefore } = record;
      expect(rest, path).toEqual(restBefore);
      // Another firm's caller sees nothing of it.
      expect((await call('GET', `/api/portfolio/${path}/verbose/${id}?expand=userdefinedfields`, undefined, 'admin', 'otherFirm')).statusCode, path).toBe(404);
      const hijack = await call('PUT', `/api/portfolio/${path}/verbose/${id}?expand=userdefinedfields`, put.json(), 'admin', 'otherFirm');
      expect(hijack.statusCode, path).toBe(404);
    }
    const bad = await call('PUT', `/api/portfolio/products/verbose/${product.id}`, { ...product, userDefinedFields: [{ userDefineDefinitionId: defs.RATING, value: 'Excellent' }] });
    expect(bad.json().errors).toEqual([{ field: 'userDefinedFields[0].value', message: 'RATING: "Excellent" is not one of the options: Approved, Watch' }]);
  });

  it('stores values sent on create; a representative\'s are named under portfolio', async () => {
    const created = await call('POST', '/api/v1/Portfolio/Clients/Verbose?expand=userDefinedFields', {
      name: 'Created with fields',
      representativeId: t.firm.representativeId,
      userDefinedFields: [{ userDefineDefinitionId: defs.RISK, value: 'Conservative' }],
    });
    expect(created.statusCode).toBe(200);
    expect(valueOf(created.json().userDefinedFields, 'RISK')).toBe('Conservative');
    const denied = await call('POST', '/api/v1/Portfolio/Clients/Verbose', { name: 'x', representativeId: t.firm.representativeId, userDefinedFields: [{ userDefineDefinitionId: defs.COMPLIANCE, value: 'x' }] }, 'advisor');
    expect(denied.statusCode).toBe(403);
    const template = (await call('GET', '/api/Portfolio/Representatives/Verbose/New')).json();
    const representative = { ...template, firstName: 'Ada', lastName: 'Byron', name: 'Ada Byron', number: `UDF-REP-${database.name}`, brokerDealerId: (await call('GET', '/api/Portfolio/BrokerDealers')).json()[0].id };
    const bad = await call('POST', '/api/Portfolio/Representatives/Verbose', { portfolio: { ...representative, userDefinedFields: [{ userDefineDefinitionId: defs.LICENSE, value: 'soon' }] }, id: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'portfolio.userDefinedFields[0].value', message: 'LICENSE: "soon" is not a date YYYY-MM-DD' }]);
    const good = await call('POST', '/api/Portfolio/Representatives/Verbose?expand=userDefinedFields', { portfolio: { ...representative, userDefinedFields: [{ userDefineDefinitionId: defs.LICENSE, value: '2027-06-30' }] }, id: 0 });
    expect(good.statusCode).toBe(200);
    expect(valueOf(good.json().userDefinedFields, 'LICENSE')).toBe('2027-06-30');
  });

  it('changes a definition only while stored values still fit; deleting removes its values', async () => {
    const list = (await call('POST', DEFS, { entity: 'Household', name: 'Temp', type: 'List', code: 'TEMP', options: ['One', 'Two'], sequence: 99 })).json();
    const client = await household();
    const read = await expanded(client.id);
    await call('PUT', `/api/v1/Portfolio/Clients/Verbose/${client.id}`, { ...read, userDefinedFields: withValue(read.userDefinedFields, 'TEMP', 'Two') });
    const put = (body: object) => call('PUT', `${DEFS}/${list.id}`, { entity: 'Household', name: 'Temp', code: 'TEMP', type: 'List', ...body });

    const dropInUse = await put({ options: ['One'] });
    expect(dropInUse.statusCode).toBe(400);
    expect(dropInUse.json().errors).toEqual([{ field: 'options', message: 'records hold 1 value(s) that would no longer fit ("Two"); change or clear them first' }]);
    const toNumber = await put({ type: 'Number' });
    expect(toNumber.json().errors).toEqual([{ field: 'type', message: 'records hold 1 value(s) that would no longer fit ("Two"); change or clear them first' }]);
    const otherLevel = await put({ entity: 'Account' });
    expect(otherLevel.json().errors).toContainEqual({ field: 'entity', message: 'cannot change from Household; create a field at the other level instead' });
    expect((await call('PUT', `${DEFS}/${list.id}`, { entity: 'Household', name: 'x', type: 'Text', code: 'TEMP' }, 'advisor')).statusCode).toBe(403);

    const renamed = await put({ name: 'Temporary', options: ['Two', 'Three'], category: 'Misc', securityCode: 'platform.admin' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Temporary', options: ['Two', 'Three'], category: 'Misc', securityCode: 'platform.admin', sequence: 99 });
    const toText = await put({ type: 'Text' });
    expect(toText.statusCode).toBe(200);
    expect(toText.json()).toMatchObject({ type: 'Text', options: [], securityCode: 'platform.admin', category: 'Misc' });

    expect((await call('DELETE', `${DEFS}/${list.id}`, undefined, 'advisor')).statusCode).toBe(403);
    const removed = await call('DELETE', `${DEFS}/${list.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ id: list.id, deletedValues: 1 });
    expect((await expanded(client.id)).userDefinedFields.map((f: Field) => f.code)).not.toContain('TEMP');
    expect((await call('GET', `${DEFS}/${list.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `${DEFS}/${list.id}`)).statusCode).toBe(404);
  });
});
