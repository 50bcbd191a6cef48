import { type Clock, isoNow } from '../../shared/clock.js';
import { DomainError, type FieldProblem, notFound, validationFailed } from '../../shared/errors.js';
import { uniqueViolation } from '../../db/errors.js';
import { BUY_PRIORITIES, SELL_PRIORITIES } from '../priorities/routes.js';
import type { RestrictedPlanRepository } from './repository.js';
import type { PlanCreate, PlanDetail, PlanListItem, PlanSecurityInput, PlanUpdate } from './schemas.js';

export interface Actor {
  firmId: number;
  userName: string;
}

type PriorityList = readonly { id: number; description: string }[];
const flag = (value: boolean | undefined): 0 | 1 => (value ? 1 : 0);

/**
 * A priority is given when either its id or its description is; then both are needed, the id must
 * be on section 2.8's list and the description must be that id's.
 */
function checkPriority(problems: FieldProblem[], at: string, kind: 'buy' | 'sell', id: number | null | undefined, text: string | null | undefined, list: PriorityList) {
  const hasId = id !== null && id !== undefined;
  const hasText = text !== null && text !== undefined && text.trim() !== '';
  if (!hasId && !hasText) return null;
  const idField = `${at}.${kind}PriorityId`;
  const textField = `${at}.${kind}Priority`;
  if (!hasId) return void problems.push({ field: idField, message: `is required when ${kind}Priority is given` });
  const entry = list.find((p) => p.id === id);
  if (!entry) return void problems.push({ field: idField, message: `${id} is not a ${kind} priority (known: ${list.map((p) => p.id).join(', ')})` });
  if (!hasText) return void problems.push({ field: textField, message: `is required when ${kind}PriorityId is given` });
  if (text.trim().toLowerCase() !== entry.description.toLowerCase()) {
    return void problems.push({ field: textField, message: `'${text}' is not the description of ${kind} priority ${id} ('${entry.description}')` });
  }
  return entry.id;
}

export class RestrictedPlanService {
  constructor(
    private readonly repository: RestrictedPlanRepository,
    private readonly clock: Clock,
  ) {}

  /** A page of the plans whose name contains `search`, with how many match. */
  async page(firmId: number, search: string | undefined, page: { top: number; skip: number }): Promise<{ items: PlanListItem[]; total: number }> {
    const { rows, total } = await this.repository.plansPage(firmId, search, page);
    return { items: await this.listItems(firmId, rows), total };
  }

  async list(firmId: number, search?: string): Promise<PlanListItem[]> {
    return this.listItems(firmId, await this.repository.plans(firmId, search));
  }

  private async listItems(firmId: number, plans: Awaited<ReturnType<RestrictedPlanRepository['plans']>>): Promise<PlanListItem[]> {
    const counts = await this.repository.accountCounts(firmId, plans.map((p) => p.id));
    return plans.map((p) => ({
      id: p.id,
      name: p.name,
      useInTradeFile: p.use_in_trade_file,
      accountCount: counts.get(p.id) ?? 0,
      externalPlanId: p.external_plan_id,
      createdBy: p.created_by,
      editedBy: p.edited_by,
      createdOn: p.created_at,
      editedOn: p.edited_at,
    }));
  }

  async detail(firmId: number, by: { id: number } | { externalPlanId: string }, repository = this.repository): Promise<PlanDetail> {
    const plan = await repository.plan(firmId, by);
    if (!plan) throw notFound('restricted plan', 'id' in by ? by.id : by.externalPlanId);
    const buy = new Map<number, string>(BUY_PRIORITIES.map((p) => [p.id, p.description]));
    const sell = new Map<number, string>(SELL_PRIORITIES.map((p) => [p.id, p.description]));
    const securities = await repository.securities(firmId, plan.id);
    return {
      id: plan.id,
      name: plan.name,
      useInTradeFile: plan.use_in_trade_file,
      externalPlanId: plan.external_plan_id,
      securities: securities.map((s) => ({
        securityId: s.product_id,
        securityName: s.product_name,
        securitySymbol: s.ticker,
        type: s.type,
        class: s.class,
        subClass: s.sub_class,
        category: s.category,
        doNotBuyGroupEquivalency: s.do_not_buy_group_equivalency,
        buyPriorityId: s.buy_priority_id,
        buyPriority: s.buy_priority_id === null ? null : (buy.get(s.buy_priority_id) ?? null),
        sellPriorityId: s.sell_priority_id,
        sellPriority: s.sell_priority_id === null ? null : (sell.get(s.sell_priority_id) ?? null),
        createdBy: s.created_by,
        editedBy: s.edited_by,
        createdOn: s.created_at,
        editedOn: s.edited_at,
      })),
    };
  }

  create(actor: Actor, input: PlanCreate): Promise<PlanDetail> {
    return this.write(actor, null, input, []);
  }

  update(actor: Actor, id: number, input: PlanUpdate): Promise<PlanDetail> {
    if (input.id !== id) throw validationFailed([{ field: 'id', message: `${input.id} does not match the id ${id} of the query` }]);
    return this.write(actor, id, input, input.securities.deletedSecurities);
  }

  /** Plans in use are refused: an account left without its plan would start buying anything. */
  async remove(firmId: number, id: number) {
    return this.repository.transaction(async (repository) => {
      if (!(await repository.plan(firmId, { id }, true))) throw notFound('restricted plan', id);
      const accounts = (await repository.accountCounts(firmId, [id])).get(id) ?? 0;
      if (accounts > 0) {
        throw new DomainError('conflict', `restricted plan ${id} is assigned to ${accounts} account(s); assign them another plan or none first`, [
          { field: 'id', message: `assigned to ${accounts} account(s)` },
        ]);
      }
      await repository.deletePlan(firmId, id);
      return { id: String(id), message: `Restricted plan ${id} deleted` };
    });
  }

  private async write(actor: Actor, id: number | null, input: PlanCreate | PlanUpdate, deleted: number[]): Promise<PlanDetail> {
    const name = input.name.trim();
    const nameKey = name.toLowerCase();
    const externalPlanId = input.externalPlanId?.trim() || null;
    const items = input.securities.securities;
    try {
      return await this.repository.transaction(async (repository) => {
        if (id !== null && !(await repository.plan(actor.firmId, { id }, true))) throw notFound('restricted plan', id);
        const problems: FieldProblem[] = [];
        if (name === '') problems.push({ field: 'name', message: 'is required' });
        else {
          const holders = await repository.holders(actor.firmId, nameKey, externalPlanId, id);
          if (holders.some((h) => h.name_key === nameKey)) problems.push({ field: 'name', message: `${name} is already the name of another restricted plan` });
          if (externalPlanId !== null && holders.some((h) => h.external_plan_id === externalPlanId)) {
            problems.push({ field: 'externalPlanId', message: `${externalPlanId} is already used by another restricted plan` });
          }
        }
        const current = id === null ? new Set<number>() : await repository.planProducts(actor.firmId, id);
        const checked = await this.checkSecurities(repository, actor.firmId, items, deleted, current, problems);
        if (problems.length > 0) throw validationFailed(problems);

        const now = isoNow(this.clock);
        const planColumns = { name, name_key: nameKey, use_in_trade_file: flag(input.useInTradeFile), external_plan_id: externalPlanId, edited_at: now, edited_by: actor.userName };
        const planId = id ?? (await repository.insertPlan({ firm_id: actor.firmId, ...planColumns, created_at: now, created_by: actor.userName }));
        if (id !== null) await repository.updatePlan(actor.firmId, id, planColumns);
        await repository.deleteSecurities(actor.firmId, planId, deleted);
        const added = [];
        for (const item of checked) {
          // A listed security is written whole: omitted flags are off and omitted priorities unset.
          const columns = { do_not_buy_group_equivalency: flag(item.input.doNotBuyGroupEquivalency), buy_priority_id: item.buy, sell_priority_id: item.sell, edited_at: now, edited_by: actor.userName };
          if (current.has(item.input.securityId)) await repository.updateSecurity(actor.firmId, planId, item.input.securityId, columns);
          else added.push({ firm_id: actor.firmId, plan_id: planId, product_id: item.input.securityId, ...columns, created_at: now, created_by: actor.userName });
        }
        await repository.insertSecurities(added);
        return this.detail(actor.firmId, { id: planId }, repository);
      });
    } catch (error) {
      const index = uniqueViolation(error);
      if (index === null) throw error;
      // A concurrent writer took the name or external id between the check and the insert.
      const field = index.includes('external_plan_id') ? 'externalPlanId' : 'name';
      throw validationFailed([{ field, message: 'is already used by another restricted plan' }]);
    }
  }

  private async checkSecurities(repository: RestrictedPlanRepository, firmId: number, items: PlanSecurityInput[], deleted: number[], current: Set<number>, problems: FieldProblem[]) {
    const known = await repository.existingProducts(firmId, [...new Set(items.map((i) => i.securityId))]);
    const seen = new Set<number>();
    const out: { input: PlanSecurityInput; buy: number | null; sell: number | null }[] = [];
    items.forEach((item, index) => {
      const at = `securities.securities[${index}]`;
      if (!known.has(item.securityId)) problems.push({ field: `${at}.securityId`, message: `security ${item.securityId} does not exist` });
      else if (seen.has(item.securityId)) problems.push({ field: `${at}.securityId`, message: `security ${item.securityId} is listed twice` });
      else if (deleted.includes(item.securityId)) problems.push({ field: `${at}.securityId`, message: `security ${item.securityId} is also in deletedSecurities` });
      seen.add(item.securityId);
      const buy = checkPriority(problems, at, 'buy', item.buyPriorityId, item.buyPriority, BUY_PRIORITIES);
      const sell = checkPriority(problems, at, 'sell', item.sellPriorityId, item.sellPriority, SELL_PRIORITIES);
      out.push({ input: item, buy: buy ?? null, sell: sell ?? null });
    });
    deleted.forEach((securityId, index) => {
      if (!current.has(securityId)) problems.push({ field: `securities.deletedSecurities[${index}]`, message: `security ${securityId} is not in the plan` });
    });
    return out;
  }
}
