import type { Principal } from '../../auth/service.js';
import { type Clock, isoNow } from '../../shared/clock.js';
import { type FieldProblem, validationFailed } from '../../shared/errors.js';
import { BUY_PRIORITIES, SELL_PRIORITIES } from '../priorities/routes.js';
import type { ModelRepository } from './repository.js';
import type { Allocation, ModelPortfolio, PrioritiesUpdate, SecurityPriority } from './securities-schemas.js';
import type { ModelService } from './service.js';

type PriorityList = readonly { id: number; description: string }[];
const describe = (list: PriorityList, id: number | null) => (id === null ? null : (list.find((p) => p.id === id)?.description ?? null));

/**
 * A model's securities seen from the rebalancing application: its allocation, the portfolios
 * (registrations) on it, and the section 2.8 buy and sell priorities of its securities, which
 * the engine applies to every account on the model (a restricted plan's priorities win).
 */
export class ModelSecurityService {
  constructor(
    private readonly repository: ModelRepository,
    private readonly models: ModelService,
    private readonly clock: Clock,
  ) {}

  async allocations(principal: Principal, modelId: number, aggregate: boolean): Promise<Allocation[]> {
    await this.models.assertVisible(principal, modelId);
    const { targets, equivalents } = await this.repository.securities(principal.firmId, modelId);
    const priorities = new Map((await this.repository.priorities(principal.firmId, modelId)).map((p) => [p.product_id, p]));
    return targets.map((t) => {
      const short = { id: t.product_id, securityId: t.product_id, name: t.name, symbol: t.ticker, targetInPercent: Number(t.target_pct) };
      if (aggregate) return short;
      return {
        ...short,
        modelDetailId: t.id,
        lowerModelTolerancePercent: Number(t.lower_pct),
        upperModelTolerancePercent: Number(t.upper_pct),
        assetClassNameOfSecurity: t.class,
        assetSubClassNameOfSecurity: t.sub_class,
        assetCategoryNameOfSecurity: t.category,
        equivalents: equivalents.filter((e) => e.model_allocation_id === t.id).map((e) => e.product_id),
        buyPriorityId: priorities.get(t.product_id)?.buy_priority_id ?? null,
        sellPriorityId: priorities.get(t.product_id)?.sell_priority_id ?? null,
      };
    });
  }

  async portfolios(principal: Principal, modelId: number, page: { top: number; skip: number }): Promise<{ items: ModelPortfolio[]; total: number }> {
    await this.models.assertVisible(principal, modelId);
    const { rows, total } = await this.repository.portfolios(principal.firmId, modelId, page);
    return { items: rows.map((r) => ({ id: r.id, name: r.name, substitutedModelId: null, status: 'APPROVED', accountCount: Number(r.account_count) })), total };
  }

  async priorities(principal: Principal, modelId: number, repository = this.repository): Promise<SecurityPriority[]> {
    await this.models.assertVisible(principal, modelId, repository);
    const { targets, equivalents } = await repository.securities(principal.firmId, modelId);
    const stored = new Map((await repository.priorities(principal.firmId, modelId)).map((p) => [p.product_id, p]));
    const seen = new Set<number>();
    const out: SecurityPriority[] = [];
    for (const [security, isEquivalent] of [...targets.map((t) => [t, 0] as const), ...equivalents.map((e) => [e, 1] as const)]) {
      if (seen.has(security.product_id)) continue;
      seen.add(security.product_id);
      const p = stored.get(security.product_id);
      const buy = p?.buy_priority_id ?? null;
      const sell = p?.sell_priority_id ?? null;
      out.push({
        securityId: security.product_id,
        securityName: security.name,
        securitySymbol: security.ticker,
        isEquivalent,
        buyPriorityId: buy,
        buyPriority: describe(BUY_PRIORITIES, buy),
        sellPriorityId: sell,
        sellPriority: describe(SELL_PRIORITIES, sell),
        editedOn: p?.edited_at ?? null,
        editedBy: p?.edited_by ?? null,
      });
    }
    return out;
  }

  /** Listed securities get exactly the given priorities (null or omitted clears one); others keep theirs. All or nothing. */
  setPriorities(principal: Principal, modelId: number, input: PrioritiesUpdate): Promise<SecurityPriority[]> {
    return this.repository.transaction(async (repository) => {
      await this.models.assertVisible(principal, modelId, repository);
      // Locks the model row: a concurrent model update (which rewrites the targets) waits or is waited for.
      await repository.model(principal.firmId, modelId, true);
      const { targets, equivalents } = await repository.securities(principal.firmId, modelId);
      const members = new Set([...targets.map((t) => t.product_id), ...equivalents.map((e) => e.product_id)]);
      const problems: FieldProblem[] = [];
      const listed = new Set<number>();
      input.securities.forEach((s, i) => {
        const at = `securities[${i}]`;
        if (!members.has(s.securityId)) problems.push({ field: `${at}.securityId`, message: `security ${s.securityId} is neither a target nor an equivalent of model ${modelId}` });
        else if (listed.has(s.securityId)) problems.push({ field: `${at}.securityId`, message: `security ${s.securityId} is listed twice` });
        listed.add(s.securityId);
        check(problems, at, 'buy', s.buyPriorityId, s.buyPriority, BUY_PRIORITIES);
        check(problems, at, 'sell', s.sellPriorityId, s.sellPriority, SELL_PRIORITIES);
      });
      if (problems.length > 0) throw validationFailed(problems);
      const rows = input.securities.map((s) => ({ productId: s.securityId, buy: s.buyPriorityId ?? null, sell: s.sellPriorityId ?? null }));
      await repository.setPriorities(principal.firmId, modelId, rows, principal.userName, isoNow(this.clock));
      return this.priorities(principal, modelId, repository);
    });
  }
}

/** The id must be on section 2.8's list (the schema bounds it); a description, when given, must be that id's. */
function check(problems: FieldProblem[], at: string, kind: 'buy' | 'sell', id: number | null | undefined, text: string | null | undefined, list: PriorityList) {
  const hasText = text !== null && text !== undefined && text.trim() !== '';
  if (id === null || id === undefined) {
    if (hasText) problems.push({ field: `${at}.${kind}PriorityId`, message: `is required when ${kind}Priority is given` });
    return;
  }
  const entry = list.find((p) => p.id === id);
  if (!entry) return void problems.push({ field: `${at}.${kind}PriorityId`, message: `${id} is not a ${kind} priority (known: ${list.map((p) => p.id).join(', ')})` });
  if (hasText && text.trim().toLowerCase() !== entry.description.toLowerCase()) {
    problems.push({ field: `${at}.${kind}Priority`, message: `'${text}' is not the description of ${kind} priority ${id} ('${entry.description}')` });
  }
}
