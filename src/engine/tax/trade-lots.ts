// The lots a tax-aware sell relieves, as its trade reports them.

import { toCents } from '../money.js';
import type { TradeLot } from '../types.js';
import type { TaxedHolding } from './caps.js';
import { lotsOf } from './caps.js';

export interface SellLots {
  readonly lots: TradeLot[];
  readonly estimatedShortTermGain: number;
  readonly estimatedLongTermGain: number;
}

/**
 * The sell's lots are gathered here, then copied to a list of their number: a list grown by push
 * from empty holds room for 17 and a sell relieves one to three lots (a list for most sells of a
 * tax-aware run, kept until its chunk is written).
 */
const gathered: TradeLot[] = [];

export function sellLots(h: TaxedHolding, price: number): SellLots | null {
  if (h.lotSource === null || h.tax === null || !h.tax.taxable) return null;
  const lots = gathered;
  lots.length = 0;
  let shortCents = 0;
  let longCents = 0;
  let pos = 0;
  // The lots the sell relieves, walked in place as gainOfPrefix walks them (lots.ts): no list of
  // relieved lots per sell, which was garbage at once.
  let left = h.sold;
  for (const s of lotsOf(h)) {
    if (left <= 1e-9) break;
    const shares = s.shares < left ? s.shares : left;
    left -= shares;
    if (!(shares > 0)) continue;
    const costCents = toCents(s.costPerShare * shares);
    const gainCents = toCents(price * shares) - costCents;
    if (s.long) longCents += gainCents;
    else shortCents += gainCents;
    const lot: TradeLot = { taxLotId: s.id, shares: Math.round(shares * 1e6) / 1e6, costBasis: costCents / 100, acquiredDate: s.acquiredOn, term: s.long ? 'Long' : 'Short', estimatedGain: gainCents / 100 };
    lots.push(s.heldBack && gainCents < 0 && pos + shares > h.freeShares + 1e-9 ? { ...lot, washSale: true } : lot);
    pos += shares;
  }
  const relieved = lots.slice();
  lots.length = 0;
  return { lots: relieved, estimatedShortTermGain: shortCents / 100, estimatedLongTermGain: longCents / 100 };
}
