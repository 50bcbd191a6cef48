import type { Principal } from '../../auth/service.js';
import { roundCents } from '../../engine/index.js';
import { heldDollars } from '../../shared/holding-values.js';
import { type Clock, today } from '../../shared/clock.js';
import { DomainError, notFound, validationError, validationFailed } from '../../shared/errors.js';
import { centsToDollars, microsToPrice, microsToShares } from '../../shared/money.js';
import { mapPages, pagesById } from '../../shared/pages.js';
import { toListItem } from '../../set-aside-cash/records.js';
import type { ModelService } from '../models/service.js';
import type { ModelRecord } from '../models/schemas.js';
import type { Paged, RebalancerAccountService } from '../accounts/service.js';
import type { EclipseRepository } from './repository.js';
import { PENDING_STATUS, searchTerm } from './repository.js';
import type { HoldingSimple, PortfolioDetail, PortfolioSimple, Security, SecuritySet, SecuritySetDetail, SleeveItem, TradeInstance, TradeOrder } from './schemas.js';
import type { SetAsideSetting, TradingBlock } from './v2-schemas.js';

type PortfolioRow = NonNullable<Awaited<ReturnType<EclipseRepository['portfolio']>>>;
type ProductRow = Awaited<ReturnType<EclipseRepository['securities']>>[number];

/** The source system's codes of a trade instance: type 6 Rebalance / subtype 14 Standard Rebalance, type 5 / subtype 11 Quick Trade. */
const INSTANCE_TYPES = { Rebalance: { type: 6, subType: 14 }, QuickTrade: { type: 5, subType: 11 } } as const;
/** The source system's trade actions. */
export const ACTION = { Buy: 1, Sell: 2 } as const;

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e4 : 0);
const priceOf = (micros: number | null) => (micros === null ? null : microsToPrice(Number(micros)));

export function securityOf(p: ProductRow): Security {
  return {
    id: p.id,
    symbol: p.ticker,
    name: p.name,
    securityType: p.type,
    assetClass: p.class,
    subClass: p.sub_class,
    category: p.category,
    price: priceOf(p.price_micros),
    priceDate: p.price_date,
    isCash: p.is_cash === 1,
  };
}

type SleeveRow = Awaited<ReturnType<EclipseRepository['sleeves']>>[number];
const num = (v: number | null) => (v === null ? null : Number(v));

function sleeveOf(s: SleeveRow): SleeveItem {
  return {
    id: s.id,
    accountId: String(s.id),
    accountNumber: s.number,
    name: s.name,
    portfolioId: s.registration_id,
    portfolioName: s.registration_name,
    sleeveType: s.sleeve_type!,
    sleeveTarget: num(s.sleeve_target_pct),
    sleeveToleranceLower: num(s.sleeve_tolerance_lower),
    sleeveToleranceUpper: num(s.sleeve_tolerance_upper),
    modelId: s.model_id,
    modelName: s.model_name,
    isDeleted: s.is_active === 1 ? 0 : 1,
  };
}

/** A model as the source system's security set: its lines in order (docs/decisions/eclipse-concepts.md). */
function securitySetOf(m: ModelRecord): SecuritySet {
  return {
    id: m.id,
    name: m.name,
    description: m.description,
    isDynamic: false,
    isDeleted: m.isActive === 1 ? 0 : 1,
    cashTargetPercent: m.cashTargetPercent,
    details: m.targets.map((t, index) => ({
      securitySetId: m.id,
      securityId: t.productId,
      symbol: t.ticker,
      rank: index + 1,
      targetPercent: t.targetPercent,
      lowerModelTolerancePercent: t.lowerTolerance,
      upperModelTolerancePercent: t.upperTolerance,
      equivalences: t.equivalents.map((securityId) => ({ securityId })),
    })),
    createdDate: m.createdOn,
    createdBy: m.createdBy,
    editedDate: m.editedOn,
    editedBy: m.editedBy,
  };
}

/** The day after an ISO date, for a half-open range of timestamps. */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString();

/**
 * The v1 Eclipse reads of portfolios, holdings, security sets, securities, trade instances and
 * orders, and sleeves, in the source system's shapes (docs/decisions/eclipse-concepts.md).
 */
export class EclipseService {
  constructor(
    readonly repository: EclipseRepository,
    readonly accounts: RebalancerAccountService,
    readonly models: ModelService,
    readonly clock: Clock,
  ) {}

  /** Positions at their latest price plus custodial cash, summed per registration, and the cash alone. */
  async portfolioValues(firmId: number, registrationIds: number[]) {
    const accounts = await this.repository.portfolioAccounts(firmId, registrationIds);
    const held = heldDollars(await this.repository.pricedHoldings(firmId, accounts.map((a) => a.id)));
    const out = new Map<number, { total: number; cash: number }>();
    for (const a of accounts) {
      const now = out.get(a.registration_id) ?? { total: 0, cash: 0 };
      const cash = centsToDollars(Number(a.cash_cents));
      out.set(a.registration_id, { total: now.total + (held.get(a.id) ?? 0) + cash, cash: now.cash + cash });
    }
    return { accounts, values: out };
  }

  private simple(row: PortfolioRow): PortfolioSimple {
    return {
      id: row.id,
      name: row.name,
      householdId: row.client_id,
      householdName: row.household_name,
      registrationId: row.id,
      accountType: row.type,
      isSleevePortfolio: row.is_sleeved === 1,
      doNotTrade: row.do_not_trade === 1,
      isDeleted: 0,
      createdOn: row.created_at,
      createdBy: row.created_by,
      editedOn: row.edited_at,
      editedBy: row.edited_by,
    };
  }

  async portfolios(firmId: number, query: { search?: string; includevalue: boolean; $top?: number; $skip: number }): Promise<Paged<PortfolioSimple>> {
    const term = query.search?.trim() ? searchTerm(query.search) : undefined;
    const rows = pagesById((afterId, limit, skip) => this.repository.portfolioRows(firmId, term, afterId, limit, skip), { skip: query.$skip, top: query.$top });
    return {
      total: await this.repository.portfolioCount(firmId, term),
      pages: mapPages(rows, async (page) => {
        if (!query.includevalue) return page.map((r) => this.simple(r));
        const { values } = await this.portfolioValues(firmId, page.map((r) => r.id));
        return page.map((r) => ({ ...this.simple(r), value: roundCents(values.get(r.id)?.total ?? 0) }));
      }),
    };
  }

  async portfolioRow(firmId: number, id: number): Promise<PortfolioRow> {
    const row = await this.repository.portfolio(firmId, id);
    if (!row) throw notFound('portfolio (registration)', id);
    return row;
  }

  async portfolio(firmId: number, id: number): Promise<PortfolioDetail> {
    const row = await this.portfolioRow(firmId, id);
    const { accounts, values } = await this.portfolioValues(firmId, [id]);
    const value = values.get(id) ?? { total: 0, cash: 0 };
    const modelIds = [...new Set(accounts.flatMap((a) => (a.model_id === null ? [] : [a.model_id])))].sort((a, b) => a - b);
    const { created_at, created_by, edited_at, edited_by } = row;
    return {
      id: row.id,
      name: row.name,
      isDeleted: 0,
      isDisabled: row.do_not_trade === 1 ? 1 : 0,
      general: { portfolioName: row.name, registrationId: row.id, householdId: row.client_id, householdName: row.household_name, accountType: row.type, sleevePortfolio: row.is_sleeved === 1, doNotTrade: row.do_not_trade === 1, modelIds },
      teams: await this.repository.modelTeams(firmId, modelIds),
      issues: {
        accountCount: accounts.length,
        accountsWithoutModel: accounts.filter((a) => a.model_id === null).length,
        tradeBlockedAccounts: accounts.filter((a) => a.is_trading_blocked === 1).length,
        pendingTrades: await this.repository.openOrderCount(firmId, accounts.map((a) => a.id)),
      },
      summary: { totalValue: roundCents(value.total), cashValue: roundCents(value.cash), cashPercent: pct(value.cash, value.total) },
      createdOn: created_at,
      createdBy: created_by,
      editedOn: edited_at,
      editedBy: edited_by,
    };
  }

  /**
   * A page of one account's holdings, or of those of every active account of a portfolio, with
   * how many there are; `search` narrows by ticker, name or security id. The holdings are valued
   * in the engine's way an account at a time, so the page is cut from them here.
   */
  async holdings(firmId: number, by: { accountId?: number; portfolioId?: number }, search: string | undefined, page: { top: number; skip: number }): Promise<{ items: HoldingSimple[]; total: number }> {
    let accountIds: { id: number; registration_id: number }[];
    if (by.accountId !== undefined) {
      const account = await this.repository.accountExists(firmId, by.accountId);
      if (!account) throw notFound('account', by.accountId);
      accountIds = [account];
    } else {
      await this.portfolioRow(firmId, by.portfolioId!);
      accountIds = await this.repository.portfolioAccounts(firmId, [by.portfolioId!]);
    }
    const text = search?.trim().toLowerCase();
    const out: HoldingSimple[] = [];
    for (const account of accountIds) {
      for (const h of await this.accounts.holdings(firmId, account.id)) {
        if (text && !(String(h.securityId) === text || h.securitySymbol.toLowerCase().includes(text) || h.securityName.toLowerCase().includes(text))) continue;
        out.push({ ...h, accountId: account.id, portfolioId: account.registration_id });
      }
    }
    return { items: out.slice(page.skip, page.skip + page.top), total: out.length };
  }

  /** Security sets: the models the caller may see, each with its lines in order. */
  async securitySets(principal: Principal, page: { top: number; skip: number }): Promise<{ items: SecuritySet[]; total: number }> {
    const { items, total } = await this.models.page(principal, page);
    return { items: items.map(securitySetOf), total };
  }

  /**
   * One security set (a model the caller may see) with its lines' securities and their
   * equivalents by symbol and name; 404 for a model of another firm, an invisible or unknown one.
   */
  async securitySet(principal: Principal, id: number): Promise<SecuritySetDetail> {
    let model: ModelRecord;
    try {
      model = await this.models.get(principal, id);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') throw notFound('security set (model)', id);
      throw error;
    }
    const ids = new Set(model.targets.flatMap((t) => [t.productId, ...t.equivalents]));
    const products = new Map((await this.repository.productNames(principal.firmId, [...ids])).map((p) => [p.id, p]));
    const ref = (productId: number) => {
      const p = products.get(productId);
      return { id: productId, securityId: productId, symbol: p?.ticker ?? '', name: p?.name ?? '' };
    };
    return {
      ...securitySetOf(model),
      securities: model.targets.map((t, index) => ({
        ...ref(t.productId),
        rank: index + 1,
        targetPercent: t.targetPercent,
        lowerModelTolerancePercent: t.lowerTolerance,
        upperModelTolerancePercent: t.upperTolerance,
        equivalences: t.equivalents.map(ref),
      })),
    };
  }

  async securities(firmId: number, query: { search: string; top: number; skip?: number; excludeCashSecurity: boolean }): Promise<Security[]> {
    const rows = await this.repository.securities(firmId, searchTerm(query.search), { excludeCash: query.excludeCashSecurity, top: query.top, skip: query.skip ?? 0 });
    return rows.map(securityOf);
  }

  async instances(firmId: number, startDate: string, endDate: string, page: { top: number; skip: number }): Promise<{ items: TradeInstance[]; total: number }> {
    if (endDate < startDate) throw validationError('querystring.endDate', `must not be before startDate (${startDate})`);
    const { rows, total } = await this.repository.instances(firmId, `${startDate}T00:00:00.000Z`, dayAfter(endDate), page);
    const items = rows.map((r) => ({
      id: r.id,
      tradeInstanceType: INSTANCE_TYPES[r.routine].type,
      tradeInstanceSubType: INSTANCE_TYPES[r.routine].subType,
      orderCount: Number(r.trade_count),
      status: r.status,
      notes: r.notes,
      createdOn: r.created_at,
      createdBy: r.created_by,
      cancelledOn: r.cancelled_at,
      cancelledBy: r.cancelled_by,
    }));
    return { items, total };
  }

  /** Trade orders, a page at a time (a firm's history may hold millions). */
  /** The trade orders' total, asked for with `$count=true`: a firm keeps every trade it ever generated. */
  async tradeCount(firmId: number, query: { isPending?: boolean; portfolioId?: number }): Promise<number> {
    return this.repository.countTrades(firmId, { pending: query.isPending, registrationId: query.portfolioId });
  }

  async trades(firmId: number, query: { isPending?: boolean; portfolioId?: number; $top?: number; $skip: number }): Promise<AsyncGenerator<TradeOrder[]>> {
    if (query.portfolioId !== undefined) await this.portfolioRow(firmId, query.portfolioId);
    const filter = { pending: query.isPending, registrationId: query.portfolioId };
    const rows = pagesById((afterId, limit, skip) => this.repository.trades(firmId, filter, afterId, limit, skip), { skip: query.$skip, top: query.$top });
    return mapPages(rows, (page) =>
      page.map((t) => ({
        id: t.id,
        tradeInstanceId: t.trade_instance_id,
        accountId: t.account_id,
        accountNumber: t.account_number,
        accountType: t.registration_type,
        custodian: t.custodian,
        portfolioId: t.registration_id,
        registrationName: t.registration_name,
        securityId: t.product_id,
        ticker: t.ticker,
        productName: t.product_name,
        action: ACTION[t.side],
        tradeType: t.trade_type,
        orderQty: microsToShares(Number(t.shares_micros)),
        tradeAmount: centsToDollars(Number(t.amount_cents)),
        price: microsToPrice(Number(t.price_micros)),
        status: t.status,
        isPending: t.status === PENDING_STATUS,
        notes: t.reason,
        instanceNotes: t.instance_notes,
        createdBy: t.created_by,
        createdDate: t.created_at,
        executedDate: t.executed_at,
      })),
    );
  }

  async blocks(firmId: number, page: { top: number; skip: number }): Promise<{ items: TradingBlock[]; total: number }> {
    const { rows, total } = await this.repository.blocks(firmId, page);
    const items = rows.map((b) => ({
      id: Number(b.id),
      tradeActionId: ACTION[b.side],
      securityId: b.product_id,
      symbol: b.ticker,
      securityName: b.name,
      orderQuantity: microsToShares(Number(b.shares_micros)),
      estimateAmount: centsToDollars(Number(b.amount_cents)),
      price: priceOf(b.price_micros),
      tradeCount: Number(b.trade_count),
      accountCount: Number(b.account_count),
      createdDate: String(b.created_at),
    }));
    return { items, total };
  }

  /** The sleeve accounts from `skip`, `top` of them (all when not given), read a page at a time, with how many there are. */
  async sleeves(firmId: number, page: { top?: number; skip: number }): Promise<{ total: number; pages: AsyncGenerator<SleeveItem[]> }> {
    const total = await this.repository.sleeveCount(firmId);
    const rows = pagesById((afterId, limit, skip) => this.repository.sleeves(firmId, afterId, limit, skip), page);
    return { total, pages: mapPages(rows, (sleeves) => sleeves.map(sleeveOf)) };
  }

  /** Set aside records of the accounts; an id that is not an account of the firm is a 400 naming its index, and nothing is read. */
  async setAsideSettings(firmId: number, accountIds: number[]): Promise<SetAsideSetting[]> {
    const unique = [...new Set(accountIds)];
    const numbers = new Map((await this.repository.accountNumbers(firmId, unique)).map((a) => [a.id, a.number]));
    const problems = accountIds.flatMap((id, index) => (numbers.has(id) ? [] : [{ field: `[${index}]`, message: `account ${id} does not exist` }]));
    if (problems.length > 0) throw validationFailed(problems.slice(0, 100));
    const day = today(this.clock);
    return (await this.repository.setAsides(firmId, unique)).map((row) => {
      const item = toListItem(row, day);
      return {
        id: item.id,
        accountId: row.account_id,
        accountNumber: numbers.get(row.account_id)!,
        description: item.description,
        setAsideCashAmountType: item.cashAmountTypeId,
        cashAmountTypeId: item.cashAmountTypeId,
        cashAmountType: item.cashAmountTypeName,
        setAsideCashAmount: item.cashAmount,
        minCashAmount: item.minCashAmount,
        maxCashAmount: item.maxCashAmount,
        transactionAmountTolerance: item.toleranceValue,
        setAsidePercentCalculationTypeId: item.percentCalculationTypeId,
        isActive: item.isActive === 1,
        expirationTypeId: item.expirationTypeId,
        expirationType: item.expirationTypeName,
        expirationValue: item.expirationValue,
        startDate: item.startDate,
        expiredOn: item.expiredOn,
        expiredBy: item.expiredBy,
        createdOn: item.createdOn,
        createdBy: item.createdBy,
        editedOn: item.editedOn,
        editedBy: item.editedBy,
      };
    });
  }
}
