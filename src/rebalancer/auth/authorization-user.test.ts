import { expect, it } from 'vitest';
import { useTestApp } from '../../../test/support/app.js';
import { describeEachDatabase } from '../../../test/support/databases.js';
import { rebalancerSession } from '../../../test/support/rebalancer.js';

/** The source system's client (check_username) reads userLoginId from this call. */
describeEachDatabase('rebalancer: the signed-in user (/v1/admin/authorization/user)', (database) => {
  const t = useTestApp(database);
  const get = (authorization?: string) => t.app.inject({ url: '/rebalancer/v1/admin/authorization/user', headers: authorization ? { authorization } : {} });

  it('answers the token\'s user with userLoginId, role and firm; another firm\'s token answers its own user', async () => {
    const response = await get(await rebalancerSession(t, 'reader'));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: t.firm.users.reader.id,
      userLoginId: t.firm.users.reader.userName,
      status: 1,
      role: { name: 'Read Only', privileges: ['portfolio.read'] },
      team: [],
      firmId: t.firm.firmId,
      isDeleted: 0,
    });
    const other = (await get(await rebalancerSession(t, 'admin', 'otherFirm'))).json();
    expect(other).toMatchObject({ id: t.otherFirm.users.admin.id, userLoginId: t.otherFirm.users.admin.userName, firmId: t.otherFirm.firmId });
  });

  it('any rebalancer token will do (a role without privileges too); platform tokens and none are 401', async () => {
    expect((await get(await rebalancerSession(t, 'nobody'))).json().role.privileges).toEqual([]);
    expect((await get(await t.session('admin'))).statusCode).toBe(401);
    expect((await get()).statusCode).toBe(401);
  });
});
