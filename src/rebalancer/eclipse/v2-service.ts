import { Privilege } from '../../auth/privileges.js';
import type { Principal } from '../../auth/service.js';
import { roundCents } from '../../engine/index.js';
import { heldDollars } from '../../shared/holding-values.js';
import { notFound, validationError } from '../../shared/errors.js';
import { centsToDollars } from '../../shared/money.js';
import { mapPages } from '../../shared/pages.js';
import type { TradeBlockReasonService } from '../../trade-blocks/reasons.js';
import type { TradeBlockService } from '../../trade-blocks/service.js';
import type { RebalancerTradeBlockService } from '../trade-block-details/service.js';
import { RelatedType } from '../trade-block-details/schemas.js';
import type { Paged } from '../accounts/service.js';
import { searchTerm } from './repository.js';
import type { AccountSearchItem, DetailHistoryItem, GlobalSearchResult, SleeveStrategy, V2AccountDetail, V2AccountListItem } from './v2-schemas.js';
import type { EclipseService } from './service.js';

/** The platform's entity codes (6 Registration, 7 Account) and the rebalancer's (16 Portfolio, 32 Account). */
const ENTITY_OF_RELATED = { [RelatedType.Portfolio]: 6, [RelatedType.Account]: 7 } as const;
const RELATED_OF_ENTITY: Record<number, number> = { 6: RelatedType.Portfolio, 7: RelatedType.Account };

/**
 * The v2 Eclipse reads: accounts, restricted plan accounts, trade block reasons, history and
 * related entities, trading blocks, sleeve strategies, teams and the three searches.
 */
export class EclipseV2Service {
  constructor(
    private readonly eclipse: EclipseService,
    private readonly tradeBlocks: TradeBlockService,
    private readonly reasons: TradeBlockReasonService,
    private readonly details: RebalancerTradeBlockService,
  ) {}

  private get repository() {
    return this.eclipse.repository;
  }

  async accounts(firmId: number, filter: { restrictedPlanId?: number; top?: number; skip: number }): Promise<Paged<V2AccountListItem>> {
    const { total, pages } = await this.eclipse.accounts.list(firmId, filter);
    return {
      total,
      pages: mapPages(pages, (items) =>
        items.map((item) => {
          const out = item as V2AccountListItem;
          out.registrationId = item.portfolioId;
          out.restrictedPlanName = item.restrictedPlan;
          out.isDisabled = item.isTradingBlocked;
          return out;
        }),
      ),
    };
  }

  async account(firmId: number, id: number): Promise<V2AccountDetail> {
    const { restrictedPlan, ...detail } = await this.eclipse.accounts.detail(firmId, id);
    const holdings = await this.eclipse.accounts.holdings(firmId, id);
    return {
      ...detail,
      restrictedPlanId: restrictedPlan?.id ?? null,
      restrictedPlanName: restrictedPlan?.name ?? null,
      isDisabled: detail.isTradingBlocked,
      accountValue: {
        totalValue: detail.value,
        holdings: holdings.map((h) => ({ securityId: h.securityId, securityName: h.securityName, securitySymbol: h.securitySymbol, marketValue: h.value, unit: h.shares, price: h.price, percentage: h.currentInPer, pendingValue: h.pendingValue })),
      },
    };
  }

  async restrictedPlanAccounts(firmId: number, query: { restrictedPlanId?: number; externalPlanId?: string; $top?: number; $skip: number }): Promise<Paged<V2AccountListItem>> {
    if (query.restrictedPlanId === undefined && query.externalPlanId === undefined) throw validationError('querystring.restrictedPlanId', 'is required (or externalPlanId) to name the plan');
    const plan = await this.repository.plan(firmId, { id: query.restrictedPlanId, externalId: query.externalPlanId?.trim() });
    if (!plan) throw notFound('restricted plan', query.restrictedPlanId ?? query.externalPlanId!);
    return this.accounts(firmId, { restrictedPlanId: plan.id, top: query.$top, skip: query.$skip });
  }

  async editableReasons(firmId: number) {
    return (await this.reasons.list(firmId))
      .filter((r) => !r.isSystemMaintained)
      .map((r) => ({ id: r.id, name: r.name, globalId: r.globalId, isSystemMaintained: false, allowDetailAssignment: r.allowDetailAssignment, eclipseFirmId: r.rebalancerFirmId }));
  }

  /** The entity (16 registration, 32 account) first, then its related entities; 404 when the firm has no such entity. */
  async relatedEntities(firmId: number, entityType: 16 | 32, entityId: number) {
    const items = await this.tradeBlocks.related(firmId, ENTITY_OF_RELATED[entityType], entityId);
    return items.map((i) => ({ id: i.id, entityType: RELATED_OF_ENTITY[i.entityType]!, name: i.name }));
  }

  /**
   * The trade block details of the entity, deleted ones too, each with its last change; with
   * dates, those changed on those days.
   */
  async detailHistory(firmId: number, entityType: 16 | 32, entityId: number, window: { startDate?: string; endDate?: string }): Promise<DetailHistoryItem[]> {
    if (window.startDate && window.endDate && window.endDate < window.startDate) throw validationError('querystring.endDate', `must not be before startDate (${window.startDate})`);
    await this.relatedEntities(firmId, entityType, entityId);
    const out: DetailHistoryItem[] = [];
    for await (const page of this.details.list(firmId, { relatedType: entityType, relatedTypeId: entityId, includeDeleted: true })) {
      for (const d of page) {
        const day = d.editedDate.slice(0, 10);
        if ((window.startDate && day < window.startDate) || (window.endDate && day > window.endDate)) continue;
        out.push({
          id: d.id,
          changeType: d.isDeleted ? 'Deleted' : d.editedDate !== d.createdDate ? 'Edited' : 'Added',
          type: d.tradeBlockReasonName,
          description: d.description,
          startDate: d.startDate,
          endDate: d.endDate,
          createdBy: d.createdBy,
          createdDate: d.createdDate,
          editedBy: d.editedBy,
          editedDate: d.editedDate,
        });
      }
    }
    return out;
  }

  async sleeveStrategies(firmId: number): Promise<SleeveStrategy[]> {
    const { aggs, members, assigned } = await this.repository.strategies(firmId);
    const used = new Set(assigned.map((a) => a.sleeve_strategy_id));
    return aggs.map((a) => ({
      id: a.id,
      name: a.name,
      hasAssignedRegistrations: used.has(a.id),
      models: members.filter((m) => m.model_agg_id === a.id).map((m) => ({ modelId: m.model_id, name: m.name, weightPercent: Number(m.weight_pct) })),
    }));
  }

  async teams(firmId: number, externalId: string | undefined) {
    if (externalId === undefined) return this.repository.teams(firmId);
    const id = /^\s*\d{1,9}\s*$/.test(externalId) ? Number(externalId) : null;
    return id === null ? [] : this.repository.teams(firmId, id);
  }

  async accountSearch(firmId: number, query: { search: string; limit: number; offset: number }): Promise<AccountSearchItem[]> {
    const rows = await this.repository.searchAccounts(firmId, searchTerm(query.search), { limit: query.limit, offset: query.offset, includeClosed: false });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      accountId: String(r.id),
      accountNumber: r.number,
      accountType: r.registration_type,
      isSleeve: r.sleeve_type === null ? 0 : 1,
      portfolioId: r.registration_id,
      portfolioName: r.registration_name,
      modelId: r.model_id,
      isDeleted: r.is_active === 1 ? 0 : 1,
      custodian: r.custodian,
      createdOn: r.created_at,
      createdBy: r.created_by,
      editedOn: r.edited_at,
      editedBy: r.edited_by,
    }));
  }

  async securitySearch(firmId: number, query: { search: string; skip: number; take: number; externalFirmId?: number; externalAccountId?: number }) {
    if (query.externalFirmId !== undefined && query.externalFirmId !== firmId) throw notFound('firm', query.externalFirmId);
    if (query.externalAccountId !== undefined && !(await this.repository.accountExists(firmId, query.externalAccountId))) throw notFound('account', query.externalAccountId);
    return this.eclipse.securities(firmId, { search: query.search, top: query.take, skip: query.skip, excludeCashSecurity: false });
  }

  /**
   * Portfolios, accounts and models whose name (with `search`: also number or id) matches, at most
   * `limit` of each kind; models are those the caller may see.
   */
  async globalSearch(principal: Principal, query: { search?: string; name?: string; status?: 'active' | 'all'; includeValue: boolean; limit: number }): Promise<GlobalSearchResult> {
    const text = query.search?.trim() || query.name?.trim();
    if (!text) throw validationError('querystring.search', 'is required (or name): the text to search for');
    const nameOnly = !query.search?.trim();
    const firmId = principal.firmId;
    const { portfolios, accounts, models } = await this.repository.globalSearch(firmId, searchTerm(text), {
      limit: query.limit,
      nameOnly,
      includeClosed: query.status === 'all',
      userId: principal.userId,
      seesEveryModel: principal.privileges.has(Privilege.PlatformAdmin),
    });
    let portfolioValue = new Map<number, number>();
    let accountValue = new Map<number, number>();
    if (query.includeValue) {
      portfolioValue = new Map([...(await this.eclipse.portfolioValues(firmId, portfolios.map((p) => p.id))).values].map(([id, v]) => [id, roundCents(v.total)]));
      const held = heldDollars(await this.repository.pricedHoldings(firmId, accounts.map((a) => a.id)));
      accountValue = new Map(accounts.map((a) => [a.id, roundCents((held.get(a.id) ?? 0) + centsToDollars(Number(a.cash_cents)))]));
    }
    const value = (values: Map<number, number>, id: number) => (query.includeValue ? { value: values.get(id) ?? 0 } : {});
    return {
      portfolios: portfolios.map((p) => ({ id: p.id, name: p.name, ...value(portfolioValue, p.id), isDeleted: false })),
      accounts: accounts.map((a) => ({ id: a.id, name: a.name, ...value(accountValue, a.id), isDeleted: a.is_active !== 1 })),
      models: models.map((m) => ({ id: m.id, name: m.name, isDeleted: m.is_active !== 1 })),
    };
  }
}
