import { beforeAll, expect } from 'vitest';
import type { TestContext } from '../../test/support/app.js';
import { createProduct, rebalancerSession } from '../../test/support/rebalancer.js';

/**
 * The one fixture of the rebalancer suites: four products (VTI at 200, BND at 80, ALT at 50 as
 * BND's equivalent, OUT at 100, held by no model) and a model of 60% VTI, 38% BND, 2% cash written
 * through the model route; an admin's rebalancer and platform sessions; a plan assigned to an
 * account through the platform's verbose account route.
 */
export interface BalancedModel {
  ids: Record<'VTI' | 'BND' | 'ALT' | 'OUT', number>;
  modelId: number;
  rebalancer: string;
  platform: string;
  post: (url: string, payload: object, authorization?: string) => Promise<{ id: number }>;
  assignPlan: (accountId: number, planId: number | null) => Promise<void>;
}

export function useBalancedModel(t: TestContext): BalancedModel {
  const fixture: BalancedModel = {
    ids: {} as BalancedModel['ids'],
    modelId: 0,
    rebalancer: '',
    platform: '',
    /** POSTs to either application (`url` from the root) and answers the 200 body. */
    post: async (url, payload, authorization = fixture.rebalancer) => {
      const response = await t.app.inject({ method: 'POST', url, payload, headers: { authorization } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ id: number }>();
    },
    assignPlan: async (accountId, planId) => {
      const headers = { authorization: fixture.platform };
      const record = (await t.app.inject({ url: `/api/v1/Portfolio/Accounts/Verbose/${accountId}`, headers })).json<{ registrationId: number; number: string; name: string; custodian: string }>();
      const response = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/Portfolio/Accounts/Verbose/${accountId}`,
        payload: { registrationId: record.registrationId, number: record.number, name: record.name, custodian: record.custodian, restrictedPlanId: planId },
        headers,
      });
      expect(response.statusCode, response.body).toBe(200);
    },
  };
  beforeAll(async () => {
    fixture.rebalancer = await rebalancerSession(t);
    fixture.platform = await t.session('admin');
    const k = t.db.kysely;
    fixture.ids.VTI = (await createProduct(k, t.firm.firmId, 200)).id;
    fixture.ids.BND = (await createProduct(k, t.firm.firmId, 80)).id;
    fixture.ids.ALT = (await createProduct(k, t.firm.firmId, 50)).id;
    fixture.ids.OUT = (await createProduct(k, t.firm.firmId, 100)).id;
    fixture.modelId = (
      await fixture.post('/rebalancer/v1/modeling/models', {
        name: 'Balanced 60/38',
        cashTargetPercent: 2,
        targets: [
          { productId: fixture.ids.VTI, targetPercent: 60, lowerTolerance: 2, upperTolerance: 2 },
          { productId: fixture.ids.BND, targetPercent: 38, lowerTolerance: 2, upperTolerance: 2, equivalents: [fixture.ids.ALT] },
        ],
      })
    ).id;
  });
  return fixture;
}
