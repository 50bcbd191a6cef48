import type { AccountRow, SettingsRow, SleeveRow } from './repository.js';
import { type AllocationMethod, type AutoRebalFrequency, SLEEVE_TYPES, SYSTEM_SLEEVE_TYPES, SleeveType } from './schemas.js';

/** A registration as read for the sleeve routes: its accounts, their sleeve rows and its settings. */
export interface Loaded {
  registration: { id: number; name: string; is_sleeved: number; do_not_trade: number };
  accounts: AccountRow[];
  rows: Map<number, SleeveRow>;
  settings: SettingsRow | undefined;
}

export interface Sleeve {
  account: AccountRow;
  row: SleeveRow | undefined;
  type: string;
  system: boolean;
}

export interface Settings {
  sleeveStrategyId: number | null;
  isActive: boolean;
  asOfDate: string | null;
  contributionAllocationMethod: AllocationMethod;
  distributionAllocationMethod: AllocationMethod;
  corporateActionAllocationMethod: AllocationMethod;
  autoRebalFrequency: AutoRebalFrequency;
  autoRebalMonth: number | null;
  autoRebalDay: number | null;
  mandate: boolean;
}

const DEFAULT_METHOD: AllocationMethod = 'Sleeve Current Percent';

/** Stored settings, or what a registration without a settings row (imported, not yet sleeved) stands at. */
export function settingsOf(loaded: Loaded): Settings {
  const s = loaded.settings;
  return {
    sleeveStrategyId: s?.sleeve_strategy_id ?? null,
    isActive: s ? s.is_active === 1 : loaded.registration.is_sleeved === 1,
    asOfDate: s?.as_of_date ?? null,
    contributionAllocationMethod: (s?.contribution_method ?? DEFAULT_METHOD) as AllocationMethod,
    distributionAllocationMethod: (s?.distribution_method ?? DEFAULT_METHOD) as AllocationMethod,
    corporateActionAllocationMethod: (s?.corporate_action_method ?? DEFAULT_METHOD) as AllocationMethod,
    autoRebalFrequency: (s?.auto_rebal_frequency ?? 'None') as AutoRebalFrequency,
    autoRebalMonth: s?.auto_rebal_month ?? null,
    autoRebalDay: s?.auto_rebal_day ?? null,
    mandate: s?.mandate === 1,
  };
}

/**
 * The registration's sleeves. A sleeved registration's accounts are its sleeves (removed ones
 * left out): Custodial, Contribution and Distribution types are system sleeves, anything else a
 * Normal Sleeve. A registration not yet sleeved shows its single account as the Custodial Account
 * sleeve it becomes when sleeved; with several accounts (or none) it cannot be sleeved and shows none.
 */
export function sleevesOf(loaded: Loaded): Sleeve[] {
  const { registration, accounts, rows } = loaded;
  if (registration.is_sleeved !== 1) {
    const [only] = accounts;
    return accounts.length === 1 && only ? [{ account: only, row: rows.get(only.id), type: SleeveType.Custodial, system: true }] : [];
  }
  return accounts
    .filter((a) => !rows.get(a.id)?.removed_at)
    .map((account) => {
      const stored = account.sleeve_type;
      const system = stored !== null && SYSTEM_SLEEVE_TYPES.includes(stored);
      const type = stored !== null && (SLEEVE_TYPES as readonly string[]).includes(stored) ? stored : SleeveType.Normal;
      return { account, row: rows.get(account.id), type, system };
    });
}
