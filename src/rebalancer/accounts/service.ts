import { protectedCash, roundCents } from '../../engine/index.js';
import type { Principal } from '../../auth/service.js';
import { type Clock, today } from '../../shared/clock.js';
import { notFound, validationError } from '../../shared/errors.js';
import { centsToDollars } from '../../shared/money.js';
import { mapPages, pagesById } from '../../shared/pages.js';
import { heldDollars } from '../../shared/holding-values.js';
import type { AccountFilter, RebalancerAccountRepository } from './repository.js';
import type { AccountDetail, AccountHolding, AccountListItem, AccountSimple, OutOfToleranceItem } from './schemas.js';

type Row = NonNullable<Awaited<ReturnType<RebalancerAccountRepository['one']>>>;
type ModelTarget = Awaited<ReturnType<RebalancerAccountRepository['modelTargets']>>[number];

/** A list of accounts: its total before paging (X-Total-Count) and its items, a page at a time. */
export interface Paged<T> {
  total: number;
  pages: AsyncGenerator<T[]>;
}

const yesNo = (flag: boolean) => (flag ? 'Yes' : 'No');
const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1e6) / 1e4 : 0);
const price = (micros: number | null) => (micros === null ? null : Number(micros) / 1e6);

interface Values {
  /** Positions at their latest price plus custodial cash (the engine's managed value). */
  total: number;
  cash: number;
  /** Protected by the account's active set aside cash. */
  setAside: number;
  /** Custodial cash after the account's open orders. */
  pendingCash: number;
}

/** Sees whether the caller may see a model (team visibility); throws not_found when not. */
export type ModelGate = (principal: Principal, modelId: number) => Promise<unknown>;

/**
 * The account reads of the rebalancing application, in the source system's shapes. Values are
 * computed as the engine computes them: positions at the latest price plus custodial cash; open
 * trade orders are what "pending" means here.
 */
export class RebalancerAccountService {
  constructor(
    private readonly repository: RebalancerAccountRepository,
    private readonly clock: Clock,
    private readonly modelGate: ModelGate,
  ) {}

  private async values(firmId: number, rows: Row[]): Promise<Map<number, Values>> {
    const ids = rows.map((r) => r.id);
    const positions = heldDollars(await this.repository.pricedHoldings(firmId, ids));
    const pendingCash = new Map<number, number>();
    for (const o of await this.repository.openOrders(firmId, ids)) {
      const amount = centsToDollars(Number(o.amount_cents));
      pendingCash.set(o.account_id, (pendingCash.get(o.account_id) ?? 0) + (o.side === 'Sell' ? amount : -amount));
    }
    const asOf = today(this.clock);
    const setAsides = await this.repository.setAsideCash(firmId, ids, asOf);
    const out = new Map<number, Values>();
    for (const row of rows) {
      const cash = centsToDollars(Number(row.cash_cents));
      const total = (positions.get(row.id) ?? 0) + cash;
      const setAside = protectedCash(setAsides.get(row.id), asOf, { managed: total, excluded: 0 });
      out.set(row.id, { total: roundCents(total), cash, setAside: roundCents(setAside), pendingCash: roundCents(cash + (pendingCash.get(row.id) ?? 0)) });
    }
    return out;
  }

  private simple(row: Row): AccountSimple {
    return {
      id: row.id,
      name: row.name,
      accountId: String(row.id),
      accountNumber: row.number,
      accountType: row.registration_type,
      isSleeve: row.sleeve_type === null ? 0 : 1,
      portfolioId: row.registration_id,
      portfolioName: row.registration_name,
      modelId: row.model_id,
      isDeleted: row.is_active === 1 ? 0 : 1,
      createdOn: row.created_at,
      createdBy: row.created_by,
      editedOn: row.edited_at,
      editedBy: row.edited_by,
    };
  }

  async simpleList(firmId: number, filter: AccountFilter, includeValue: boolean): Promise<Paged<AccountSimple>> {
    return {
      total: await this.repository.count(firmId, filter),
      pages: this.pages(firmId, filter, async (rows) => {
        if (!includeValue) return rows.map((r) => this.simple(r));
        const values = await this.values(firmId, rows);
        return rows.map((r) => ({ ...this.simple(r), value: values.get(r.id)!.total }));
      }),
    };
  }

  async simpleOne(firmId: number, id: number): Promise<AccountSimple> {
    return this.simple(await this.row(firmId, id));
  }

  async list(firmId: number, filter: AccountFilter): Promise<Paged<AccountListItem>> {
    return {
      total: await this.repository.count(firmId, filter),
      pages: this.pages(firmId, filter, async (rows) => {
        const values = await this.values(firmId, rows);
        return rows.map((r) => this.listItem(r, values.get(r.id)!));
      }),
    };
  }

  /** The accounts the filter's `$skip`/`$top` select, a page at a time (shared/pages.ts), each page made into items. */
  private pages<T>(firmId: number, filter: AccountFilter, items: (rows: Row[]) => Promise<T[]>): AsyncGenerator<T[]> {
    const rows = pagesById((afterId, limit, skip) => this.repository.rows(firmId, filter, afterId, limit, skip), { skip: filter.skip, top: filter.top });
    return mapPages(rows, items);
  }

  private listItem(row: Row, v: Values): AccountListItem {
    const cashTarget = row.cash_target_pct === null ? 0 : Number(row.cash_target_pct);
    // Filled in place: spreading the short form into a new 30-property literal made a second, slower
    // object for every account of a whole list (117,000 of them).
    const item = this.simple(row) as AccountListItem;
    item.portfolio = row.registration_name;
    item.custodian = row.custodian;
    item.value = v.total;
    item.managedValue = v.total;
    item.excludedValue = 0;
    item.model = row.model_name;
    item.sleeveType = row.sleeve_type ?? 'None';
    item.restrictedPlan = row.plan_name;
    item.isTradingBlocked = row.is_trading_blocked;
    item.setAsideCashActual = v.setAside;
    item.currentCash = v.cash;
    item.currentCashPercent = pct(v.cash, v.total);
    item.targetCashPercent = cashTarget;
    item.targetCash = roundCents(((v.total - v.setAside) * cashTarget) / 100 + v.setAside);
    item.pendingCashValue = v.pendingCash;
    return item;
  }

  async detail(firmId: number, id: number): Promise<AccountDetail> {
    const row = await this.row(firmId, id);
    const v = (await this.values(firmId, [row])).get(row.id)!;
    const item = this.listItem(row, v);
    const cashReserve = roundCents(((v.total - v.setAside) * item.targetCashPercent) / 100);
    return {
      ...item,
      registrationId: row.registration_id,
      sleeveTarget: row.sleeve_target_pct === null ? null : Number(row.sleeve_target_pct),
      sleeveToleranceLower: row.sleeve_tolerance_lower === null ? null : Number(row.sleeve_tolerance_lower),
      sleeveToleranceUpper: row.sleeve_tolerance_upper === null ? null : Number(row.sleeve_tolerance_upper),
      restrictedPlan: row.restricted_plan_id === null ? null : { id: row.restricted_plan_id, name: row.plan_name ?? '' },
      generalSection: {
        accountName: row.name,
        accountNumber: row.number,
        accountId: String(row.id),
        accountType: row.registration_type,
        portfolioId: row.registration_id,
        portfolioName: row.registration_name,
        custodian: row.custodian,
        model: row.model_name,
      },
      summarySection: {
        grandTotal: v.total,
        totalValue: v.total,
        managedValue: v.total,
        excludedValue: 0,
        totalCashValue: v.cash,
        cashReserve,
        setAsideCash: v.setAside,
        cashAvailable: roundCents(Math.max(v.cash - v.setAside - cashReserve, 0)),
        pendingCashValue: v.pendingCash,
      },
    };
  }

  async holdings(firmId: number, id: number): Promise<AccountHolding[]> {
    const row = await this.row(firmId, id);
    const v = (await this.values(firmId, [row])).get(row.id)!;
    const positions = await this.repository.positions(firmId, id);
    const targets = row.model_id === null ? [] : await this.repository.modelTargets(firmId, row.model_id);
    const pending = await this.pendingShares(firmId, [id]);
    return positions.map((p) => {
      const shares = Number(p.shares_micros) / 1e6;
      const unit = price(p.price_micros);
      const value = unit === null ? 0 : roundCents(shares * unit);
      const pendingValue = unit === null ? 0 : roundCents((shares + (pending.get(`${id}:${p.product_id}`) ?? 0)) * unit);
      const target = targets.find((t) => t.productId === p.product_id);
      return {
        id: p.id,
        securityId: p.product_id,
        accountNumber: row.number,
        securityName: p.name,
        securitySymbol: p.ticker,
        price: unit,
        shares,
        value,
        currentInPer: pct(value, v.total),
        targetInPer: target?.target ?? 0,
        pendingValue,
        pendingInPer: pct(pendingValue, v.total),
        excluded: 'No',
        isCash: yesNo(p.is_cash === 1),
        inModel: yesNo(targets.some((t) => t.productId === p.product_id || t.equivalents.includes(p.product_id))),
        isDeleted: 0,
      };
    });
  }

  /**
   * Accounts on the model whose weight in the asset (a model target; its equivalents count toward
   * it) is outside target − lower .. target + upper, weights taken on the investable value (value
   * less protected cash), as rule 1 of the rebalancing design judges tolerance.
   */
  async outOfTolerance(principal: Principal, modelId: number, assetId: number, assetType: string): Promise<AsyncGenerator<OutOfToleranceItem[]>> {
    const firmId = principal.firmId;
    if (assetType !== 'security' && assetType !== 'securityset') {
      throw validationError('querystring.assetType', `${assetType} is not served: the book keeps asset class, subclass and category as text without ids; use security (or securityset) with a security id`);
    }
    await this.modelGate(principal, modelId);
    const target = (await this.repository.modelTargets(firmId, modelId)).find((t) => t.productId === assetId);
    if (!target) throw notFound('security of the model', assetId);
    const members = [target.productId, ...target.equivalents];
    const prices = await this.repository.prices(firmId, members);
    // A page of the model's accounts at a time, answered as it is judged: a model may hold most of a
    // firm's accounts, and valuing them whole would hold the event loop for one long turn.
    const rows = pagesById((afterId, limit) => this.repository.rows(firmId, { modelId, skip: 0 }, afterId, limit, 0));
    return mapPages(rows, (page) => this.outOfBand(firmId, page, target, members, prices));
  }

  private async outOfBand(firmId: number, rows: Row[], target: ModelTarget, members: number[], prices: Map<number, number | null>): Promise<OutOfToleranceItem[]> {
    const values = await this.values(firmId, rows);
    const ids = rows.map((r) => r.id);
    const held = new Map<number, { shares: number; dollars: number }>();
    for (const p of await this.repository.positionsOf(firmId, ids, members)) {
      const now = held.get(p.account_id) ?? { shares: 0, dollars: 0 };
      const shares = Number(p.shares_micros) / 1e6;
      const unit = price(p.price_micros);
      held.set(p.account_id, { shares: now.shares + shares, dollars: now.dollars + (unit === null ? 0 : shares * unit) });
    }
    const pending = await this.pendingShares(firmId, ids);
    const out: OutOfToleranceItem[] = [];
    for (const row of rows) {
      const v = values.get(row.id)!;
      const investable = Math.max(v.total - v.setAside, 0);
      const { shares, dollars } = held.get(row.id) ?? { shares: 0, dollars: 0 };
      const current = pct(dollars, investable);
      if (current >= target.target - target.lower && current <= target.target + target.upper) continue;
      let pendingShares = 0;
      let pendingDollars = 0;
      for (const product of members) {
        const delta = pending.get(`${row.id}:${product}`) ?? 0;
        pendingShares += delta;
        pendingDollars += delta * (price(prices.get(product) ?? null) ?? 0);
      }
      const targetDollars = (investable * target.target) / 100;
      const postTradeDollars = dollars + pendingDollars;
      const unit = price(prices.get(target.productId) ?? null);
      out.push({
        accountId: row.id,
        accountName: row.name,
        accountNumber: row.number,
        targetInPercentage: target.target,
        currentInPercentage: current,
        postTradeInPercentage: pct(postTradeDollars, investable),
        differenceInPercentage: Math.round((current - target.target) * 1e4) / 1e4,
        currentInDollar: roundCents(dollars),
        postTradeInDollar: roundCents(postTradeDollars),
        differenceInDollar: roundCents(dollars - targetDollars),
        currentInShares: shares,
        postTradeInShares: Math.round((shares + pendingShares) * 1e6) / 1e6,
        differenceInShares: unit ? Math.round(((dollars - targetDollars) / unit) * 1e6) / 1e6 : 0,
      });
    }
    return out;
  }

  /** account:product → shares bought (+) or sold (−) by open orders. */
  private async pendingShares(firmId: number, accountIds: number[]) {
    const out = new Map<string, number>();
    for (const o of await this.repository.openOrders(firmId, accountIds)) {
      const key = `${o.account_id}:${o.product_id}`;
      const shares = Number(o.shares_micros) / 1e6;
      out.set(key, (out.get(key) ?? 0) + (o.side === 'Buy' ? shares : -shares));
    }
    return out;
  }

  private async row(firmId: number, id: number): Promise<Row> {
    const row = await this.repository.one(firmId, id);
    if (!row) throw notFound('account', id);
    return row;
  }
}
