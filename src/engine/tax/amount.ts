import { formatDollars } from '../money.js';

/** Dollars as the tax messages write them (docs/tax-aware.md): `1,500.00`, no currency sign. */
export function amount(dollars: number): string {
  return formatDollars(dollars).replace('$', '');
}
