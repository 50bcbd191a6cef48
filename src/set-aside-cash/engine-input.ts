import type { Selectable } from 'kysely';
import type { SetAsideCashTable } from '../db/schema.js';
import type { SetAsideCash } from '../engine/index.js';
import { centsToDollars } from '../shared/money.js';

const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(Number(cents)));

/**
 * A stored record as the engine reads it (SetAsideCash). Dollar records carry what is still
 * protected, so a record depleted over time protects its remainder; min and max stay null when
 * the caller gave none, which the engine reads as "no bound beyond the amount".
 */
export function toEngineSetAside(row: Selectable<SetAsideCashTable>): SetAsideCash {
  const percent = row.cash_amount_type_id === 2;
  return {
    id: row.id,
    cashAmountTypeId: percent ? 2 : 1,
    cashAmount: percent ? Number(row.cash_amount_pct ?? 0) : (dollars(row.cash_amount_cents) ?? 0),
    minCashAmount: dollars(row.min_cash_cents),
    maxCashAmount: dollars(row.max_cash_cents),
    percentCalculationTypeId: percent ? ((row.percent_calculation_type_id ?? 0) as 0 | 1 | 2) : null,
    expirationTypeId: row.expiration_type_id as 1 | 2 | 3,
    expirationDate: row.expiration_type_id === 1 ? row.expiration_date : null,
    isExpired: row.is_expired === 1,
    isDeleted: row.is_deleted === 1,
    startDate: row.start_date,
  };
}
