import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { TestContext } from '../../../test/support/app.js';
import { createProduct } from '../../../test/support/rebalancer.js';

const audit = () => {
  const now = new Date().toISOString();
  return { created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' };
};
let sequence = 0;

export interface SleeveBook {
  products: { VTI: number; BND: number; VXUS: number; IEFA: number };
  /** 95% VTI (±3), 5% cash; and 95% BND (±3), 5% cash. */
  growth: number;
  income: number;
  /** A household registration holding `accounts` plain accounts (each with $1,000 cash). */
  registration(accounts?: number): Promise<{ registrationId: number; accountIds: number[]; numbers: string[] }>;
}

/** Rows written straight to the tables: priced products, two models, and registrations on demand. */
export async function createSleeveBook(db: Kysely<Database>, firmId: number, representativeId: number): Promise<SleeveBook> {
  const products = {
    VTI: (await createProduct(db, firmId, 200)).id,
    BND: (await createProduct(db, firmId, 80)).id,
    VXUS: (await createProduct(db, firmId, 60)).id,
    IEFA: (await createProduct(db, firmId, 70)).id,
  };
  const model = async (name: string, productId: number) => {
    const row = await db
      .insertInto('models')
      .values({ firm_id: firmId, name: `${name} ${firmId}-${++sequence}`, description: null, cash_target_pct: 5, cash_lower_pct: 0, cash_upper_pct: 2, is_active: 1, ...audit() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('model_allocations').values({ firm_id: firmId, model_id: row.id, product_id: productId, target_pct: 95, lower_pct: 3, upper_pct: 3 }).execute();
    return row.id;
  };
  const growth = await model('Growth', products.VTI);
  const income = await model('Income', products.BND);
  return {
    products,
    growth,
    income,
    async registration(accounts = 1) {
      const tag = `${firmId}-${++sequence}`;
      const client = await db.insertInto('clients').values({ firm_id: firmId, representative_id: representativeId, name: `Household ${tag}`, notes: null, ...audit() }).returning('id').executeTakeFirstOrThrow();
      const registration = await db
        .insertInto('registrations')
        .values({ firm_id: firmId, client_id: client.id, name: `Joint ${tag}`, type: 'Joint', is_sleeved: 0, do_not_trade: 0, ...audit() })
        .returning('id')
        .executeTakeFirstOrThrow();
      const accountIds: number[] = [];
      const numbers: string[] = [];
      for (let i = 1; i <= accounts; i++) {
        const number = `SLV${tag}-${i}`;
        const row = await db
          .insertInto('accounts')
          .values({ firm_id: firmId, registration_id: registration.id, number, name: `Account ${tag}-${i}`, custodian: 'Schwab', model_id: null, cash_cents: 100_000, is_trading_blocked: 0, restricted_plan_id: null, is_active: 1, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, ...audit() })
          .returning('id')
          .executeTakeFirstOrThrow();
        accountIds.push(row.id);
        numbers.push(number);
      }
      return { registrationId: registration.id, accountIds, numbers };
    },
  };
}

export type Caller = 'admin' | 'advisor' | 'reader' | 'api' | 'nobody';

/** `call(method, url, payload?, user?, of?)` with a platform session of that user. */
export function caller(t: TestContext) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, user: Caller = 'advisor', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
}

/** The fields of a 400 problem document. */
export const fieldsOf = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((e) => e.field);
