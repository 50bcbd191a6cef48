import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { idChunks } from '../db/id-chunks.js';
import type { BuyPriorityId, RestrictedPlan, SellPriorityId, SetAsideCash } from '../engine/index.js';
import { loadSetAsideCash } from '../set-aside-cash/repository.js';
import { groupBy } from '../shared/group-by.js';

export interface RebalancerInputs {
  /** Plans by id; accounts of one plan share one object, so the engine's line cache is shared too. */
  restrictedPlans: Map<number, RestrictedPlan>;
  /** Account id to plan id, for accounts whose plan exists. */
  planOfAccount: Map<number, number>;
  /** Every requested account id, with the records active on `asOfDate` (possibly none). */
  setAsideCash: Map<number, SetAsideCash[]>;
  /** Products flagged doNotBuyGroupEquivalency in any plan of the firm; one array for every account. */
  doNotBuyGroupEquivalency: number[];
}

/**
 * The rebalancing application's inputs of a batch of accounts, in a handful of batched queries.
 * Set aside records are judged with the engine's own isSetAsideActive against `asOfDate` (the
 * run's business date), so a record the engine receives is one it will count.
 */
export async function loadRebalancerInputs(
  db: Kysely<Database>,
  firmId: number,
  accountIds: number[],
  asOfDate: string,
): Promise<RebalancerInputs> {
  const ids = [...new Set(accountIds)];
  const planOfAccount = new Map<number, number>();
  for (const chunk of idChunks(db, ids)) {
    const accounts = await db
      .selectFrom('accounts')
      .select(['id', 'restricted_plan_id'])
      .where('firm_id', '=', firmId)
      .where('id', 'in', chunk)
      .where('restricted_plan_id', 'is not', null)
      .execute();
    for (const a of accounts) planOfAccount.set(a.id, a.restricted_plan_id as number);
  }
  const setAsideCash = await loadSetAsideCash(db, firmId, ids, asOfDate);
  const restrictedPlans = await loadPlans(db, firmId, [...new Set(planOfAccount.values())]);
  for (const [accountId, planId] of planOfAccount) if (!restrictedPlans.has(planId)) planOfAccount.delete(accountId);
  return { restrictedPlans, planOfAccount, setAsideCash, doNotBuyGroupEquivalency: await loadDoNotBuyGroupEquivalency(db, firmId) };
}

/** Products flagged doNotBuyGroupEquivalency in any plan of the firm; one array for every account. */
export async function loadDoNotBuyGroupEquivalency(db: Kysely<Database>, firmId: number): Promise<number[]> {
  const flagged = await db
    .selectFrom('restricted_plan_securities')
    .select('product_id')
    .distinct()
    .where('firm_id', '=', firmId)
    .where('do_not_buy_group_equivalency', '=', 1)
    .orderBy('product_id')
    .execute();
  return flagged.map((r) => r.product_id);
}

/** Every restricted plan of the firm: reference data like models, read once per batch. */
export async function loadFirmPlans(db: Kysely<Database>, firmId: number): Promise<Map<number, RestrictedPlan>> {
  const ids = await db.selectFrom('restricted_plans').select('id').where('firm_id', '=', firmId).execute();
  return loadPlans(db, firmId, ids.map((r) => r.id));
}

async function loadPlans(db: Kysely<Database>, firmId: number, planIds: number[]): Promise<Map<number, RestrictedPlan>> {
  const plans = new Map<number, RestrictedPlan>();
  for (const chunk of idChunks(db, planIds)) {
    const rows = await db.selectFrom('restricted_plans').select(['id', 'name']).where('firm_id', '=', firmId).where('id', 'in', chunk).execute();
    const securities = await db
      .selectFrom('restricted_plan_securities')
      .select(['plan_id', 'product_id', 'buy_priority_id', 'sell_priority_id', 'do_not_buy_group_equivalency'])
      .where('firm_id', '=', firmId)
      .where('plan_id', 'in', chunk)
      .orderBy('plan_id')
      .orderBy('product_id')
      .execute();
    const byPlan = groupBy(securities, (s) => s.plan_id);
    for (const row of rows) {
      plans.set(row.id, {
        id: row.id,
        name: row.name,
        securities: (byPlan.get(row.id) ?? []).map((s) => ({
            productId: s.product_id,
            buyPriorityId: s.buy_priority_id as BuyPriorityId | null,
            sellPriorityId: s.sell_priority_id as SellPriorityId | null,
            doNotBuyGroupEquivalency: s.do_not_buy_group_equivalency === 1,
          })),
      });
    }
  }
  return plans;
}
