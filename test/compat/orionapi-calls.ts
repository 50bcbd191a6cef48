/**
 * Facts read from the source system's public Python client (`orionapi`, GitHub
 * DockStreetAM/orion_module, `orionapi/__init__.py`): for each read method, the request it makes
 * and the fields of the answer it reads (`res.json()[…]`) or its docstring promises the caller.
 * Its platform base URL is `…/api/v1/` and every path is appended as `/Path`, so the paths it sends
 * carry a doubled slash; its rebalancer (Eclipse) base URLs are `…/v1` and `…/api/v2`.
 * It sends `Authorization: Session <token>` on every call.
 */

export interface Fixture {
  clientId: number;
  registrationId: number;
  accountId: number;
  productId: number;
  modelId: number;
  search: string;
}

export interface ClientCall {
  /** Class and method of the client. */
  method: string;
  /** The path as the client writes it, for the report. */
  path: string;
  /** Which token it sends: the platform's (OrionAPI) or the rebalancer's (Eclipse classes). */
  app: 'platform' | 'rebalancer';
  url(ids: Fixture): string;
  /** A list of records, or one record. */
  shape: 'list' | 'record';
  /** Fields the client reads or documents on each record. */
  reads: string[];
  /** false: an empty list is a fine answer for the fixture. */
  nonEmpty?: boolean;
}

const platform = (path: string) => `/api/v1/${path}`;

export const CLIENT_CALLS: ClientCall[] = [
  // OrionAPI: `return res.json()["loginUserId"]`.
  { method: 'OrionAPI.check_username', path: '/authorization/user', app: 'platform', url: () => platform('/authorization/user'), shape: 'record', reads: ['loginUserId'] },
  // OrionAPI: maps `f["description"]` to `f["code"]` for each definition.
  {
    method: 'OrionAPI.get_custom_field_definitions',
    path: '/Settings/UserDefinedFields/Definitions/{entity}',
    app: 'platform',
    url: () => platform('/Settings/UserDefinedFields/Definitions/client'),
    shape: 'list',
    reads: ['description', 'code'],
    nonEmpty: false,
  },
  // Docstring: "Matching clients with id, name, status". Query: search, top, isActive.
  {
    method: 'OrionAPI.search_clients',
    path: '/Portfolio/Clients/Simple/Search?search=&top=&isActive=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Clients/Simple/Search?search=${f.search}&top=20&isActive=true`),
    shape: 'list',
    reads: ['id', 'name', 'isActive'],
  },
  // Docstring: "Client details including custom fields".
  { method: 'OrionAPI.get_client', path: '/Portfolio/Clients/{id}', app: 'platform', url: (f) => platform(`/Portfolio/Clients/${f.clientId}`), shape: 'record', reads: ['id', 'name', 'userDefinedFields'] },
  // Query: includeAdditional, includeRep (true/false), filterType. Docstring: client -> registrations -> accounts.
  {
    method: 'OrionAPI.get_portfolio_tree',
    path: '/Portfolio/Clients/{id}/PortfolioTree?includeAdditional=&includeRep=&filterType=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Clients/${f.clientId}/PortfolioTree?includeAdditional=false&includeRep=false&filterType=PortfolioTree`),
    shape: 'record',
    reads: ['id', 'name', 'registrations'],
  },
  // Docstring: "Matching registrations with id, name, type".
  {
    method: 'OrionAPI.search_registrations',
    path: '/Portfolio/Registrations/Simple/Search?search=&top=&isActive=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Registrations/Simple/Search?search=${f.search}&top=20&isActive=true`),
    shape: 'list',
    reads: ['id', 'name', 'type'],
  },
  { method: 'OrionAPI.get_registration', path: '/Portfolio/Registrations/{id}', app: 'platform', url: (f) => platform(`/Portfolio/Registrations/${f.registrationId}`), shape: 'record', reads: ['id', 'name', 'userDefinedFields'] },
  {
    method: 'OrionAPI.get_client_registrations',
    path: '/Portfolio/Clients/{id}/Registrations?isActive=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Clients/${f.clientId}/Registrations?isActive=true`),
    shape: 'list',
    reads: ['id', 'name'],
  },
  // Docstring: "Registration types with id and name".
  { method: 'OrionAPI.get_registration_types', path: '/Portfolio/Registrations/Types', app: 'platform', url: () => platform('/Portfolio/Registrations/Types'), shape: 'list', reads: ['id', 'name'] },
  // Docstring: "Matching accounts with id, number, name, custodian".
  {
    method: 'OrionAPI.search_orion_accounts',
    path: '/Portfolio/Accounts/Simple/Search?search=&top=&isActive=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Accounts/Simple/Search?search=${f.search}&top=20&isActive=true`),
    shape: 'list',
    reads: ['id', 'number', 'name', 'custodian'],
  },
  { method: 'OrionAPI.get_orion_account', path: '/Portfolio/Accounts/{id}', app: 'platform', url: (f) => platform(`/Portfolio/Accounts/${f.accountId}`), shape: 'record', reads: ['id', 'number', 'name', 'userDefinedFields'] },
  // Query: accountId, hasValue. Docstring: "Assets with positions, tickers, values".
  {
    method: 'OrionAPI.get_assets',
    path: '/Portfolio/Assets?accountId=&hasValue=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Assets?accountId=${f.accountId}&hasValue=true`),
    shape: 'list',
    reads: ['id', 'ticker', 'shares', 'currentValue'],
  },
  // Query: search, top. Docstring: ticker, CUSIP or name.
  {
    method: 'OrionAPI.search_assets',
    path: '/Portfolio/Assets/Simple/Search?search=&top=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Assets/Simple/Search?search=${f.search}&top=20`),
    shape: 'list',
    reads: ['id', 'ticker', 'name'],
  },
  // Query (each optional): accountId, clientId, registrationId, startDate, endDate, status, transTypeIds (repeated), hasErrors.
  {
    method: 'OrionAPI.get_transactions',
    path: '/Portfolio/Transactions?accountId=&clientId=&registrationId=&startDate=&endDate=&status=&transTypeIds=&hasErrors=',
    app: 'platform',
    url: (f) => platform(`/Portfolio/Transactions?accountId=${f.accountId}&clientId=${f.clientId}&registrationId=${f.registrationId}&startDate=2026-01-01&endDate=2026-12-31&status=Complete&hasErrors=false`),
    shape: 'list',
    reads: ['id', 'accountId', 'tradeDate', 'amount'],
  },
];
