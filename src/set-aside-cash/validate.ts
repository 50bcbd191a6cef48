import { type FieldProblem, validationFailed } from '../shared/errors.js';
import { MAX_DOLLARS, dollarsToCents } from '../shared/money.js';
import type { SetAsideInput } from './schemas.js';

export const ExpirationType = { Date: 1, Transaction: 2, None: 3 } as const;
/** Transaction expiry codes (section 2.12). */
export const TransactionExpiry = { DistributionOrMergeOut: 1, Fee: 3 } as const;

/** The columns a create or update writes, already checked. */
export interface SetAsideColumns {
  description: string | null;
  cash_amount_type_id: 1 | 2;
  cash_amount_cents: number | null;
  cash_amount_pct: number | null;
  min_cash_cents: number | null;
  max_cash_cents: number | null;
  percent_calculation_type_id: number | null;
  expiration_type_id: 1 | 2 | 3;
  expiration_date: string | null;
  expiration_transaction_type_id: number | null;
  tolerance_value: number | null;
  is_deplete_over_time: 0 | 1;
  set_aside_account_type_id: number | null;
  start_date: string;
}

/** A calendar date from `YYYY-MM-DD` or an ISO timestamp (its date part); null when not a real date. */
export function calendarDate(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(value.trim());
  if (!match) return null;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? value.trim().slice(0, 10) : null;
}

const given = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/** Every rule of section 4.6's create-body table; all problems are reported at once. */
export function checkSetAside(input: SetAsideInput, today: string): SetAsideColumns {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const percent = input.cashAmountTypeId === 2;
  if (input.cashAmountTypeId !== 1 && !percent) problem('cashAmountTypeId', 'must be 1 (dollars) or 2 (percent)');
  if (![1, 2, 3].includes(input.expirationTypeId)) problem('expirationTypeId', 'must be 1 (Date), 2 (Transaction) or 3 (None)');

  if (percent && !(input.cashAmount > 0 && input.cashAmount <= 100)) problem('cashAmount', 'a percent amount must be above 0 and at most 100');
  if (!percent && !(input.cashAmount > 0 && input.cashAmount <= MAX_DOLLARS)) problem('cashAmount', 'a dollar amount must be above 0');

  let expirationDate: string | null = null;
  let transactionType: number | null = null;
  const value = input.expirationValue;
  if (input.expirationTypeId === ExpirationType.Date) {
    if (!given(value) || value === '') problem('expirationValue', 'is required for expirationTypeId 1 (Date)');
    else if (typeof value !== 'string' || !(expirationDate = calendarDate(value))) problem('expirationValue', 'must be a date (YYYY-MM-DD) for expirationTypeId 1');
  } else if (input.expirationTypeId === ExpirationType.Transaction) {
    const code = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (!given(code) || code === '') problem('expirationValue', 'is required for expirationTypeId 2 (Transaction)');
    else if (code !== TransactionExpiry.DistributionOrMergeOut && code !== TransactionExpiry.Fee) problem('expirationValue', 'must be 1 (Distribution / Merge Out) or 3 (Fee) for expirationTypeId 2');
    else transactionType = code;
  }

  let percentType: number | null = null;
  if (given(input.percentCalculationTypeId)) {
    if (![0, 1, 2].includes(input.percentCalculationTypeId)) problem('percentCalculationTypeId', 'must be 0 (managed value), 1 (total value) or 2 (excluded value)');
    else if (percent) percentType = input.percentCalculationTypeId;
  }
  if (percent && percentType === null) percentType = 0;

  if (given(input.toleranceValue) && !(input.toleranceValue >= 0 && input.toleranceValue <= 100)) problem('toleranceValue', 'must be a percent between 0 and 100');

  const deplete = input.isDepleteOverTime === true;
  if (deplete && input.expirationTypeId !== ExpirationType.Transaction) problem('isDepleteOverTime', 'applies only to expirationTypeId 2 (Transaction)');
  else if (deplete && percent) problem('isDepleteOverTime', 'applies only to dollar amounts (cashAmountTypeId 1)');

  let startDate = today;
  if (given(input.startDate) && input.startDate !== '') {
    const parsed = calendarDate(input.startDate);
    if (parsed) startDate = parsed;
    else problem('startDate', 'must be a date (YYYY-MM-DD)');
  }

  for (const field of ['minCashAmount', 'maxCashAmount'] as const) {
    const amount = input[field];
    if (given(amount) && !(amount >= 0 && amount <= MAX_DOLLARS)) problem(field, 'must be a dollar amount of 0 or more');
  }
  // Omitted bounds are the full amount (dollar records); a percent record's full amount is known only on the day.
  const min = input.minCashAmount ?? (percent ? null : input.cashAmount);
  const max = input.maxCashAmount ?? (percent ? null : input.cashAmount);
  // A max of 0 means "no maximum" to the engine, as in the set aside screens.
  if (min !== null && max !== null && max > 0 && min > max) problem('minCashAmount', `${min} is above maxCashAmount ${max}`);

  if (problems.length > 0) throw validationFailed(problems);
  return {
    description: input.description?.trim() || null,
    cash_amount_type_id: percent ? 2 : 1,
    cash_amount_cents: percent ? null : dollarsToCents(input.cashAmount),
    cash_amount_pct: percent ? input.cashAmount : null,
    min_cash_cents: given(input.minCashAmount) ? dollarsToCents(input.minCashAmount) : null,
    max_cash_cents: given(input.maxCashAmount) ? dollarsToCents(input.maxCashAmount) : null,
    percent_calculation_type_id: percentType,
    expiration_type_id: input.expirationTypeId as 1 | 2 | 3,
    expiration_date: expirationDate,
    expiration_transaction_type_id: transactionType,
    tolerance_value: input.toleranceValue ?? null,
    is_deplete_over_time: deplete ? 1 : 0,
    set_aside_account_type_id: input.setAsideAccountTypeId ?? null,
    start_date: startDate,
  };
}
