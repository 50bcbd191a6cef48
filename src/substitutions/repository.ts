import type { Kysely, Transaction } from 'kysely';
import { locksRows } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import type { SubstitutionRow } from './rules.js';

export interface SubstitutionFilter {
  accountId?: number;
  productId?: number;
  substituteProductId?: number;
  scope?: 'Firm' | 'Account';
  top?: number;
  skip: number;
}

export interface StoredSubstitution extends SubstitutionRow {
  readonly id: number;
  readonly productTicker: string;
  readonly substituteTicker: string;
  readonly accountNumber: string | null;
}

/** The firm's product substitutions. Scoped by firm_id. */
export class SubstitutionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  transaction<T>(work: (repository: SubstitutionRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx: Transaction<Database>) => work(new SubstitutionRepository(trx)));
  }

  /**
   * Serializes the firm's substitution writes (PostgreSQL; SQLite has one writer at a time), so
   * two writers cannot each pass the chain check against rows without the other's. `for no key
   * update` leaves the firm row's foreign-key checks (every insert of the firm's rows) unblocked.
   */
  async lockFirm(firmId: number): Promise<void> {
    if (!locksRows(this.db)) return;
    await this.db.selectFrom('firms').select('id').where('id', '=', firmId).forNoKeyUpdate().executeTakeFirst();
  }

  private listed(firmId: number, filter: Omit<SubstitutionFilter, 'top' | 'skip'>) {
    return this.db
      .selectFrom('product_substitutions as s')
      .where('s.firm_id', '=', firmId)
      .$if(filter.accountId !== undefined, (q) => q.where('s.account_id', '=', filter.accountId as number))
      .$if(filter.productId !== undefined, (q) => q.where('s.product_id', '=', filter.productId as number))
      .$if(filter.substituteProductId !== undefined, (q) => q.where('s.substitute_product_id', '=', filter.substituteProductId as number))
      .$if(filter.scope === 'Firm', (q) => q.where('s.account_id', 'is', null))
      .$if(filter.scope === 'Account', (q) => q.where('s.account_id', 'is not', null));
  }

  private withNames(firmId: number, ids: number[]) {
    return this.db
      .selectFrom('product_substitutions as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .innerJoin('products as q', 'q.id', 's.substitute_product_id')
      .leftJoin('accounts as a', 'a.id', 's.account_id')
      .select(['s.id', 's.account_id', 's.product_id', 's.substitute_product_id', 'p.ticker as product_ticker', 'q.ticker as substitute_ticker', 'a.number as account_number'])
      .where('s.firm_id', '=', firmId)
      .where('s.id', 'in', ids)
      .orderBy('s.id')
      .execute();
  }

  /** A page in id order and the number of matches before paging. */
  async page(firmId: number, filter: SubstitutionFilter): Promise<{ rows: StoredSubstitution[]; total: number }> {
    const counted = await this.listed(firmId, filter).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    let ids = this.listed(firmId, filter).select('s.id').orderBy('s.id');
    // SQLite takes no offset without a limit.
    if (filter.top !== undefined || filter.skip > 0) ids = ids.limit(filter.top ?? Number.MAX_SAFE_INTEGER).offset(filter.skip);
    const page = (await ids.execute()).map((r) => r.id);
    return { rows: await this.named(firmId, page), total: Number(counted.n) };
  }

  async one(firmId: number, id: number): Promise<StoredSubstitution | undefined> {
    return (await this.named(firmId, [id]))[0];
  }

  private async named(firmId: number, ids: number[]): Promise<StoredSubstitution[]> {
    const out: StoredSubstitution[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of await this.withNames(firmId, ids.slice(i, i + 1000))) {
        out.push({ id: r.id, accountId: r.account_id, productId: r.product_id, substituteProductId: r.substitute_product_id, productTicker: r.product_ticker, substituteTicker: r.substitute_ticker, accountNumber: r.account_number });
      }
    }
    return out;
  }

  /**
   * What checking a new row needs of the stored ones (rules.ts): the firm-wide rows, and the
   * account rows that could collide with it: the account's own for an account row; for a firm
   * row those that substitute its product or its substitute, or end on its product.
   */
  async neighbours(firmId: number, row: SubstitutionRow): Promise<SubstitutionRow[]> {
    const { accountId, productId, substituteProductId } = row;
    const rows = await this.db
      .selectFrom('product_substitutions')
      .select(['id', 'account_id', 'product_id', 'substitute_product_id'])
      .where('firm_id', '=', firmId)
      .where((eb) =>
        accountId === null
          ? eb.or([eb('account_id', 'is', null), eb('product_id', 'in', [productId, substituteProductId]), eb('substitute_product_id', '=', productId)])
          : eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]),
      )
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, productId: r.product_id, substituteProductId: r.substitute_product_id }));
  }

  /** Every substitution of the firm, for an import's checks. */
  async all(firmId: number): Promise<SubstitutionRow[]> {
    const rows = await this.db.selectFrom('product_substitutions').select(['id', 'account_id', 'product_id', 'substitute_product_id']).where('firm_id', '=', firmId).orderBy('id').execute();
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, productId: r.product_id, substituteProductId: r.substitute_product_id }));
  }

  /** product id → ticker, for the given products of the firm (others are absent). */
  async tickers(firmId: number, ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (ids.length === 0) return out;
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.db.selectFrom('products').select(['id', 'ticker']).where('firm_id', '=', firmId).where('id', 'in', ids.slice(i, i + 1000)).execute();
      for (const r of rows) out.set(r.id, r.ticker);
    }
    return out;
  }

  /** account id → number, for the given accounts of the firm (others are absent). */
  async accountNumbers(firmId: number, ids: number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.db.selectFrom('accounts').select(['id', 'number']).where('firm_id', '=', firmId).where('id', 'in', ids.slice(i, i + 1000)).execute();
      for (const r of rows) out.set(r.id, r.number);
    }
    return out;
  }

  async insert(firmId: number, row: SubstitutionRow): Promise<number> {
    const inserted = await this.db
      .insertInto('product_substitutions')
      .values({ firm_id: firmId, account_id: row.accountId, product_id: row.productId, substitute_product_id: row.substituteProductId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  async insertMany(firmId: number, rows: readonly SubstitutionRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500) {
      const part = rows.slice(i, i + 500);
      await this.db
        .insertInto('product_substitutions')
        .values(part.map((row) => ({ firm_id: firmId, account_id: row.accountId, product_id: row.productId, substitute_product_id: row.substituteProductId })))
        .execute();
    }
  }

  /** Whether a row was removed. */
  async remove(firmId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('product_substitutions').where('firm_id', '=', firmId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
