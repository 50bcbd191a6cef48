import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { TestContext } from '../../test/support/app.js';

export interface SmallBook {
  sleeved: number;
  plain: number;
  /** Accounts of the sleeved registration. */
  sleeveAccounts: [number, number];
  /** Account of the plain registration. */
  account: number;
}

let counter = 0;

/** A household with a sleeved registration (two accounts) and a plain one (one account). */
export async function createSmallBook(db: Kysely<Database>, firmId: number, representativeId: number): Promise<SmallBook> {
  const now = new Date().toISOString();
  const audit = { created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' };
  const client = await db.insertInto('clients').values({ firm_id: firmId, representative_id: representativeId, name: 'The Blocks', notes: null, ...audit }).returning('id').executeTakeFirstOrThrow();
  const registration = (name: string, sleeved: 0 | 1) =>
    db
      .insertInto('registrations')
      .values({ firm_id: firmId, client_id: client.id, name, type: 'Joint', is_sleeved: sleeved, do_not_trade: 0, ...audit })
      .returning('id')
      .executeTakeFirstOrThrow();
  const sleeved = await registration('Sleeved Joint', 1);
  const plain = await registration('Plain IRA', 0);
  const account = async (registrationId: number, name: string) => {
    counter++;
    const row = await db
      .insertInto('accounts')
      .values({ firm_id: firmId, registration_id: registrationId, number: `TB-${firmId}-${counter}-${Math.random().toString(36).slice(2, 8)}`, name, custodian: 'Schwab', model_id: null, cash_cents: 0, is_trading_blocked: 0, restricted_plan_id: null, is_active: 1, sleeve_type: null, sleeve_target_pct: null, sleeve_tolerance_lower: null, sleeve_tolerance_upper: null, ...audit })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  return {
    sleeved: sleeved.id,
    plain: plain.id,
    sleeveAccounts: [await account(sleeved.id, 'Sleeve A'), await account(sleeved.id, 'Sleeve B')],
    account: await account(plain.id, 'Plain IRA account'),
  };
}

export type Caller = 'admin' | 'advisor' | 'reader' | 'api' | 'service' | 'nobody';

/** `call(method, url, payload?, user?, of?)` with a platform session of that user. */
export function caller(t: TestContext) {
  return async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, user: Caller = 'advisor', of: 'firm' | 'otherFirm' = 'firm') =>
    t.app.inject({ method, url, payload: payload as object, headers: { authorization: await t.session(user, of) } });
}

export const block = (entityId: number, overrides: Record<string, unknown> = {}) => ({
  id: 0,
  entityEnum: 7,
  entityId,
  tradeBlockReasonId: 0,
  description: 'Client asked to hold',
  startDate: '2026-01-01',
  ...overrides,
});

/** The id of a reason by name, from the full list. */
export async function reasonId(call: ReturnType<typeof caller>, name: string): Promise<number> {
  const reasons = (await call('GET', '/api/v1/Trading/TradeBlocks/Reasons')).json<{ id: number; name: string }[]>();
  const found = reasons.find((r) => r.name === name);
  if (!found) throw new Error(`no reason ${name}`);
  return found.id;
}

/** Waits until `check` passes (the dispatcher delivers in the background). */
export async function eventually(check: () => Promise<void>, timeoutMs = 5000) {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
