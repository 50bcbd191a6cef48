import type { AuthRepository } from '../../auth/repository.js';
import type { Principal } from '../../auth/service.js';
import { notFound, validationError } from '../../shared/errors.js';
import { centsToDollars, marketValueCents, microsToPrice, microsToShares } from '../../shared/money.js';
import type { CustomFieldDefinitions } from '../custom-fields/service.js';
import type { CustomFieldLevel, DefinitionRecord } from '../custom-fields/schemas.js';
import { heldValueCents } from '../../shared/holding-values.js';
import { REGISTRATION_TYPES, registrationTypeOf } from '../registration-types.js';
import { type Expand, type VerboseService } from '../service.js';
import type { Page, PortfolioHierarchyRepository } from './repository.js';
import type { PortfolioTree, SearchQuery, TransactionsQuery, TreeQuery } from './schemas.js';
import { TRANSACTION_TYPES } from '../transactions/schemas.js';

/** Stable ids of the recorded transaction types, for `transTypeIds`. */
export const TRANSACTION_TYPE_IDS: ReadonlyMap<string, number> = new Map(TRANSACTION_TYPES.map((type, i) => [type, i + 1]));
const TYPE_BY_ID = new Map([...TRANSACTION_TYPE_IDS].map(([type, id]) => [id, type]));

/** The custom-field level each entity name of the source system's definitions path stands for. */
const DEFINITION_LEVELS: Record<string, CustomFieldLevel> = {
  client: 'Household',
  clients: 'Household',
  household: 'Household',
  registration: 'Registration',
  registrations: 'Registration',
  account: 'Account',
  accounts: 'Account',
  representative: 'Representative',
  product: 'Product',
  asset: 'Product',
};

const WITH_FIELDS: Expand = { userDefinedFields: true };
const DEFAULT_TOP = 20;

function pageOf(query: { top?: number; $top?: number; skip?: number; $skip?: number; $count?: boolean }): Page {
  return { top: query.$top ?? query.top ?? DEFAULT_TOP, skip: query.$skip ?? query.skip ?? 0, count: query.$count === true };
}

/** A page of a list with what a client needs to go on: its size, offset, and the total when asked. */
export interface ListPage<T> {
  items: T[];
  top: number;
  skip: number;
  total?: number;
}

const pageWith = <R, T>(page: Page, found: { rows: R[]; total?: number }, map: (row: R) => T): ListPage<T> => ({ items: found.rows.map(map), top: page.top, skip: page.skip, total: found.total });

type PositionRow = Awaited<ReturnType<PortfolioHierarchyRepository['positionsOfAccounts']>>[number];
type AccountRow = NonNullable<Awaited<ReturnType<PortfolioHierarchyRepository['account']>>>;
type RegistrationRow = NonNullable<Awaited<ReturnType<PortfolioHierarchyRepository['registration']>>>;

const valueCents = (p: PositionRow) => (p.price_micros === null ? null : marketValueCents(Number(p.shares_micros), Number(p.price_micros)));

/** The verbose services the detail reads build on, so a detail record is the verbose record plus names. */
export interface VerboseReads {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  clients: VerboseService<any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  registrations: VerboseService<any, any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  accounts: VerboseService<any, any>;
}

/**
 * Reads of the portfolio hierarchy in the source system's shapes (households are "clients",
 * holdings are "assets"), so its clients work unmodified. Firm-bounded like every other read.
 */
export class PortfolioHierarchyService {
  constructor(
    private readonly repository: PortfolioHierarchyRepository,
    private readonly verbose: VerboseReads,
    private readonly definitions: CustomFieldDefinitions,
    private readonly users: Pick<AuthRepository, 'signedInUser'>,
  ) {}

  async searchClients(actor: Principal, query: SearchQuery) {
    // Households have no inactive state here: every one is active, so isActive=false lists the same.
    const page = pageOf(query);
    const found = await this.repository.searchClients(actor.firmId, query.search, page);
    return pageWith(page, found, (row) => ({ id: row.id, name: row.name, isActive: true, representativeId: row.representative_id, representativeName: row.representative_name }));
  }

  async client(actor: Principal, id: number) {
    const row = await this.repository.client(actor.firmId, id);
    if (!row) throw notFound('household', id);
    const record = (await this.verbose.clients.get(actor, id, WITH_FIELDS)) as object;
    return { ...record, isActive: true, representativeName: row.representative_name };
  }

  async clientRegistrations(actor: Principal, clientId: number, isActive: boolean | undefined) {
    if (!(await this.repository.client(actor.firmId, clientId))) throw notFound('household', clientId);
    void isActive; // registrations are always active; the flag is accepted for the source system's clients
    return (await this.repository.registrationsOfClient(actor.firmId, clientId)).map(registrationSimple);
  }

  async searchRegistrations(actor: Principal, query: SearchQuery) {
    const page = pageOf(query);
    return pageWith(page, await this.repository.searchRegistrations(actor.firmId, query.search, page), registrationSimple);
  }

  async registration(actor: Principal, id: number) {
    const row = await this.repository.registration(actor.firmId, id);
    if (!row) throw notFound('registration', id);
    const record = (await this.verbose.registrations.get(actor, id, WITH_FIELDS)) as object;
    return { ...record, ...registrationSimple(row) };
  }

  registrationTypes() {
    return REGISTRATION_TYPES.map((t) => ({ ...t }));
  }

  async searchAccounts(actor: Principal, query: SearchQuery) {
    const page = pageOf(query);
    const found = await this.repository.searchAccounts(actor.firmId, query.search, query.isActive ?? true, page);
    return { items: await this.withValues(actor.firmId, found.rows), top: page.top, skip: page.skip, total: found.total };
  }

  async account(actor: Principal, id: number) {
    const row = await this.repository.account(actor.firmId, id);
    if (!row) throw notFound('account', id);
    const record = (await this.verbose.accounts.get(actor, id, WITH_FIELDS)) as object;
    const [simple] = await this.withValues(actor.firmId, [row]);
    return { ...record, ...simple };
  }

  async assets(actor: Principal, accountId: number, hasValue: boolean) {
    if (!(await this.repository.account(actor.firmId, accountId))) throw notFound('account', accountId);
    const positions = await this.repository.positionsOfAccounts(actor.firmId, [accountId]);
    return positions.map(asset).filter((a) => !hasValue || (a.currentValue !== null && a.currentValue !== 0));
  }

  async searchAssets(actor: Principal, query: { search: string; top?: number; $top?: number; skip?: number; $skip?: number; $count?: boolean }) {
    const page = pageOf(query);
    return pageWith(page, await this.repository.searchAssets(actor.firmId, query.search, page), asset);
  }

  async portfolioTree(actor: Principal, clientId: number, query: TreeQuery): Promise<PortfolioTree> {
    const client = await this.repository.client(actor.firmId, clientId);
    if (!client) throw notFound('household', clientId);
    const registrations = await this.repository.registrationsOfClient(actor.firmId, clientId);
    const accounts = await this.withValues(actor.firmId, await this.repository.accountsOfClient(actor.firmId, clientId));
    const additional = query.includeAdditional === true;
    const treeAccount = (a: (typeof accounts)[number]) => ({
      id: a.id,
      number: a.number,
      name: a.name,
      custodian: a.custodian,
      isActive: a.isActive,
      currentValue: a.currentValue,
      ...(additional ? { modelId: a.modelId, modelName: a.modelName } : {}),
    });
    const total = centsToDollars(accounts.reduce((sum, a) => sum + Math.round(a.currentValue * 100), 0));
    const tree: PortfolioTree = { id: client.id, name: client.name, currentValue: total };
    if (additional) tree.notes = client.notes;
    if (query.includeRep === true) {
      tree.representativeId = client.representative_id;
      tree.representativeName = client.representative_name;
    }
    const filter = query.filterType ?? 'PortfolioTree';
    if (filter === 'AccountsOnly') {
      tree.accounts = accounts.map(treeAccount);
      return tree;
    }
    tree.registrations = registrations.map((g) => {
      const own = accounts.filter((a) => a.registrationId === g.id);
      return {
        id: g.id,
        name: g.name,
        currentValue: centsToDollars(own.reduce((sum, a) => sum + Math.round(a.currentValue * 100), 0)),
        ...(additional ? { type: g.type, typeId: registrationTypeOf(g.type)?.id ?? null } : {}),
        ...(filter === 'RegistrationsOnly' ? {} : { accounts: own.map(treeAccount) }),
      };
    });
    return tree;
  }

  async transactions(actor: Principal, query: TransactionsQuery) {
    if (query.startDate && query.endDate && query.startDate > query.endDate) {
      throw validationError('querystring.endDate', 'must not be before startDate');
    }
    // Recorded transactions are complete and carry no errors; other statuses list nothing.
    const page = pageOf(query);
    if ((query.status && query.status !== 'Complete') || query.hasErrors === true) return pageWith(page, { rows: [], total: page.count ? 0 : undefined }, (row: never) => row);
    const types = query.transTypeIds?.map((id) => TYPE_BY_ID.get(id)).filter((t): t is (typeof TRANSACTION_TYPES)[number] => t !== undefined);
    const found = await this.repository.transactions(
      actor.firmId,
      { accountId: query.accountId, clientId: query.clientId, registrationId: query.registrationId, startDate: query.startDate, endDate: query.endDate, types },
      page,
    );
    return pageWith(page, found, (t) => ({
      id: t.id,
      accountId: t.account_id,
      accountNumber: t.account_number,
      registrationId: t.registration_id,
      clientId: t.client_id,
      transTypeId: TRANSACTION_TYPE_IDS.get(t.type) ?? 0,
      transType: t.type,
      status: 'Complete',
      tradeDate: t.trade_date,
      amount: centsToDollars(Number(t.amount_cents)),
      description: t.description,
      hasErrors: false,
      createdDate: t.created_at,
      createdBy: t.created_by,
    }));
  }

  async user(actor: Principal) {
    const user = await this.users.signedInUser(actor.firmId, actor.userId);
    if (!user) throw notFound('user', actor.userId);
    return {
      loginUserId: user.user_name,
      userId: user.id,
      displayName: user.display_name,
      email: user.email,
      userType: user.kind,
      roleName: user.role_name,
      firmId: user.firm_id,
      firmName: user.firm_name,
      firmCode: user.firm_code,
      isActive: user.is_active === 1,
      privileges: [...actor.privileges].sort(),
    };
  }

  /** Definitions with the source system's `description` (the field's display name) beside ours. */
  async definitionsOf(actor: Principal, entity: string): Promise<(DefinitionRecord & { description: string })[]> {
    const level = DEFINITION_LEVELS[entity.toLowerCase()];
    if (!level) throw validationError('params.entity', `unknown entity "${entity}"; known: client, registration, account, representative, product`);
    return (await this.definitions.list(actor, level)).map((d) => ({ ...d, description: d.name }));
  }

  private async withValues(firmId: number, rows: AccountRow[]) {
    const held = heldValueCents(await this.repository.pricedHoldingsOf(firmId, rows.map((r) => r.id)));
    return rows.map((a) => ({
      id: a.id,
      number: a.number,
      name: a.name,
      custodian: a.custodian,
      registrationId: a.registration_id,
      registrationName: a.registration_name,
      clientId: a.client_id,
      clientName: a.client_name,
      modelId: a.model_id,
      modelName: a.model_name,
      isActive: a.is_active === 1,
      currentValue: centsToDollars(Number(a.cash_cents) + (held.get(a.id) ?? 0)),
    }));
  }
}

function registrationSimple(row: RegistrationRow) {
  const known = registrationTypeOf(row.type);
  return {
    id: row.id,
    name: row.name,
    clientId: row.client_id,
    clientName: row.client_name,
    typeId: known?.id ?? null,
    type: row.type,
    taxStatus: known?.taxStatus ?? null,
    isActive: true,
    isSleeved: row.is_sleeved === 1,
  };
}

function asset(p: PositionRow) {
  const value = valueCents(p);
  return {
    id: p.id,
    accountId: p.account_id,
    productId: p.product_id,
    ticker: p.ticker,
    name: p.product_name,
    productType: p.product_type,
    shares: microsToShares(Number(p.shares_micros)),
    price: p.price_micros === null ? null : microsToPrice(Number(p.price_micros)),
    priceDate: p.price_date,
    currentValue: value === null ? null : centsToDollars(value),
    costBasis: centsToDollars(Number(p.cost_cents)),
    isCash: p.is_cash === 1,
  };
}
