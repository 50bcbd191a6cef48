import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { idChunks } from '../db/id-chunks.js';
import type { IdMap } from '../seed/repository.js';
import type { Entity } from './sources.js';

/**
 * Ids of one table as the writer sees them (seed/rows.ts): existing rows first, at the positions
 * they were loaded in, then the rows this import adds.
 */
export class Space {
  readonly ids: number[] = [];
  private readonly byId = new Map<number, number>();
  private added = 0;

  existing(id: number): number {
    const index = this.ids.length;
    this.ids.push(id);
    this.byId.set(id, index);
    return index;
  }

  indexOfId(id: number): number | undefined {
    return this.byId.get(id);
  }

  /** Index for a new row; only valid once every existing row has been loaded. */
  next(): number {
    return this.ids.length + this.added++;
  }
}

const key = (text: string) => text.trim().toLowerCase();

export interface LotRow {
  account: number;
  product: number;
  shares_micros: number;
  cost_cents: number;
  acquired_date: string;
  file: string;
  line: number;
}

/** The firm's existing keys plus those the import adds, so later entities can refer to both. */
export class Lookups {
  brokerDealers = new Space();
  brokerDealerByKey = new Map<string, number[]>();
  representatives = new Space();
  representativeByNumber = new Map<string, number>();
  products = new Space();
  productByTicker = new Map<string, { index: number; fractional: boolean }>();
  clients = new Space();
  clientByName = new Map<string, number[]>();
  registrations = new Space();
  registrationByClientAndName = new Map<string, number[]>();
  registrationSleeved = new Map<number, boolean>();
  /** Registration index -> client index, for checking that a named registration is the client's. */
  registrationClient = new Map<number, number>();
  accounts = new Space();
  accountByNumber = new Map<string, number>();
  models = new Space();
  modelByName = new Map<string, number>();
  /** Sleeve targets of the accounts imported into registrations this import creates. */
  sleeveTotals = new Map<number, { total: number; file: string; line: number }>();
  /** heldKey(account, product) of existing and imported positions. */
  held = new Set<number>();
  /** Existing accounts whose positions are in `held`. */
  heldLoaded = new Set<number>();
  /** heldKey -> shares and cost of the positions this import creates: the only ones its tax_lots rows may break up. */
  importedHeld = new Map<number, { shares: number; cost: number }>();
  /**
   * Whether the import carries tax_lots rows, the only readers of `importedHeld`: without them a
   * positions.csv of 500,000 rows kept as many entries for nothing (4–15 % of the import's time and
   * 50–90 MiB of its peak memory).
   */
  keepsImportedPositions = false;
  /** heldKey -> running totals of the tax_lots rows of a position, and the last row's place. */
  lotSums = new Map<number, { shares: number; cost: number; file: string; line: number }>();
  /** Validated tax_lots rows of the current batch, written once the positions are (importer.ts). */
  lotRows: LotRow[] = [];
  /** Validated substitutions rows (indexes of products and accounts), checked and written last (substitutions.ts). */
  substitutionRows: { account: number | null; product: number; substitute: number; file: string; line: number }[] = [];
  /** Products naming a harvest replacement by ticker, resolved once every product is known. */
  replacements: { index: number; ticker: string; file: string; line: number }[] = [];

  static key = key;

  /** One number per (account, product) pair: a million pairs cost megabytes, not tens of them as strings. */
  static heldKey(accountIndex: number, productIndex: number): number {
    return accountIndex * 4_194_304 + productIndex;
  }

  known(): IdMap {
    return {
      broker_dealers: this.brokerDealers.ids,
      representatives: this.representatives.ids,
      products: this.products.ids,
      clients: this.clients.ids,
      registrations: this.registrations.ids,
      accounts: this.accounts.ids,
      models: this.models.ids,
    };
  }

  addMulti(map: Map<string, number[]>, name: string, index: number): void {
    const list = map.get(key(name));
    if (list) list.push(index);
    else map.set(key(name), [index]);
  }

  registrationKey(clientIndex: number, name: string): string {
    return `${clientIndex}|${key(name)}`;
  }
}

/** Loads only what the entities present can refer to. */
export async function firmExists(conn: Kysely<Database>, firmId: number): Promise<boolean> {
  return (await conn.selectFrom('firms').select('id').where('id', '=', firmId).executeTakeFirst()) !== undefined;
}

export async function loadLookups(conn: Kysely<Database>, firmId: number, present: Set<Entity>): Promise<Lookups> {
  const l = new Lookups();
  const needs = (...entities: Entity[]) => entities.some((e) => present.has(e));
  l.keepsImportedPositions = present.has('tax_lots');

  if (needs('broker_dealers', 'representatives')) {
    for (const b of await conn.selectFrom('broker_dealers').select(['id', 'name', 'code']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      const index = l.brokerDealers.existing(b.id);
      l.addMulti(l.brokerDealerByKey, b.name, index);
      if (b.code) l.addMulti(l.brokerDealerByKey, b.code, index);
    }
  }
  if (needs('representatives', 'clients')) {
    for (const r of await conn.selectFrom('representatives').select(['id', 'number']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      l.representativeByNumber.set(key(r.number), l.representatives.existing(r.id));
    }
  }
  if (needs('products', 'positions', 'substitutions')) {
    const rows = await conn.selectFrom('products').select(['id', 'ticker', 'allows_fractional']).where('firm_id', '=', firmId).orderBy('id').execute();
    for (const p of rows) l.productByTicker.set(key(p.ticker), { index: l.products.existing(p.id), fractional: p.allows_fractional === 1 });
  }
  if (needs('clients', 'registrations', 'accounts')) {
    for (const c of await conn.selectFrom('clients').select(['id', 'name']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      l.addMulti(l.clientByName, c.name, l.clients.existing(c.id));
    }
  }
  if (needs('registrations', 'accounts')) {
    const rows = await conn
      .selectFrom('registrations')
      .select(['id', 'client_id', 'name', 'is_sleeved'])
      .where('firm_id', '=', firmId)
      .orderBy('id')
      .execute();
    for (const r of rows) {
      const index = l.registrations.existing(r.id);
      const client = l.clients.indexOfId(r.client_id) as number;
      l.addMulti(l.registrationByClientAndName, l.registrationKey(client, r.name), index);
      l.registrationSleeved.set(index, r.is_sleeved === 1);
      l.registrationClient.set(index, client);
    }
  }
  if (needs('accounts', 'positions', 'substitutions')) {
    for (const a of await conn.selectFrom('accounts').select(['id', 'number']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      l.accountByNumber.set(key(a.number), l.accounts.existing(a.id));
    }
  }
  if (needs('accounts')) {
    for (const m of await conn.selectFrom('models').select(['id', 'name']).where('firm_id', '=', firmId).orderBy('id').execute()) {
      l.modelByName.set(key(m.name), l.models.existing(m.id));
    }
  }
  return l;
}

/**
 * Existing positions of the given stored accounts, so an import cannot add a second one for a
 * product. Each account is read once however many batches name it.
 */
export async function loadHeld(conn: Kysely<Database>, l: Lookups, accountIds: Iterable<number>): Promise<void> {
  const wanted = [...accountIds].filter((id) => !l.heldLoaded.has(id));
  for (const id of wanted) l.heldLoaded.add(id);
  for (const slice of idChunks(conn, wanted)) {
    const rows = await conn
      .selectFrom('positions')
      .select(['account_id', 'product_id'])
      .where('account_id', 'in', slice)
      .execute();
    for (const p of rows) l.held.add(Lookups.heldKey(l.accounts.indexOfId(p.account_id) as number, l.products.indexOfId(p.product_id) as number));
  }
}
