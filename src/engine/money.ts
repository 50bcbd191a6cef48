// The one place where quantities and money are rounded. Inside the engine,
// dollars and shares are JS numbers; rounding happens at the edge, once.

import type { Product, RoundingLogic } from './types.js';

/**
 * Cents of a dollar amount, half away from zero. A value within binary noise
 * (about 15 significant digits) of a half cent counts as exactly half, so
 * 1.005, stored as 1.00499999…, rounds to 1.01 the way a person expects.
 */
export function toCents(dollars: number): number {
  if (dollars === 0 || !Number.isFinite(dollars)) return 0;
  const x = Math.abs(dollars) * 100;
  const whole = Math.floor(x);
  const rest = x - whole;
  const noise = x > 1e6 ? x * 1e-15 : 1e-9;
  const cents = rest >= 0.5 - noise ? whole + 1 : whole;
  return dollars < 0 ? -cents : cents;
}

export function roundCents(dollars: number): number {
  return toCents(dollars) / 100;
}

/** Decimals of a tradable quantity under the chosen rounding logic. */
export function shareDecimals(product: Product, rounding: RoundingLogic): number {
  if (rounding === 'None') return 6;
  return product.type === 'MutualFund' || product.fractionalShares ? 3 : 0;
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000];

// The tiny nudge absorbs binary noise (2.9999999999 shares meant as 3); it is
// far below one unit, and callers cap sells at holdings and check buys in cents.
export function floorShares(shares: number, decimals: number): number {
  if (shares <= 0) return 0;
  const f = POW10[decimals] ?? 1;
  return Math.floor(shares * f + 1e-7) / f;
}

export function ceilShares(shares: number, decimals: number): number {
  if (shares <= 0) return 0;
  const f = POW10[decimals] ?? 1;
  return Math.ceil(shares * f - 1e-7) / f;
}

export function unitOf(decimals: number): number {
  return 1 / (POW10[decimals] ?? 1);
}

/** `$12,345.67`, locale-free so output is identical on every machine. */
export function formatDollars(dollars: number): string {
  const cents = toCents(dollars);
  const neg = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toString();
  const frac = (abs % 100).toString().padStart(2, '0');
  let grouped = '';
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) grouped += ',';
    grouped += whole[i];
  }
  return `${neg ? '-' : ''}$${grouped}.${frac}`;
}

/** One decimal, half away from zero; a hand-rolled toFixed(1) because reasons are built per trade. */
export function fixed1(n: number): string {
  const t = Math.round(Math.abs(n) * 10);
  return `${n < 0 && t !== 0 ? '-' : ''}${Math.floor(t / 10)}.${t % 10}`;
}

/** Percent with one decimal; input is a fraction (0.341 → `34.1%`). */
export function formatPct(fraction: number): string {
  return `${fixed1(fraction * 100)}%`;
}

export function formatBand(lowerPct: number, upperPct: number): string {
  return lowerPct === upperPct ? `±${fixed1(lowerPct)}` : `-${fixed1(lowerPct)}/+${fixed1(upperPct)}`;
}
