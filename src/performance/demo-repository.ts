// Reads and writes of the demo firm's generated performance history (demo-history.ts).
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface DemoInputs {
  products: { id: number; isCash: boolean; priceMicros: number | null; prices: { date: string; micros: number }[] }[];
  accounts: { id: number; cashCents: number; positions: { productId: number; sharesMicros: number }[] }[];
}

const ROWS_PER_INSERT = 1_000;

export class DemoHistoryRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async inputs(firmId: number): Promise<DemoInputs> {
    const products = await this.db.selectFrom('products').select(['id', 'is_cash', 'price_micros']).where('firm_id', '=', firmId).orderBy('id').execute();
    const prices = await this.db.selectFrom('product_prices').select(['product_id', 'price_date', 'price_micros']).where('firm_id', '=', firmId).orderBy('product_id').orderBy('price_date').execute();
    const accounts = await this.db.selectFrom('accounts').select(['id', 'cash_cents']).where('firm_id', '=', firmId).where('is_active', '=', 1).orderBy('id').execute();
    const positions = await this.db.selectFrom('positions').select(['account_id', 'product_id', 'shares_micros']).where('firm_id', '=', firmId).orderBy('account_id').orderBy('product_id').execute();
    const byProduct = new Map<number, { date: string; micros: number }[]>();
    for (const p of prices) byProduct.set(p.product_id, [...(byProduct.get(p.product_id) ?? []), { date: p.price_date, micros: p.price_micros }]);
    const byAccount = new Map<number, { productId: number; sharesMicros: number }[]>();
    for (const p of positions) byAccount.set(p.account_id, [...(byAccount.get(p.account_id) ?? []), { productId: p.product_id, sharesMicros: p.shares_micros }]);
    return {
      products: products.map((p) => ({ id: p.id, isCash: p.is_cash === 1, priceMicros: p.price_micros, prices: byProduct.get(p.id) ?? [] })),
      accounts: accounts.map((a) => ({ id: a.id, cashCents: a.cash_cents, positions: byAccount.get(a.id) ?? [] })),
    };
  }

  async write(
    firmId: number,
    prices: { productId: number; date: string; micros: number }[],
    values: { accountId: number; date: string; valueCents: number; flowCents: number; feeCents: number }[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < prices.length; i += ROWS_PER_INSERT) {
        await trx
          .insertInto('product_prices')
          .values(prices.slice(i, i + ROWS_PER_INSERT).map((p) => ({ firm_id: firmId, product_id: p.productId, price_date: p.date, price_micros: p.micros })))
          .execute();
      }
      for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
        await trx
          .insertInto('account_values')
          .values(values.slice(i, i + ROWS_PER_INSERT).map((v) => ({
            firm_id: firmId, account_id: v.accountId, value_date: v.date,
            market_value_cents: v.valueCents, net_flow_cents: v.flowCents, fees_cents: v.feeCents, income_cents: 0,
          })))
          .execute();
      }
    });
  }
}
