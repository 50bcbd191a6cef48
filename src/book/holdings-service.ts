import { type FieldProblem, notFound, validationFailed } from '../shared/errors.js';
import { centsToDollars, dollarsToCents, marketValueCents, microsToPrice, microsToShares, priceToMicros, sharesToMicros } from '../shared/money.js';
import type { BookRepository } from './repository.js';
import type { PositionInput, PositionRecord, PriceInput, PriceRecord } from './schemas.js';

/** An account's positions with tax lots, and product prices. */
export class HoldingsService {
  constructor(private readonly repository: BookRepository) {}

  async positions(firmId: number, accountId: number): Promise<PositionRecord[]> {
    if (!(await this.repository.find('accounts', firmId, accountId))) throw notFound('account', accountId);
    return this.withLots(await this.repository.positionsOf(firmId, accountId));
  }

  /** A page of the account's positions in ticker order, with how many it holds (one account's rows: always counted). */
  async positionsPage(firmId: number, accountId: number, page: { top: number; skip: number }): Promise<{ items: PositionRecord[]; total: number }> {
    if (!(await this.repository.find('accounts', firmId, accountId))) throw notFound('account', accountId);
    const { rows, total } = await this.repository.positionsPageOf(firmId, accountId, page);
    return { items: await this.withLots(rows), total };
  }

  private async withLots(positions: Awaited<ReturnType<BookRepository['positionsOf']>>): Promise<PositionRecord[]> {
    const lots = await this.repository.lotsOf(positions.map((p) => p.id));
    return positions.map((p) => {
      const shares = microsToShares(p.shares_micros);
      const price = p.price_micros === null ? null : microsToPrice(p.price_micros);
      return {
        id: p.id,
        accountId: p.account_id,
        productId: p.product_id,
        ticker: p.ticker,
        shares,
        costBasis: centsToDollars(p.cost_cents),
        price,
        marketValue: price === null ? null : centsToDollars(marketValueCents(p.shares_micros, p.price_micros!)),
        taxLots: lots
          .filter((lot) => lot.position_id === p.id)
          .map((lot) => ({
            id: lot.id,
            shares: microsToShares(lot.shares_micros),
            costBasis: centsToDollars(lot.cost_cents),
            acquiredDate: lot.acquired_date,
          })),
      };
    });
  }

  /** Replaces the account's holdings whole; lots, when given, must add up to the position. */
  async replacePositions(firmId: number, accountId: number, input: PositionInput[]): Promise<PositionRecord[]> {
    if (!(await this.repository.find('accounts', firmId, accountId))) throw notFound('account', accountId);
    const problems: FieldProblem[] = [];
    const productIds = [...new Set(input.map((p) => p.productId))];
    const known = await this.repository.existingIds('products', firmId, productIds);
    const seen = new Set<number>();
    const rows = input.map((position, index) => {
      const at = (field: string) => `[${index}].${field}`;
      if (!known.has(position.productId)) problems.push({ field: at('productId'), message: `product ${position.productId} does not exist` });
      if (seen.has(position.productId)) problems.push({ field: at('productId'), message: `product ${position.productId} is listed twice` });
      seen.add(position.productId);
      const lots = (position.taxLots ?? []).map((lot) => ({
        sharesMicros: sharesToMicros(lot.shares),
        costCents: dollarsToCents(lot.costBasis),
        acquiredDate: lot.acquiredDate,
      }));
      const sharesMicros = sharesToMicros(position.shares);
      const lotShares = lots.reduce((sum, lot) => sum + lot.sharesMicros, 0);
      const lotCost = lots.reduce((sum, lot) => sum + lot.costCents, 0);
      if (lots.length > 0 && lotShares !== sharesMicros) {
        problems.push({ field: at('shares'), message: `must equal the sum of its tax lots (${microsToShares(lotShares)})` });
      }
      if (lots.length > 0 && position.costBasis !== undefined && dollarsToCents(position.costBasis) !== lotCost) {
        problems.push({ field: at('costBasis'), message: `must equal the sum of its tax lots (${centsToDollars(lotCost)})` });
      }
      const costCents = position.costBasis !== undefined ? dollarsToCents(position.costBasis) : lotCost;
      return { productId: position.productId, sharesMicros, costCents, lots };
    });
    if (problems.length > 0) {
      throw validationFailed(problems);
    }
    await this.repository.transaction((repository) => repository.replacePositions(firmId, accountId, rows));
    return this.positions(firmId, accountId);
  }

  async prices(firmId: number, productId: number, page: { top: number; skip: number }): Promise<{ items: PriceRecord[]; total: number }> {
    if (!(await this.repository.find('products', firmId, productId))) throw notFound('product', productId);
    const { rows, total } = await this.repository.pricesOf(firmId, productId, page);
    return { items: rows.map((r) => ({ date: r.price_date, price: microsToPrice(r.price_micros) })), total };
  }

  async recordPrices(firmId: number, input: PriceInput[]): Promise<{ stored: number }> {
    const known = await this.repository.existingIds('products', firmId, [...new Set(input.map((p) => p.productId))]);
    const problems = input.flatMap((price, index) =>
      known.has(price.productId) ? [] : [{ field: `[${index}].productId`, message: `product ${price.productId} does not exist` }],
    );
    if (problems.length > 0) {
      throw validationFailed(problems);
    }
    // Oldest first, so the product's latest price ends at the newest date of the batch.
    const ordered = [...input].sort((a, b) => a.date.localeCompare(b.date));
    await this.repository.transaction(async (repository) => {
      for (const price of ordered) await repository.upsertPrice(firmId, price.productId, price.date, priceToMicros(price.price));
    });
    return { stored: input.length };
  }
}
