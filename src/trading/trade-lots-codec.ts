// The lots a planned sell keeps in trades.lots. Stored as compact tuples: a tax-aware batch writes
// one list for most of its sells, and the objects' key names were most of its bytes (and of the
// write). Readers expand them to the API's TradeLot; a list stored as objects reads as it is.

import type { TradeLot } from '../engine/index.js';

/** [taxLotId, shares, costBasis, acquiredDate, 'S' | 'L', estimatedGain, 1 if a wash sale]. */
type StoredLot = [number | null, number, number, string, 'S' | 'L', number, 1?];

/**
 * `String(x)` for an `x` that is a whole number of 1/`scale` (cents, micro-shares), built from that
 * whole number: printing a fraction costs V8 a shortest-digits search, three of them a lot, and
 * a tax-aware batch encodes a lot list for most of its sells. It is the same text: `units / scale`
 * is the double nearest the decimal, and below 1e13 units no other decimal of as few digits is
 * that near, so the decimal without its trailing zeros is what `String` prints. Anything else
 * (another fraction, zero, a larger value) is left to `String`.
 */
function unitsText(x: number, scale: 100 | 1_000_000, digits: 2 | 6): string {
  const units = Math.round(x * scale);
  if (units / scale !== x || units === 0 || units >= 1e13 || units <= -1e13) return String(x);
  const abs = units < 0 ? -units : units;
  const whole = Math.floor(abs / scale);
  let fraction = abs - whole * scale;
  let text: string;
  if (fraction === 0) text = String(whole);
  // Cents: the fraction's text from a table of the hundred (a batch prints three amounts a lot).
  else if (scale === 100) text = String(whole) + (CENTS[fraction] as string);
  else {
    let width: number = digits;
    while (fraction % 10 === 0) {
      fraction /= 10;
      width--;
    }
    const f = String(fraction);
    text = f.length < width ? `${whole}.${'00000'.slice(0, width - f.length)}${f}` : `${whole}.${f}`;
  }
  return units < 0 ? `-${text}` : text;
}

/** ".01" … ".99" as String prints a fraction of cents: no trailing zero (".1", not ".10"); "" for none. */
const CENTS: readonly string[] = Array.from({ length: 100 }, (_, c) => (c === 0 ? '' : c % 10 === 0 ? `.${c / 10}` : c < 10 ? `.0${c}` : `.${c}`));

/** A date as JSON writes it: quoted, and through JSON.stringify only when it holds a character JSON escapes. */
function quoted(date: string): string {
  return plain(date) ? `"${date}"` : JSON.stringify(date);
}

// The text of a list is written as bytes into one buffer, made into a string once: built by
// concatenation, each of a lot's dozen pieces made a string of its own on the way (a tenth of what
// a tax-aware chunk allocated). Every byte is ASCII: the numbers as `String` prints them, and the
// dates plain ISO; a list with any other date is built by encodeTradeLotsText, the concatenation.
let bytes = Buffer.allocUnsafe(4096);
let at = 0;

function room(n: number): void {
  if (at + n <= bytes.length) return;
  const grown = Buffer.allocUnsafe(Math.max(bytes.length * 2, at + n));
  bytes.copy(grown, 0, 0, at);
  bytes = grown;
}

/** Writes ASCII text. */
function putText(text: string): void {
  room(text.length);
  for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
}

/** Writes a whole number below 2^53, at least `width` digits (zeros in front). */
function putWhole(n: number, width = 1): void {
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  const size = digits > width ? digits : width;
  room(size);
  let i = at + size;
  at = i;
  for (let k = 0; k < digits; k++) {
    const q = Math.floor(n / 10);
    bytes[--i] = 48 + (n - q * 10);
    n = q;
  }
  while (i > at - size) bytes[--i] = 48;
}

/** unitsText, written: the same text. */
function putUnits(x: number, scale: 100 | 1_000_000, digits: 2 | 6): void {
  const units = Math.round(x * scale);
  if (units / scale !== x || units === 0 || units >= 1e13 || units <= -1e13) return putText(String(x));
  if (units < 0) putText('-');
  const abs = units < 0 ? -units : units;
  const whole = Math.floor(abs / scale);
  let fraction = abs - whole * scale;
  putWhole(whole);
  if (fraction === 0) return;
  let width: number = digits;
  while (fraction % 10 === 0) {
    fraction /= 10;
    width--;
  }
  putText('.');
  putWhole(fraction, width);
}

/** Whether a date is written as it is between quotes: printable ASCII without a quote or backslash (the dates a plan holds are plain ISO). */
function plain(date: string): boolean {
  for (let i = 0; i < date.length; i++) {
    const c = date.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || c > 126) return false;
  }
  return true;
}

export function encodeTradeLots(lots: readonly TradeLot[]): string {
  for (const l of lots) if (!plain(l.acquiredDate)) return encodeTradeLotsText(lots);
  at = 0;
  putText('[');
  for (let i = 0; i < lots.length; i++) {
    const l = lots[i]!;
    putText(i > 0 ? ',[' : '[');
    if (l.taxLotId !== null && Number.isSafeInteger(l.taxLotId) && l.taxLotId >= 0) putWhole(l.taxLotId);
    else putText(String(l.taxLotId));
    putText(',');
    putUnits(l.shares, 1_000_000, 6);
    putText(',');
    putUnits(l.costBasis, 100, 2);
    putText(',"');
    putText(l.acquiredDate);
    putText(l.term === 'Long' ? '","L",' : '","S",');
    putUnits(l.estimatedGain, 100, 2);
    putText(l.washSale ? ',1]' : ']');
  }
  putText(']');
  return bytes.toString('latin1', 0, at);
}

/** encodeTradeLots by concatenation: for a list with a date that is not plain, and the property test's reference. */
export function encodeTradeLotsText(lots: readonly TradeLot[]): string {
  let out = '[';
  for (let i = 0; i < lots.length; i++) {
    const l = lots[i]!;
    // Plain number formatting is JSON's for the finite numbers a plan holds; shares are whole
    // micro-shares and amounts whole cents (engine/tax/trade-lots.ts rounds them).
    out += `${i > 0 ? ',' : ''}[${l.taxLotId},${unitsText(l.shares, 1_000_000, 6)},${unitsText(l.costBasis, 100, 2)},${quoted(l.acquiredDate)},"${l.term === 'Long' ? 'L' : 'S'}",${unitsText(l.estimatedGain, 100, 2)}${l.washSale ? ',1' : ''}]`;
  }
  return `${out}]`;
}

export function decodeTradeLots(text: string): TradeLot[] {
  return (JSON.parse(text) as (StoredLot | TradeLot)[]).map((item): TradeLot => {
    if (!Array.isArray(item)) return item;
    const [taxLotId, shares, costBasis, acquiredDate, term, estimatedGain, washSale] = item;
    return { taxLotId, shares, costBasis, acquiredDate, term: term === 'L' ? 'Long' : 'Short', estimatedGain, ...(washSale === 1 ? { washSale: true } : {}) };
  });
}
