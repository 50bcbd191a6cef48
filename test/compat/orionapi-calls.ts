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
  /** Fields the client reads or documents on each record; `a[].b`: field b of every element of the list a. */
  reads: string[];
  /** false: an empty list is a fine answer for the fixture. */
  nonEmpty?: boolean;
  /** POST with a JSON body (the client's `json=`); GET otherwise. */
  post?: (ids: Fixture) => unknown;
}

const platform = (path: string) => `/api/v1/${path}`;
const rebalancer = (path: string) => `/rebalancer/v1${path}`;

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
  // Eclipse (rebalancer) classes: base `…/v1`, token from `GET /v1/admin/token` (eclipse_access_token).
  { method: 'EclipseV1.check_username', path: '/v1/admin/authorization/user', app: 'rebalancer', url: () => rebalancer('/admin/authorization/user'), shape: 'record', reads: ['userLoginId'] },
  // EclipseBase.get_all_accounts; search_accounts_number_and_name reads `id` and `accountNumber` of each.
  { method: 'EclipseBase.get_all_accounts', path: '/v1/account/accounts/simple', app: 'rebalancer', url: () => rebalancer('/account/accounts/simple'), shape: 'list', reads: ['id', 'accountNumber'] },
  // EclipseBase.get_internal_account_id reads `res[0]["id"]`.
  { method: 'EclipseBase.search_accounts', path: '/v1/account/accounts/simple?search=', app: 'rebalancer', url: (f) => rebalancer(`/account/accounts/simple?search=${f.search}`), shape: 'list', reads: ['id', 'accountNumber'] },
  { method: 'EclipseV1.get_account_simple', path: '/v1/account/accounts/simple/{id}', app: 'rebalancer', url: (f) => rebalancer(`/account/accounts/simple/${f.accountId}`), shape: 'record', reads: ['id'] },
  { method: 'EclipseV1.get_account_details', path: '/v1/account/accounts/{id}', app: 'rebalancer', url: (f) => rebalancer(`/account/accounts/${f.accountId}`), shape: 'record', reads: ['id'] },
  { method: 'EclipseV1.get_account_holdings_detail', path: '/v1/account/accounts/{id}/holdings', app: 'rebalancer', url: (f) => rebalancer(`/account/accounts/${f.accountId}/holdings`), shape: 'list', reads: [] },
  // The client sends assetType (its default is `class`; the security form is what this book keys).
  {
    method: 'EclipseV1.get_out_of_tolerance_accounts',
    path: '/v1/account/accounts/{modelId}/outOfTolerance/{assetId}?assetType=',
    app: 'rebalancer',
    url: (f) => rebalancer(`/account/accounts/${f.modelId}/outOfTolerance/${f.productId}?assetType=security`),
    shape: 'list',
    reads: [],
    nonEmpty: false,
  },
  { method: 'EclipseV1.get_all_account_details', path: '/v1/account/accounts/', app: 'rebalancer', url: () => rebalancer('/account/accounts/'), shape: 'list', reads: ['id'] },
  // EclipseV1.get_all_models reads `name` of each model.
  { method: 'EclipseV1.get_all_models', path: '/v1/modeling/models', app: 'rebalancer', url: () => rebalancer('/modeling/models'), shape: 'list', reads: ['id', 'name'] },
  { method: 'EclipseV1.get_model', path: '/v1/modeling/models/{id}', app: 'rebalancer', url: (f) => rebalancer(`/modeling/models/${f.modelId}`), shape: 'record', reads: ['id', 'name'] },
  { method: 'EclipseV1.get_model_allocations', path: '/v1/modeling/models/{id}/allocations?aggregateAllocations=', app: 'rebalancer', url: (f) => rebalancer(`/modeling/models/${f.modelId}/allocations?aggregateAllocations=true`), shape: 'list', reads: [] },
  { method: 'EclipseV1.get_model_portfolios', path: '/v1/modeling/models/{id}/portfolios', app: 'rebalancer', url: (f) => rebalancer(`/modeling/models/${f.modelId}/portfolios`), shape: 'list', reads: ['id'] },
  ...['accountSetAsidePercentCalculationType', 'asideCashAmountType', 'asideCashExpirationType', 'asideCashTransactionType'].map(
    (table): ClientCall => ({ method: `EclipseV1 set aside code table ${table}`, path: `/v1/account/accounts/${table}`, app: 'rebalancer', url: () => rebalancer(`/account/accounts/${table}`), shape: 'list', reads: ['id', 'name'] }),
  ),
  { method: 'EclipseV1.get_restricted_plans', path: '/v1/account/accounts/restrictedPlans', app: 'rebalancer', url: () => rebalancer('/account/accounts/restrictedPlans'), shape: 'list', reads: [], nonEmpty: false },
  ...eclipseCalls(),
];

const v2 = (path: string) => `/rebalancer/api/v2${path}`;
/** The trade instances of the fixture are made today (the app's clock is the real one). */
const today = () => new Date().toISOString().slice(0, 10);
/** The fixture's restricted plan, named by its external id. */
export const COMPAT_PLAN_EXTERNAL_ID = 'CMP-PLAN';

/**
 * The remaining Eclipse v1/v2 reads (EclipseV1, EclipseV2 and the Eclipse unifier): portfolios
 * (registrations), holdings, security sets (models' lines), securities, trade instances and
 * orders, sleeves, v2 accounts, set aside settings, trade block reads, blocks, strategies, teams
 * and searches. Query parameters are the ones the client sends (`params=` or in the URL).
 */
function eclipseCalls(): ClientCall[] {
  const setAsideReads = ['id', 'accountId', 'accountNumber', 'setAsideCashAmount', 'isActive', 'description', 'startDate', 'expirationTypeId', 'expirationValue'];
  return [
    // Params: includevalue (always, "true"/"false"), search, $top.
    { method: 'EclipseV1.get_all_portfolios', path: '/v1/portfolio/portfolios/simple?includevalue=&search=&$top=', app: 'rebalancer', url: (f) => rebalancer(`/portfolio/portfolios/simple?includevalue=true&search=${f.search}&$top=10`), shape: 'list', reads: ['id', 'name'] },
    // Docstring: "Returns dict with 'general', 'teams', 'issues', 'summary' sections."
    { method: 'EclipseV1.get_portfolio', path: '/v1/portfolio/portfolios/{id}', app: 'rebalancer', url: (f) => rebalancer(`/portfolio/portfolios/${f.registrationId}`), shape: 'record', reads: ['id', 'general', 'teams', 'issues', 'summary'] },
    { method: 'EclipseV1.get_portfolio_accounts', path: '/v1/portfolio/portfolios/{id}/accounts', app: 'rebalancer', url: (f) => rebalancer(`/portfolio/portfolios/${f.registrationId}/accounts`), shape: 'list', reads: ['id', 'accountNumber'] },
    { method: 'EclipseV1.get_portfolio_accounts(simple=True)', path: '/v1/portfolio/portfolios/{id}/accounts/simple', app: 'rebalancer', url: (f) => rebalancer(`/portfolio/portfolios/${f.registrationId}/accounts/simple`), shape: 'list', reads: ['id', 'accountNumber'] },
    // Params: inAccountId, search (optional).
    { method: 'EclipseV1.get_account_holdings', path: '/v1/holding/holdings/simple?inAccountId=&search=', app: 'rebalancer', url: (f) => rebalancer(`/holding/holdings/simple?inAccountId=${f.accountId}&search=CMPT`), shape: 'list', reads: ['id', 'securityId', 'securitySymbol', 'value'] },
    { method: 'EclipseV1.get_portfolio_holdings', path: '/v1/holding/holdings/simple?inPortfolioId=', app: 'rebalancer', url: (f) => rebalancer(`/holding/holdings/simple?inPortfolioId=${f.registrationId}`), shape: 'list', reads: ['id', 'securityId', 'securitySymbol', 'value'] },
    // find_security_set_by_name reads `name` of each set.
    { method: 'EclipseV1.get_all_security_sets', path: '/v1/security/securityset', app: 'rebalancer', url: () => rebalancer('/security/securityset'), shape: 'list', reads: ['id', 'name'] },
    // preview_security_set_changes and export_security_set_to_file read these of one set.
    {
      method: 'EclipseV1.get_security_set',
      path: '/v1/security/securityset/details/{id}',
      app: 'rebalancer',
      url: (f) => rebalancer(`/security/securityset/details/${f.modelId}`),
      shape: 'record',
      reads: ['id', 'name', 'description', 'securities', 'securities[].id', 'securities[].name', 'securities[].symbol', 'securities[].targetPercent', 'securities[].lowerModelTolerancePercent', 'securities[].upperModelTolerancePercent', 'securities[].equivalences', 'securities[].equivalences[].symbol'],
    },
    // Params: search, top, excludeCashSecurity. get_security_by_ticker reads `symbol` of each.
    { method: 'EclipseV1.search_securities', path: '/v1/security/securities?search=&top=&excludeCashSecurity=', app: 'rebalancer', url: () => rebalancer('/security/securities?search=CMPT&top=20&excludeCashSecurity=true'), shape: 'list', reads: ['id', 'name', 'symbol', 'price'] },
    // Reads tradeInstanceType and tradeInstanceSubType (numeric codes it maps to names).
    { method: 'EclipseV1.get_trade_instances', path: '/v1/tradeorder/instances?startDate=&endDate=', app: 'rebalancer', url: () => rebalancer(`/tradeorder/instances?startDate=${today()}&endDate=${today()}`), shape: 'list', reads: ['id', 'tradeInstanceType', 'tradeInstanceSubType'] },
    { method: 'EclipseV1.get_orders', path: '/v1/tradeorder/trades?isPending=false', app: 'rebalancer', url: () => rebalancer('/tradeorder/trades?isPending=false'), shape: 'list', reads: ['id', 'tradeInstanceId'], nonEmpty: false },
    { method: 'EclipseV1.get_orders_pending', path: '/v1/tradeorder/trades?isPending=true', app: 'rebalancer', url: () => rebalancer('/tradeorder/trades?isPending=true'), shape: 'list', reads: ['id', 'tradeInstanceId', 'accountId', 'portfolioId', 'securityId'] },
    // Params: portfolioId, $top, isPending (each optional).
    { method: 'EclipseV1.get_trades', path: '/v1/tradeorder/trades?portfolioId=&$top=&isPending=', app: 'rebalancer', url: (f) => rebalancer(`/tradeorder/trades?portfolioId=${f.registrationId}&$top=10&isPending=true`), shape: 'list', reads: ['id', 'tradeInstanceId', 'accountId'] },
    { method: 'EclipseV1.get_sleeves', path: '/v1/portfolio/sleeves', app: 'rebalancer', url: () => rebalancer('/portfolio/sleeves'), shape: 'list', reads: [], nonEmpty: false },
    // EclipseV2: base `…/api/v2`. get_accounts sends filterId only when given.
    { method: 'EclipseV2.get_accounts', path: '/api/v2/Account/Accounts', app: 'rebalancer', url: () => v2('/Account/Accounts'), shape: 'list', reads: ['id', 'accountNumber', 'portfolioId'] },
    { method: 'EclipseV2.get_account', path: '/api/v2/Account/Accounts/{id}', app: 'rebalancer', url: (f) => v2(`/Account/Accounts/${f.accountId}`), shape: 'record', reads: ['id', 'accountNumber', 'summarySection'] },
    // Params: restrictedPlanId or externalPlanId.
    { method: 'EclipseV2.get_restricted_plan_accounts', path: '/api/v2/Account/Accounts/RestrictedPlan?externalPlanId=', app: 'rebalancer', url: () => v2(`/Account/Accounts/RestrictedPlan?externalPlanId=${COMPAT_PLAN_EXTERNAL_ID}`), shape: 'list', reads: ['id'], nonEmpty: false },
    // POSTs the list of internal account ids (json=); _normalize_set_aside reads these keys of each record.
    ...['EclipseV2.get_set_asides', 'Eclipse.get_set_asides'].map(
      (method): ClientCall => ({ method, path: 'POST /api/v2/Account/Accounts/SetAsideCashSettings', app: 'rebalancer', url: () => v2('/Account/Accounts/SetAsideCashSettings'), post: (f) => [f.accountId], shape: 'list', reads: setAsideReads }),
    ),
    { method: 'EclipseV2.get_editable_trade_block_reasons', path: '/api/v2/TradeBlockReasons/Editable', app: 'rebalancer', url: () => v2('/TradeBlockReasons/Editable'), shape: 'list', reads: ['id', 'name'], nonEmpty: false },
    // Params: startDate, endDate (optional).
    { method: 'EclipseV2.get_trade_block_details_history', path: '/api/v2/TradeBlockDetails/History/{type}/{id}?startDate=&endDate=', app: 'rebalancer', url: (f) => v2(`/TradeBlockDetails/History/32/${f.accountId}?startDate=2026-01-01&endDate=2099-12-31`), shape: 'list', reads: [], nonEmpty: false },
    { method: 'EclipseV2.get_trade_block_details_related_entities', path: '/api/v2/TradeBlockDetails/RelatedEntities?entityId=&entityType=', app: 'rebalancer', url: (f) => v2(`/TradeBlockDetails/RelatedEntities?entityId=${f.accountId}&entityType=32`), shape: 'list', reads: ['id', 'entityType', 'name'] },
    // Params: hasQuodd, registrationStatus, getAdv (each optional).
    { method: 'EclipseV2.get_trade_blocks', path: '/api/v2/Trading/Blocks?hasQuodd=&getAdv=', app: 'rebalancer', url: () => v2('/Trading/Blocks?hasQuodd=false&getAdv=false'), shape: 'list', reads: ['id', 'securityId', 'tradeActionId'] },
    { method: 'EclipseV2.get_sleeve_strategies', path: '/api/v2/Portfolio/Sleeves/SleeveStrategies', app: 'rebalancer', url: () => v2('/Portfolio/Sleeves/SleeveStrategies'), shape: 'list', reads: [], nonEmpty: false },
    { method: 'EclipseV2.get_teams', path: '/api/v2/Team/Team/GetTeams', app: 'rebalancer', url: () => v2('/Team/Team/GetTeams'), shape: 'list', reads: [], nonEmpty: false },
    // Params: search, limit, offset.
    { method: 'EclipseV2.account_search', path: '/api/v2/AccountSearch/AccountSearchList?search=&limit=&offset=', app: 'rebalancer', url: () => v2('/AccountSearch/AccountSearchList?search=cmp-00&limit=10&offset=0'), shape: 'list', reads: ['id', 'accountNumber', 'name'] },
    // Params: search, skip, take (externalFirmId, externalAccountId when given).
    { method: 'EclipseV2.security_search', path: '/api/v2/SecuritySearch/SecuritySearchList?search=&skip=&take=', app: 'rebalancer', url: () => v2('/SecuritySearch/SecuritySearchList?search=cmpt&skip=0&take=10'), shape: 'list', reads: ['id', 'symbol', 'name'] },
    // Params: search, name, status, includeValue, limit (each optional).
    { method: 'EclipseV2.global_search', path: '/api/v2/GlobalSearch/GlobalSearchList?search=&includeValue=&limit=', app: 'rebalancer', url: (f) => v2(`/GlobalSearch/GlobalSearchList?search=${f.search}&includeValue=true&limit=10`), shape: 'record', reads: ['portfolios', 'accounts', 'models'] },
  ];
}
