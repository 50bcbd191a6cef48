import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * The source system's client logs in with `GET …/security/token` and Basic credentials
 * alone. Section 5.5 asks for client_id and client_secret as well; a firm may choose to drop them.
 */
describeEachDatabase('Basic-only login, a firm setting', (database) => {
  const t = useTestApp(database, { env: { SIGN_IN_MAX_FAILURES: '50' } });
  const setting = async (payload?: object, user: 'admin' | 'reader' = 'admin') =>
    t.app.inject({ method: payload ? 'PUT' : 'GET', url: '/api/v1/Security/Firm/BasicLogin', payload, headers: { authorization: await t.session(user) } });
  // The source system's client builds its URL as `…/api/v1/` + `/security/token`: a doubled slash.
  const basicOnly = (user: { userName: string; password: string }) => t.app.inject({ url: '/api/v1//security/token', headers: { authorization: basic(user.userName, user.password) } });

  it('is off by default: section 5.5 still asks for client_id and client_secret', async () => {
    expect((await setting()).json()).toEqual({ enabled: false, partnerAppId: null, partnerAppName: null });
    const refused = await basicOnly(t.firm.users.api);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('on, lets the firm\'s API users in with Basic alone through its default partner app, and off again', async () => {
    const on = await setting({ enabled: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ enabled: true, partnerAppId: t.firm.clientId, partnerAppName: expect.any(String) });
    const login = await basicOnly(t.firm.users.api);
    expect(login.statusCode).toBe(200);
    const token = login.json().access_token;
    expect(login.json()).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: expect.any(Number) });
    // The token works as the client sends it, and names its user.
    const me = await t.app.inject({ url: '/api/v1//authorization/user', headers: { authorization: `Session ${token}` } });
    expect(me.json().loginUserId).toBe(t.firm.users.api.userName);

    // Interactive users keep the OAuth page; a wrong password and another firm's API user read alike.
    for (const user of [t.firm.users.admin, { ...t.firm.users.api, password: 'wrong password' }, t.otherFirm.users.api]) {
      const refused = await basicOnly(user);
      expect(refused.statusCode, user.userName).toBe(401);
      expect(refused.json(), user.userName).toMatchObject({ error: 'invalid_client' });
    }
    // With client_id and client_secret the section 5.5 login works as before.
    const full = await t.app.inject({ url: '/api/v1/security/token', headers: { authorization: basic(t.firm.users.api.userName, t.firm.users.api.password), client_id: String(t.firm.clientId), client_secret: t.firm.clientSecret } });
    expect(full.statusCode).toBe(200);

    expect((await setting({ enabled: false })).json()).toEqual({ enabled: false, partnerAppId: null, partnerAppName: null });
    expect((await basicOnly(t.firm.users.api)).statusCode).toBe(401);
  });

  it('needs platform.admin, names a bad partner app, and changes nothing when refused', async () => {
    expect((await setting({ enabled: true }, 'reader')).statusCode).toBe(403);
    const foreign = await setting({ enabled: true, partnerAppId: t.otherFirm.clientId });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'partnerAppId', message: `partner app ${t.otherFirm.clientId} is not an active partner app of this firm` }]);
    const contradictory = await setting({ enabled: false, partnerAppId: t.firm.clientId });
    expect(contradictory.statusCode).toBe(400);
    expect(contradictory.json().errors[0].field).toBe('partnerAppId');
    const missing = await setting({});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors[0].field).toBe('enabled');
    expect((await setting()).json().enabled).toBe(false);
  });
});
