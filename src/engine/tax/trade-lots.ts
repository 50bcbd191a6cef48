// The lots a tax-aware sell relieves, as its trade reports them.

import { toCents } from '../money.js';
import type { TradeLot } from '../types.js';
import type { TaxedHolding } from './caps.js';
import { relieve } from './lots.js';
import { lotsOf } from './caps.js';

export interface SellLots {
  readonly lots: TradeLot[];
  readonly estimatedShortTermGain: number;
  readonly estimatedLongTermGain: number;
}

export function sellLots(h: TaxedHolding, price: number): SellLots | null {
  if (h.lotSource === null || h.tax === null || !h.tax.taxable) return null;
  const lots: TradeLot[] = [];
  let shortCents = 0;
  let longCents = 0;
  let pos = 0;
  for (const r of relieve(lotsOf(h), h.sold)) {
    const s = r.slice;
    const costCents = toCents(s.costPerShare * r.shares);
    const gainCents = toCents(price * r.shares) - costCents;
    if (s.long) longCents += gainCents;
    else shortCents += gainCents;
    const lot: TradeLot = { taxLotId: s.id, shares: Math.round(r.shares * 1e6) / 1e6, costBasis: costCents / 100, acquiredDate: s.acquiredOn, term: s.long ? 'Long' : 'Short', estimatedGain: gainCents / 100 };
    lots.push(s.heldBack && gainCents < 0 && pos + r.shares > h.freeShares + 1e-9 ? { ...lot, washSale: true } : lot);
    pos += r.shares;
  }
  return { lots, estimatedShortTermGain: shortCents / 100, estimatedLongTermGain: longCents / 100 };
}
