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
 * tax-aware run, kept until its chunk is written). The gathering list keeps its room from sell to
 * sell, counted by `count` and emptied slot by slot: setting its length to 0 let its room go, so
 * every sell's first push made a new one.
 */
const gathered: (TradeLot | undefined)[] = [];

export function sellLots(h: TaxedHolding, price: number): SellLots | null {
  if (h.lotSource === null || h.tax === null || !h.tax.taxable) return null;
  const lots = gathered;
  let count = 0;
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
    lots[count++] = s.heldBack && gainCents < 0 && pos + shares > h.freeShares + 1e-9 ? { ...lot, washSale: true } : lot;
    pos += shares;
  }
  const relieved = lots.slice(0, count) as TradeLot[];
  // Let go of the lots (they belong to the trade now) without letting go of the room.
  for (let i = 0; i < count; i++) lots[i] = undefined;
  return { lots: relieved, estimatedShortTermGain: shortCents / 100, estimatedLongTermGain: longCents / 100 };
}
