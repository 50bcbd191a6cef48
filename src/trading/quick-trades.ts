import { roundCents, shareDecimals } from '../engine/index.js';
import type { Clock } from '../shared/clock.js';
import { validationFailed } from '../shared/errors.js';
import { centsToDollars, dollarsToCents, microsToPrice, microsToShares, priceToMicros, sharesToMicros } from '../shared/money.js';
import type { Principal } from '../auth/service.js';
import { TradeBlockRepository } from '../trade-blocks/repository.js';
import { tradeBlocksForEngine } from '../trade-blocks/engine-input.js';
import type { NewTrade } from './trade-writes-repository.js';
import type { QuickTradeRepository } from './quick-trade-repository.js';
import type { QuickTradeCheck, QuickTradeChecked, QuickTradeRequest } from './schemas.js';
import { isStorableId } from '../shared/ids.js';

type Product = { id: number; ticker: string; type: string; price_micros: number | null; allows_fractional: number };

const truncate = (value: number, decimals: number) => Math.floor(value * 10 ** decimals + 1e-9) / 10 ** decimals;

/**
 * Section 4.5: externally generated trades are validated item by item (isValid and message), and
 * stored in a trade instance only when every item passes a second validation at submission.
 */
export class QuickTradeService {
  constructor(
    private readonly repository: QuickTradeRepository,
    private readonly blocks: TradeBlockRepository,
    private readonly clock: Clock,
  ) {}

  async validate(firmId: number, items: QuickTradeCheck[]): Promise<QuickTradeChecked[]> {
    // Each item is judged on its own (section 2.11): an id no record can have is that item's error, not a query's.
    const accountIds = [...new Set(items.map((i) => i.accountId).filter(isStorableId))];
    const accounts = new Map((await this.repository.accountsByIds(firmId, accountIds)).map((a) => [a.id, a]));
    const tickers = [...new Set(items.map((i) => i.ticker.trim().toUpperCase()))];
    const products = new Map((await this.repository.productsOf(firmId, { tickers })).map((p) => [p.ticker, p]));
    const held = new Map<string, number>();
    for (const p of await this.repository.heldShares(firmId, [...accounts.keys()])) held.set(`${p.account_id}:${p.product_id}`, p.shares_micros);
    const blocked = await tradeBlocksForEngine(this.blocks, firmId, [...accounts.keys()], this.clock.now().toISOString().slice(0, 10));

    // Cash each account has left for buys: custodial cash plus the proceeds of the list's valid sells.
    const checked = items.map((item) => this.check(item, accounts, products, held, blocked));
    const available = new Map<number, number>();
    for (const [id, account] of accounts) available.set(id, account.cash_cents);
    for (const c of checked) if (c.isValid && c.side === '2') available.set(c.accountId, (available.get(c.accountId) ?? 0) + dollarsToCents(c.dollars ?? 0));
    for (const c of checked) {
      if (!c.isValid || c.side !== '1') continue;
      const left = available.get(c.accountId) ?? 0;
      const cost = dollarsToCents(c.dollars ?? 0);
      if (cost > left) {
        c.isValid = false;
        c.message = `cash overspent: this buy of $${centsToDollars(cost).toFixed(2)} exceeds the $${centsToDollars(Math.max(left, 0)).toFixed(2)} left in the account`;
      } else {
        available.set(c.accountId, left - cost);
      }
    }
    return checked;
  }

  private check(
    item: QuickTradeCheck,
    accounts: Map<number, { id: number; number: string; cash_cents: number }>,
    products: Map<string, Product>,
    held: Map<string, number>,
    blocked: Map<number, { reason: string }[]>,
  ): QuickTradeChecked {
    const account = accounts.get(item.accountId);
    const product = products.get(item.ticker.trim().toUpperCase());
    const action = item.action.trim().toUpperCase();
    const side = action === 'BUY' ? '1' : action === 'SELL' ? '2' : null;
    const hasDollars = item.dollars !== undefined && item.dollars !== null;
    const hasShares = item.shares !== undefined && item.shares !== null;
    const price = product?.price_micros ? microsToPrice(product.price_micros) : null;
    const out: QuickTradeChecked = {
      ...item,
      accountNumber: account?.number ?? null,
      productId: product?.id ?? null,
      dollars: hasDollars ? item.dollars! : null,
      shares: hasShares ? item.shares! : null,
      isValid: false,
      message: '',
      tradeType: hasDollars && !hasShares ? 'Dollars' : hasShares && !hasDollars ? 'Shares' : null,
      navPrice: price,
      side,
      amount: hasDollars && !hasShares ? item.dollars! : hasShares && !hasDollars ? item.shares! : null,
    };
    const problem = (() => {
      if (!account) return `account ${item.accountId} not found`;
      if (!product) return `security ${item.ticker} not found`;
      if (!side) return `action must be BUY or SELL, got "${item.action}"`;
      if (hasDollars === hasShares) return 'give exactly one of dollars or shares';
      const amount = (hasDollars ? item.dollars : item.shares)!;
      if (!(amount > 0)) return `${hasDollars ? 'dollars' : 'shares'} must be greater than 0`;
      if (price === null) return `no price is available for ${product.ticker}`;
      const block = blocked.get(account.id)?.[0];
      if (block) return `account ${account.number} is trade-blocked (${block.reason})`;
      const decimals = shareDecimals({ id: product.id, ticker: product.ticker, type: product.type as never, price, fractionalShares: product.allows_fractional === 1 }, 'Default');
      const shares = hasShares ? amount : truncate(amount / price, decimals);
      if (hasShares && truncate(shares, decimals) !== shares) return `${product.ticker} trades in ${decimals === 0 ? 'whole shares' : `at most ${decimals} decimals`}`;
      if (shares <= 0) return `$${amount} buys less than one tradable unit of ${product.ticker} at $${price}`;
      if (side === '2' && sharesToMicros(shares) > (held.get(`${account.id}:${product.id}`) ?? 0)) {
        return `sell of ${shares} ${product.ticker} exceeds the ${microsToShares(held.get(`${account.id}:${product.id}`) ?? 0)} shares held`;
      }
      out.shares = shares;
      out.dollars = hasDollars ? amount : roundCents(shares * price);
      return '';
    })();
    out.message = problem;
    out.isValid = problem === '';
    return out;
  }

  /** Re-validates the submitted trades; a bad item is a 400 listing every bad item, and nothing is stored. */
  async submit(principal: Principal, request: QuickTradeRequest): Promise<number> {
    const products = new Map((await this.repository.productsOf(principal.firmId, { ids: [...new Set(request.trades.map((t) => t.productId))] })).map((p) => [p.id, p]));
    const checks: QuickTradeCheck[] = request.trades.map((t) => ({
      accountId: t.accountId,
      ticker: products.get(t.productId)?.ticker ?? `#${t.productId}`,
      action: t.side === '1' ? 'BUY' : 'SELL',
      ...(t.tradeType === 'Dollars' ? { dollars: t.amount } : { shares: t.amount }),
    }));
    const checked = await this.validate(principal.firmId, checks);
    const problems = checked.flatMap((c, i) => (c.isValid ? [] : [{ field: `trades[${i}]`, message: c.message.replace(/^security #(\d+) not found$/, 'product $1 not found') }]));
    if (problems.length > 0) throw validationFailed(problems);
    const trades: NewTrade[] = checked.map((c, i) => ({
      accountId: c.accountId,
      productId: c.productId!,
      side: c.side === '1' ? 'Buy' : 'Sell',
      tradeType: request.trades[i]!.tradeType,
      sharesMicros: sharesToMicros(c.shares!),
      amountCents: dollarsToCents(c.dollars!),
      priceMicros: priceToMicros(c.navPrice!),
      reason: `quick trade: ${c.action.toUpperCase()} ${request.trades[i]!.tradeType === 'Dollars' ? `$${c.dollars}` : `${c.shares} shares`} of ${c.ticker.toUpperCase()}`,
    }));
    const { batchId } = await this.repository.storeQuickTrades({
      firmId: principal.firmId,
      userId: principal.userId,
      userName: principal.userName,
      notes: request.notes ?? null,
      request: JSON.stringify(request),
      trades,
      now: this.clock.now().toISOString(),
    });
    return batchId;
  }
}
