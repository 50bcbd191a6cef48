import type { Migration, MigrationProvider } from 'kysely';
import { book } from './0001_book.js';
import { auth } from './0002_auth.js';
import { tradeBlocks } from './0003_trade_blocks.js';
import { rebalancerData } from './0004_rebalancer_data.js';
import { trading } from './0005_trading.js';
import { customFields } from './0006_custom_fields.js';
import { sleeves } from './0007_sleeves.js';
import { riskProfiling } from './0008_risk_profiling.js';
import { notifications } from './0009_notifications.js';
import { firmIdIndexes } from './0010_firm_id_indexes.js';
import { sessionGrace } from './0011_session_grace.js';
import { basicLoginApp } from './0014_basic_login_app.js';
import { systemReasons } from './0012_system_reasons.js';
import { modelSecurityPriorities } from './0013_model_security_priorities.js';
import { taxAware } from './0015_tax_aware.js';
import { taxLotsByDate } from './0016_tax_lots_by_date.js';
import { riskClientsByHousehold } from './0017_risk_clients_by_household.js';
import { tenantKeys } from './0018_tenant_keys.js';
import { tradeInstancePages } from './0019_trade_instance_pages.js';
import { boundedLookups } from './0020_bounded_lookups.js';
import { performance } from './0025_performance.js';
import { searchIndexes } from './0026_search_indexes.js';
import { substitutionScopes } from './0027_substitution_scopes.js';
import { accountIsSma } from './0028_account_is_sma.js';
import { accountValuesCovering } from './0029_account_values_covering.js';
import { searchIndexUpkeep } from './0030_search_index_upkeep.js';
import { dataChangeNotifications } from './0031_data_change_notifications.js';
import { statementCheckedKeys } from './0032_statement_checked_keys.js';
import { keyLookupsByDistinctKey } from './0033_key_lookups_by_distinct_key.js';
import { taxSummaryKeysByStatement } from './0034_tax_summary_keys_by_statement.js';
import { positionLotsText } from './0035_position_lots_text.js';

/** Ordered by name; a new migration is a new entry, never an edit of a shipped one. */
const migrations: Record<string, Migration> = {
  '0001_book': book,
  '0002_auth': auth,
  '0003_trade_blocks': tradeBlocks,
  '0004_rebalancer_data': rebalancerData,
  '0005_trading': trading,
  '0006_custom_fields': customFields,
  '0007_sleeves': sleeves,
  '0008_risk_profiling': riskProfiling,
  '0009_notifications': notifications,
  '0010_firm_id_indexes': firmIdIndexes,
  '0011_session_grace': sessionGrace,
  '0012_system_reasons': systemReasons,
  '0013_model_security_priorities': modelSecurityPriorities,
  '0014_basic_login_app': basicLoginApp,
  '0015_tax_aware': taxAware,
  '0016_tax_lots_by_date': taxLotsByDate,
  '0017_risk_clients_by_household': riskClientsByHousehold,
  '0018_tenant_keys': tenantKeys,
  '0019_trade_instance_pages': tradeInstancePages,
  '0020_bounded_lookups': boundedLookups,
  '0025_performance': performance,
  '0026_search_indexes': searchIndexes,
  '0027_substitution_scopes': substitutionScopes,
  '0028_account_is_sma': accountIsSma,
  '0029_account_values_covering': accountValuesCovering,
  '0030_search_index_upkeep': searchIndexUpkeep,
  '0031_data_change_notifications': dataChangeNotifications,
  '0032_statement_checked_keys': statementCheckedKeys,
  '0033_key_lookups_by_distinct_key': keyLookupsByDistinctKey,
  '0034_tax_summary_keys_by_statement': taxSummaryKeysByStatement,
  '0035_position_lots_text': positionLotsText,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
