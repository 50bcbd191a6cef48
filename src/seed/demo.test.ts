import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { STATEMENT_CHECKED_KEYS } from '../db/migrations/0032_statement_checked_keys.js';
import { TAX_SUMMARY_KEYS } from '../db/migrations/0034_tax_summary_keys_by_statement.js';
import { KEY_COMMENT, type StatementCheckedKey } from '../db/migrations/statement-checked-keys.js';
import { DEFAULT_ROLES } from '../auth/privileges.js';
import { digest, verifyPassword } from '../auth/secrets.js';
import { definitionOf, valueProblem } from '../book/custom-fields/rules.js';
import { type DemoCredentials, seedDemoFirm } from './demo.js';
import { mayWriteUncheckedKeys } from './repository.js';
import { describeEachDatabase, testDatabases } from '../../test/support/databases.js';
import { staleLotTexts } from '../db/position-lots.js';

const SEED = { households: 60, seed: 11, asOf: '2025-06-30', chunkSize: 25 };
const FIRM_TABLES = [
  'roles', 'role_privileges', 'users', 'partner_apps', 'broker_dealers', 'representatives', 'clients', 'registrations',
  'accounts', 'products', 'product_prices', 'positions', 'tax_lots', 'pending_transactions', 'models',
  'model_allocations', 'model_equivalents', 'model_aggs', 'model_agg_models', 'teams', 'team_users', 'model_teams',
  'trade_groups', 'trade_group_accounts', 'product_substitutions', 'user_defined_definitions', 'user_defined_values', 'sleeve_registrations',
] as const;
/** Tables whose content is a function of the seed alone (users and partners carry fresh secrets). */
const BOOK_TABLES = FIRM_TABLES.filter((t) => !['users', 'partner_apps'].includes(t));

async function dump(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of BOOK_TABLES) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(db.kysely);
    // Order by every column so that tables without ids compare too.
    out[table] = rows.map((r) => JSON.stringify(Object.entries(r).sort(([a], [b]) => a.localeCompare(b)))).sort();
  }
  return out;
}

describeEachDatabase('seedDemoFirm', (dialect) => {
  let target: { db: Db; drop(): Promise<void> };
  let db: Db;
  let credentials: DemoCredentials;

  beforeAll(async () => {
    target = await dialect.open();
    db = target.db;
    credentials = await seedDemoFirm(db, SEED);
  });
  afterAll(() => target?.drop());

  it('returns credentials of one user of each kind that verify against the stored hashes', async () => {
    expect(credentials.firm).toMatchObject({ code: 'DEMO', id: expect.any(Number) });
    expect(credentials.users.map((u) => [u.kind, u.role])).toEqual([
      ['user', 'Administrator'],
      ['user', 'Read Only'],
      ['user', 'Advisor'],
      ['api', 'API Integration'],
      ['service', 'Rebalancer Service'],
    ]);
    for (const user of credentials.users) {
      const row = await db.kysely
        .selectFrom('users')
        .innerJoin('roles', 'roles.id', 'users.role_id')
        .select(['users.password_hash', 'users.kind', 'users.firm_id', 'roles.name as role'])
        .where('users.user_name', '=', user.userName)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ kind: user.kind, role: user.role, firm_id: credentials.firm.id });
      expect(await verifyPassword(row.password_hash, user.password)).toBe(true);
      expect(user.password.length).toBeGreaterThanOrEqual(20);
    }
    const partner = await db.kysely
      .selectFrom('partner_apps')
      .selectAll()
      .where('id', '=', credentials.partner.clientId)
      .executeTakeFirstOrThrow();
    expect(partner.client_secret_hash).toBe(digest(credentials.partner.clientSecret));
    expect(JSON.parse(partner.redirect_uris)).toEqual(credentials.partner.redirectUris);
    // The service's own code page, so the flow can be tried without a client of one's own.
    expect(credentials.partner.redirectUris).toEqual(['http://localhost:8080/api/oauth/callback']);
  });

  it('gives the firm the default roles and their privileges', async () => {
    const rows = await db.kysely
      .selectFrom('role_privileges')
      .innerJoin('roles', 'roles.id', 'role_privileges.role_id')
      .select(['roles.name', 'role_privileges.privilege'])
      .execute();
    const byRole: Record<string, string[]> = {};
    for (const r of rows) (byRole[r.name] ??= []).push(r.privilege);
    for (const [role, privileges] of Object.entries(DEFAULT_ROLES)) expect(byRole[role]?.sort()).toEqual([...privileges].sort());
  });

  it('writes every row with the firm id and the seed audit fields', async () => {
    for (const table of FIRM_TABLES) {
      const { rows } = await sql<{ firm_id: number; n: number }>`
        select firm_id, count(*) as n from ${sql.table(table)} group by firm_id`.execute(db.kysely);
      expect(rows.map((r) => Number(r.firm_id)), table).toEqual([credentials.firm.id]);
    }
    const audited = await db.kysely.selectFrom('accounts').select(['created_by', 'edited_by', 'created_at']).distinct().execute();
    expect(audited).toEqual([{ created_by: 'seed', edited_by: 'seed', created_at: '2025-06-30T00:00:00.000Z' }]);
    const count = await db.kysely.selectFrom('clients').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(SEED.households);
  });

  it('keeps lots summing exactly to their positions', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from positions p
      left join (select position_id, sum(shares_micros) as s, sum(cost_cents) as c, count(*) as k
                 from tax_lots group by position_id) l on l.position_id = p.id
      where l.k is null or l.k > 3 or l.s <> p.shares_micros or l.c <> p.cost_cents`.execute(db.kysely);
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it("writes each position's lot text as its lots say (db/position-lots.ts)", async () => {
    const texts = await db.kysely.selectFrom('positions').select('lots').where('lots', 'is not', null).execute();
    expect(texts.length).toBeGreaterThan(0);
    expect(await staleLotTexts(db.kysely)).toEqual([]);
  });

  it('carries lots for tax-aware rebalancing: short and long term, at gains and at losses, and share classes in one wash-sale group', async () => {
    const lots = await db.kysely
      .selectFrom('tax_lots as l')
      .innerJoin('positions as p', 'p.id', 'l.position_id')
      .innerJoin('products as x', 'x.id', 'p.product_id')
      .select(['l.shares_micros', 'l.cost_cents', 'l.acquired_date', 'x.price_micros'])
      .execute();
    const yearAgo = `${Number(SEED.asOf.slice(0, 4)) - 1}${SEED.asOf.slice(4)}`;
    const kinds = new Set(lots.map((l) => `${l.acquired_date > yearAgo ? 'short' : 'long'}-${Number(l.cost_cents) < ((Number(l.shares_micros) / 1e6) * Number(l.price_micros)) / 1e4 ? 'gain' : 'loss'}`));
    expect([...kinds].sort()).toEqual(['long-gain', 'long-loss', 'short-gain', 'short-loss']);
    const groups = await db.kysely.selectFrom('products').select(['ticker', 'wash_sale_group']).where('wash_sale_group', 'is not', null).orderBy('ticker').execute();
    expect(groups.map((g) => g.ticker)).toEqual(['BND', 'VBTLX', 'VTI', 'VTSAX']);
  });

  it('keeps model targets plus cash at 100 and sleeve targets at 100', async () => {
    const { rows: models } = await sql<{ name: string; total: number }>`
      select m.name, m.cash_target_pct + sum(a.target_pct) as total
      from models m join model_allocations a on a.model_id = m.id group by m.id, m.name, m.cash_target_pct`.execute(db.kysely);
    expect(models.length).toBeGreaterThanOrEqual(5);
    for (const m of models) expect(Number(m.total), m.name).toBeCloseTo(100, 9);
    const { rows: sleeves } = await sql<{ total: number; n: number }>`
      select sum(a.sleeve_target_pct) as total, count(*) as n from registrations r
      join accounts a on a.registration_id = r.id where r.is_sleeved = 1 group by r.id`.execute(db.kysely);
    for (const s of sleeves) {
      expect(Number(s.total)).toBe(100);
      expect(Number(s.n)).toBeGreaterThanOrEqual(3);
    }
  });

  it('prices every product with a history whose newest row is the product price', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from products p where p.price_micros is null or p.price_micros <> (
        select pp.price_micros from product_prices pp where pp.product_id = p.id order by pp.price_date desc limit 1)`.execute(
      db.kysely,
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('defines custom fields at every level, of every type, one only administrators may change, with valid values on many records', async () => {
    const firmId = credentials.firm.id;
    const definitions = (await db.kysely.selectFrom('user_defined_definitions').selectAll().where('firm_id', '=', firmId).execute()).map(definitionOf);
    expect(new Set(definitions.map((d) => d.entity))).toEqual(new Set(['Representative', 'Household', 'Registration', 'Account', 'Product']));
    expect(new Set(definitions.map((d) => d.type))).toEqual(new Set(['Text', 'Number', 'Date', 'List', 'Boolean']));
    expect(definitions.filter((d) => d.securityCode === 'platform.admin').map((d) => d.code)).toEqual(['COMPLIANCE_NOTE']);
    const TABLES = { Representative: 'representatives', Household: 'clients', Registration: 'registrations', Account: 'accounts', Product: 'products' } as const;
    for (const definition of definitions) {
      const values = await db.kysely.selectFrom('user_defined_values').select(['entity_id', 'value']).where('definition_id', '=', definition.id).execute();
      const table = TABLES[definition.entity as keyof typeof TABLES];
      const ids = new Set((await sql<{ id: number }>`select id from ${sql.table(table)} where firm_id = ${firmId}`.execute(db.kysely)).rows.map((r) => Number(r.id)));
      // Every value fits its definition and points at a record of the definition's level.
      expect(values.filter((v) => valueProblem(definition, v.value)), definition.code).toEqual([]);
      expect(values.every((v) => ids.has(v.entity_id)), definition.code).toBe(true);
      expect(new Set(values.map((v) => v.entity_id)).size, definition.code).toBe(values.length);
      if (definition.code !== 'COMPLIANCE_NOTE') expect(values.length / ids.size, definition.code).toBeGreaterThan(0.1);
    }
  });

  it('produces the same book as a fresh SQLite database seeded with the same seed', async () => {
    const fresh = await testDatabases()[0]!.open();
    try {
      await seedDemoFirm(fresh.db, { ...SEED, chunkSize: 7 });
      expect(await dump(db)).toEqual(await dump(fresh.db));
    } finally {
      await fresh.drop();
    }
  });

  it('refuses a firm code that is taken', async () => {
    await expect(seedDemoFirm(db, { ...SEED, households: 1 })).rejects.toThrow(/firm with code DEMO already exists/);
  });

  it('seeds a second firm beside the first without clashing', async () => {
    const second = await seedDemoFirm(db, { ...SEED, households: 5, firmCode: 'DEMO2', firmName: 'Second Demo' });
    expect(second.firm.id).not.toBe(credentials.firm.id);
    expect(second.users[0]?.userName).toBe('demo2.admin');
    const accounts = await db.kysely.selectFrom('accounts').select('firm_id').where('firm_id', '=', second.firm.id).execute();
    expect(accounts.length).toBeGreaterThanOrEqual(5);
  });
});

/**
 * Rows of any foreign key of the test's PostgreSQL schema whose parent does not exist (a key with a
 * null column is not checked, as PostgreSQL's MATCH SIMPLE does not check it).
 */
async function danglingReferences(db: Db): Promise<string[]> {
  const { rows: keys } = await sql<{ name: string; child: string; parent: string; child_columns: string[]; parent_columns: string[] }>`
    select c.conname as name, ch.relname as child, pa.relname as parent,
      array(select a.attname::text from unnest(c.conkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.o) as child_columns,
      array(select a.attname::text from unnest(c.confkey) with ordinality k(n, o) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.o) as parent_columns
    from pg_constraint c join pg_class ch on ch.oid = c.conrelid join pg_class pa on pa.oid = c.confrelid
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`.execute(db.kysely);
  // The keys checked by statement (migrations 0032 and 0034) are told by their triggers' comments.
  const { rows: described } = await sql<{ description: string }>`select d.description from pg_trigger t
    join pg_class c on c.oid = t.tgrelid join pg_description d on d.objoid = t.oid
    where c.relnamespace = current_schema()::regnamespace and d.description like ${`${KEY_COMMENT}%`}`.execute(db.kysely);
  for (const { description } of described) {
    const key = JSON.parse(description.slice(KEY_COMMENT.length)) as StatementCheckedKey;
    keys.push({ name: key.name, child: key.table, parent: key.parent, child_columns: key.columns, parent_columns: key.parentColumns });
  }
  expect(described.length).toBe(STATEMENT_CHECKED_KEYS.length + TAX_SUMMARY_KEYS.length);
  expect(keys.length).toBeGreaterThan(20);
  const found: string[] = [];
  for (const key of keys) {
    const set = sql.join(key.child_columns.map((c) => sql`x.${sql.ref(c)} is not null`), sql` and `);
    const match = sql.join(key.child_columns.map((c, i) => sql`p.${sql.ref(key.parent_columns[i]!)} = x.${sql.ref(c)}`), sql` and `);
    const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(key.child)} x
      where ${set} and not exists (select 1 from ${sql.table(key.parent)} p where ${match})`.execute(db.kysely);
    if (Number(rows[0]!.n) > 0) found.push(`${key.name}: ${rows[0]!.n} rows`);
  }
  return found;
}

describeEachDatabase('seedDemoFirm writes every profile whole', (dialect) => {
  // Chunks are written without the databases' per-row key checks (the generator resolves every
  // reference itself; on PostgreSQL when the role may): no reference may be left dangling.
  it.each(['demo', 'advisory', 'direct-indexing'] as const)('%s: no row points at a parent that does not exist, and the checks are back on', async (profile) => {
    const target = await dialect.open();
    try {
      const { firm } = await seedDemoFirm(target.db, { households: 12, seed: 4, asOf: '2025-06-30', chunkSize: 5, profile, firmCode: `FK${profile.length}` });
      const accounts = await target.db.kysely.selectFrom('accounts').select('id').where('firm_id', '=', firm.id).execute();
      expect(accounts.length).toBeGreaterThanOrEqual(12);
      expect(await staleLotTexts(target.db.kysely)).toEqual([]);
      if (profile === 'direct-indexing') {
        // Harvest replacements are written as the ids of the same firm's stocks of the same sector.
        const products = await target.db.kysely.selectFrom('products').select(['id', 'category', 'harvest_replacement_product_id']).where('firm_id', '=', firm.id).execute();
        const byId = new Map(products.map((p) => [p.id, p]));
        const named = products.filter((p) => p.harvest_replacement_product_id !== null);
        expect(named.length).toBeGreaterThan(400);
        for (const p of named) expect(byId.get(p.harvest_replacement_product_id!)?.category).toBe(p.category);
      }
      if (target.db.dialect === 'sqlite') {
        expect((await sql`pragma foreign_key_check`.execute(target.db.kysely)).rows).toEqual([]);
        expect((await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(target.db.kysely)).rows).toEqual([{ foreign_keys: 1 }]);
        return;
      }
      expect(await danglingReferences(target.db)).toEqual([]);
      // The check sees through a statement-checked key too: a lot planted without its position is found.
      const planted = await target.db.kysely
        .transaction()
        .execute(async (trx) => {
          await sql`set local session_replication_role = replica`.execute(trx);
          await sql`update tax_lots set position_id = -1 where id = (select min(id) from tax_lots)`.execute(trx);
          throw new Planted(await danglingReferences({ ...target.db, kysely: trx }));
        })
        .catch((e: unknown) => e);
      expect(planted).toMatchObject({ found: ['tax_lots_position_id_fkey: 1 rows'] });
      expect(await danglingReferences(target.db)).toEqual([]);
      // SET LOCAL ended with each chunk's transaction: the pool's connections check keys again.
      for (let i = 0; i < 4; i++) {
        const { rows } = await sql<{ session_replication_role: string }>`show session_replication_role`.execute(target.db.kysely);
        expect(rows).toEqual([{ session_replication_role: 'origin' }]);
      }
    } finally {
      await target.drop();
    }
  });

  it('writes with every key checked where the role may not switch the checks off', async () => {
    const target = await dialect.open();
    try {
      if (target.db.dialect === 'sqlite') {
        expect(await mayWriteUncheckedKeys(target.db.kysely)).toBe(true);
        return;
      }
      // The test connects as a superuser; a role made and dropped inside one rolled-back transaction stands for any other.
      const role = `wealth_seed_${process.pid}`;
      const answers = await target.db.kysely
        .transaction()
        .execute(async (trx) => {
          const asSuperuser = await mayWriteUncheckedKeys(trx);
          await sql`create role ${sql.id(role)} nologin`.execute(trx);
          await sql`set local role ${sql.id(role)}`.execute(trx);
          throw new Answers(asSuperuser, await mayWriteUncheckedKeys(trx));
        })
        .catch((answer: unknown) => answer);
      expect(answers).toBeInstanceOf(Answers);
      expect(answers).toMatchObject({ superuser: true, other: false });
    } finally {
      await target.drop();
    }
  });
});

/** Thrown to roll a planted dangling row back with what the check found. */
class Planted extends Error {
  constructor(readonly found: string[]) {
    super('rolled back on purpose');
  }
}

/** Thrown to roll the role's transaction back with what it learnt. */
class Answers extends Error {
  constructor(
    readonly superuser: boolean,
    readonly other: boolean,
  ) {
    super('rolled back on purpose');
  }
}
