import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.js';
import { DEFAULT_ROLES } from '../../src/auth/privileges.js';
import { digest, hashPassword } from '../../src/auth/secrets.js';
import { systemReasonRows } from '../../src/seed/reasons.js';

export interface TestFirm {
  firmId: number;
  clientId: number;
  clientSecret: string;
  /** user name by role: admin, advisor, reader, api, service, nobody (a role without privileges) */
  users: Record<'admin' | 'advisor' | 'reader' | 'api' | 'service' | 'nobody', { userName: string; password: string; id: number }>;
  representativeId: number;
  modelId: number;
}

const ROLE_OF = {
  admin: 'Administrator',
  advisor: 'Advisor',
  reader: 'Read Only',
  api: 'API Integration',
  service: 'Rebalancer Service',
  nobody: 'No Privileges',
} as const;

let passwordHash: Promise<string> | undefined;

/** A firm with one user per role, a partner app, a broker/dealer, a representative and a model. */
export async function createTestFirm(db: Kysely<Database>, code: string): Promise<TestFirm> {
  const now = new Date().toISOString();
  const password = 'correct horse battery staple';
  passwordHash ??= hashPassword(password);
  const hash = await passwordHash;
  const firm = await db
    .insertInto('firms')
    .values({ name: `Firm ${code}`, code, multi_trade_block: 1, trade_block_dates: 1, trade_block_custom_types: 0, default_asset_values: 'PendingTransactionsAndOrders', created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const firmId = firm.id;
  // As the seed does: a firm has its system trade-block reasons from the start (spec 2.5).
  await db
    .insertInto('trade_block_reasons')
    .values(systemReasonRows().map((r) => ({ ...r, global_id: crypto.randomUUID(), firm_id: firmId, created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' })))
    .execute();
  const roleIds: Record<string, number> = {};
  for (const [name, privileges] of Object.entries({ ...DEFAULT_ROLES, 'No Privileges': [] })) {
    const role = await db.insertInto('roles').values({ firm_id: firmId, name }).returning('id').executeTakeFirstOrThrow();
    roleIds[name] = role.id;
    if (privileges.length > 0) {
      await db.insertInto('role_privileges').values(privileges.map((privilege) => ({ firm_id: firmId, role_id: role.id, privilege }))).execute();
    }
  }
  const users = {} as TestFirm['users'];
  for (const [key, role] of Object.entries(ROLE_OF) as [keyof typeof ROLE_OF, string][]) {
    const userName = `${key}@${code}`;
    const kind = key === 'api' ? 'api' : key === 'service' ? 'service' : 'user';
    const user = await db
      .insertInto('users')
      .values({ firm_id: firmId, user_name: userName, display_name: userName, email: null, kind, password_hash: hash, role_id: roleIds[role]!, is_active: 1, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    users[key] = { userName, password, id: user.id };
  }
  const clientSecret = crypto.randomUUID();
  const app = await db
    .insertInto('partner_apps')
    .values({ firm_id: firmId, name: `Partner of ${code}`, client_secret_hash: digest(clientSecret), redirect_uris: JSON.stringify([`https://partner.example/${code}/callback`]), access_token_ttl_seconds: 36000, refresh_token_ttl_seconds: 375 * 86400, is_active: 1, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const audit = { created_at: now, created_by: 'test', edited_at: now, edited_by: 'test' };
  const bd = await db.insertInto('broker_dealers').values({ firm_id: firmId, name: 'Test BD', code: 'BD', is_active: 1 }).returning('id').executeTakeFirstOrThrow();
  const rep = await db
    .insertInto('representatives')
    .values({ firm_id: firmId, broker_dealer_id: bd.id, first_name: 'Ada', last_name: 'Lovelace', name: 'Ada Lovelace', number: `R-${code}`, email: null, is_active: 1, details: '{}', ...audit })
    .returning('id')
    .executeTakeFirstOrThrow();
  const model = await db
    .insertInto('models')
    .values({ firm_id: firmId, name: `Balanced ${code}`, description: null, cash_target_pct: 2, cash_lower_pct: 1, cash_upper_pct: 1, is_active: 1, ...audit })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { firmId, clientId: app.id, clientSecret, users, representativeId: rep.id, modelId: model.id };
}
