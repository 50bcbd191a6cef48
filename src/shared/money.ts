import Big from 'big.js';

/**
 * One representation for amounts, used by every table and mapper:
 * - money (cash, cost, dollar amounts) is stored as integer cents;
 * - share quantities as integer millionths of a share (fractional shares exist);
 * - prices as integer millionths of a dollar (NAVs carry more than two decimals).
 * The API speaks plain decimal numbers (dollars, shares). Conversion to the stored
 * integers rounds half away from zero, once, here; nothing else rounds stored amounts.
 */
export const CENTS_PER_DOLLAR = 100;
export const MICROS = 1_000_000;

function scaled(value: number, scale: number): number {
  // big.js avoids 0.1 + 0.2 style surprises when a decimal is multiplied up to an integer.
  return Number(new Big(value).times(scale).round(0, Big.roundHalfUp));
}

export const dollarsToCents = (dollars: number): number => scaled(dollars, CENTS_PER_DOLLAR);
export const centsToDollars = (cents: number): number => cents / CENTS_PER_DOLLAR;
export const sharesToMicros = (shares: number): number => scaled(shares, MICROS);
export const microsToShares = (micros: number): number => micros / MICROS;
export const priceToMicros = (price: number): number => scaled(price, MICROS);
export const microsToPrice = (micros: number): number => micros / MICROS;

/** Largest dollar amount the API accepts: keeps every cents value exactly representable. */
export const MAX_DOLLARS = 1e13;

const TEN_BILLION = 10_000_000_000n;

/**
 * A holding's value in cents from stored shares and price (both millionths). The product of the
 * two can pass 2^53, so it is taken exactly and rounded once, half away from zero.
 */
export function marketValueCents(sharesMicros: number, priceMicros: number): number {
  if (!Number.isInteger(sharesMicros) || !Number.isInteger(priceMicros)) return Number(new Big(sharesMicros).times(priceMicros).div(1e10).round(0, Big.roundHalfUp)) + 0;
  // Integers: below 2^53 their product and its remainder by 10^10 are exact in doubles; above, in
  // BigInt. Either is many times cheaper than a decimal library (a page of households values
  // thousands of holdings).
  const product = sharesMicros * priceMicros;
  if (Number.isSafeInteger(product)) {
    const rest = product % 1e10;
    const whole = (product - rest) / 1e10;
    return (Math.abs(rest) * 2 >= 1e10 ? whole + Math.sign(product) : whole) + 0;
  }
  const exact = BigInt(sharesMicros) * BigInt(priceMicros);
  const rest = exact % TEN_BILLION;
  let whole = exact / TEN_BILLION;
  if ((rest < 0n ? -rest : rest) * 2n >= TEN_BILLION) whole += exact < 0n ? -1n : 1n;
  // Rounded while exact, converted once (past 2^53 cents a double holds only the nearest value).
  return Number(whole);
}
