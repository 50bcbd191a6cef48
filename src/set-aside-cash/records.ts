import type { Selectable } from 'kysely';
import type { SetAsideCashTable } from '../db/schema.js';
import { centsToDollars } from '../shared/money.js';
import type { SetAsideDetail, SetAsideListItem } from './schemas.js';

type Row = Selectable<SetAsideCashTable>;

export const CASH_AMOUNT_TYPES: Record<number, string> = { 1: 'Dollar', 2: 'Percent' };
export const EXPIRATION_TYPES: Record<number, string> = { 1: 'Date', 2: 'Transaction', 3: 'None' };
export const TRANSACTION_TYPES: Record<number, string> = { 1: 'Distribution / Merge Out', 3: 'Fee' };
export const PERCENT_TYPES: Record<number, string> = { 0: 'Use Default/Managed Value', 1: 'Use Total Value', 2: 'Use Excluded Value' };
const dollars = (cents: number | null) => (cents === null ? null : centsToDollars(Number(cents)));

/**
 * Date expiry is judged on every read against today, so a record expires when its date passes
 * whether or not any job ran; the date is the last protected day (as the engine reads it).
 */
export function isExpired(row: Row, today: string): boolean {
  return row.is_expired === 1 || (row.expiration_type_id === 1 && row.expiration_date !== null && row.expiration_date < today);
}

const amountOf = (row: Row) => (row.cash_amount_type_id === 2 ? Number(row.cash_amount_pct ?? 0) : (dollars(row.cash_amount_cents) ?? 0));

/**
 * Omitted bounds read as the full cashAmount (spec 4.6), for percent records too: there
 * the figure is the percent itself, as the record states it; the engine applies it to the account's
 * value on the day.
 */
function bounds(row: Row) {
  const full = amountOf(row);
  return { minCashAmount: dollars(row.min_cash_cents) ?? full, maxCashAmount: dollars(row.max_cash_cents) ?? full };
}

export function toDetail(row: Row, today: string): SetAsideDetail {
  return {
    id: row.id,
    accountId: row.account_id,
    description: row.description,
    cashAmountTypeId: row.cash_amount_type_id,
    cashAmount: amountOf(row),
    ...bounds(row),
    expirationTypeId: row.expiration_type_id,
    expirationValue: row.expiration_type_id === 1 ? row.expiration_date : row.expiration_type_id === 2 ? row.expiration_transaction_type_id : null,
    toleranceValue: row.tolerance_value === null ? null : Number(row.tolerance_value),
    isExpired: isExpired(row, today) ? 1 : 0,
    startDate: row.start_date,
    isDeleted: row.is_deleted,
    percentCalculationTypeId: row.percent_calculation_type_id,
    isDepleteOverTime: row.is_deplete_over_time,
    createdOn: row.created_at,
    createdBy: row.created_by,
    editedOn: row.edited_at,
    editedBy: row.edited_by,
  };
}

export function toListItem(row: Row, today: string): SetAsideListItem {
  const expired = isExpired(row, today);
  const byDate = row.is_expired === 0 && expired;
  const initial = row.cash_amount_type_id === 2 ? Number(row.cash_amount_pct ?? 0) : (dollars(row.initial_amount_cents) ?? amountOf(row));
  const amountExpired = row.cash_amount_type_id === 2 ? (expired ? initial : 0) : byDate ? initial : (dollars(row.amount_expired_cents) ?? 0);
  return {
    id: row.id,
    description: row.description,
    cashAmountTypeId: row.cash_amount_type_id,
    cashAmountTypeName: CASH_AMOUNT_TYPES[row.cash_amount_type_id] ?? String(row.cash_amount_type_id),
    cashAmount: amountOf(row),
    expirationTypeId: row.expiration_type_id,
    expirationTypeName: EXPIRATION_TYPES[row.expiration_type_id] ?? String(row.expiration_type_id),
    expirationValue:
      row.expiration_type_id === 1 ? row.expiration_date : row.expiration_type_id === 2 ? (TRANSACTION_TYPES[row.expiration_transaction_type_id ?? 0] ?? null) : null,
    toleranceValue: row.tolerance_value === null ? null : Number(row.tolerance_value),
    expiredOn: byDate ? row.expiration_date : row.expired_on,
    isExpired: expired ? 1 : 0,
    portfolioSetAsideCashId: null,
    setAsideAccountTypeName: null,
    isSystematic: 0,
    startDate: row.start_date,
    isActive: !expired && row.is_deleted === 0 && row.start_date <= today ? 1 : 0,
    isBilling: 0,
    amountExpired,
    initialAmount: initial,
    isDeleted: row.is_deleted,
    ...bounds(row),
    percentCalculationTypeId: row.percent_calculation_type_id,
    percentCalculationType: row.percent_calculation_type_id === null ? null : (PERCENT_TYPES[row.percent_calculation_type_id] ?? null),
    expiredBy: byDate ? 'Date' : row.expired_by,
    expiredByUser: byDate ? null : row.expired_by,
    isDepleteOverTime: row.is_deplete_over_time,
    createdOn: row.created_at,
    createdBy: row.created_by,
    editedOn: row.edited_at,
    editedBy: row.edited_by,
  };
}
