// The lots a planned sell keeps in trades.lots. Stored as compact tuples: a tax-aware batch writes
// one list for most of its sells, and the objects' key names were most of its bytes (and of the
// write). Readers expand them to the API's TradeLot; a list stored as objects reads as it is.

import type { TradeLot } from '../engine/index.js';

/** [taxLotId, shares, costBasis, acquiredDate, 'S' | 'L', estimatedGain, 1 if a wash sale]. */
type StoredLot = [number | null, number, number, string, 'S' | 'L', number, 1?];

export function encodeTradeLots(lots: readonly TradeLot[]): string {
  let out = '[';
  for (let i = 0; i < lots.length; i++) {
    const l = lots[i]!;
    // Plain number formatting is JSON's for the finite numbers a plan holds.
    out += `${i > 0 ? ',' : ''}[${l.taxLotId},${l.shares},${l.costBasis},${JSON.stringify(l.acquiredDate)},"${l.term === 'Long' ? 'L' : 'S'}",${l.estimatedGain}${l.washSale ? ',1' : ''}]`;
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
