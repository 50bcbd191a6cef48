// Recording a trade as executed closes the tax loop (docs/tax-aware.md): the position and cash
// move, a sell relieves its lots (the lots it planned, else the method's order), a taxable sell
// stores its realized gains for the household's year, a buy becomes a new lot, and a loss sale
// within 30 days of a buy of its group in the household (a wash sale made anyway) moves the
// disallowed loss into that buy's lot, with the sold lot's holding period.

import { isLongTerm, orderLots, sliceOf, type LotSelection, type LotSlice } from '../engine/index.js';
import { DomainError, notFound, validationFailed } from '../shared/errors.js';
import type { Clock } from '../shared/clock.js';
import { centsToDollars, microsToPrice, microsToShares } from '../shared/money.js';
import type { ExecutionRepository, ExecutionWrite, LotRow } from './execution-repository.js';
import { decodeTradeLots } from './trade-lots-codec.js';

export interface ExecuteInput {
  shares?: number;
  price?: number;
  tradeDate?: string;
}

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const daysFrom = (a: string, b: string) => Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);

export class ExecutionService {
  constructor(
    private readonly repository: ExecutionRepository,
    private readonly clock: Clock,
  ) {}

  async execute(firmId: number, instanceId: number, tradeId: number, input: ExecuteInput) {
    const today = this.clock.now().toISOString().slice(0, 10);
    const tradeDate = input.tradeDate ?? today;
    if (tradeDate > today) throw validationFailed([{ field: 'tradeDate', message: 'must not be in the future' }]);
    return this.repository.transaction(async (tx) => {
      const trade = await tx.trade(firmId, instanceId, tradeId);
      if (!trade) throw notFound('trade', tradeId);
      if (trade.status !== 'Open') throw new DomainError('invalid_state', `trade ${tradeId} is ${trade.status}; only an open trade can be executed`);
      const plannedShares = microsToShares(trade.shares_micros);
      const shares = input.shares ?? plannedShares;
      if (shares > plannedShares + 1e-9) throw validationFailed([{ field: 'shares', message: `must not exceed the trade's ${plannedShares} shares` }]);
      const price = input.price ?? microsToPrice(trade.price_micros);
      const sharesMicros = Math.round(shares * 1e6);
      const amountCents = Math.round(shares * price * 100);
      const write: ExecutionWrite = { tradeId, executedAt: this.clock.now().toISOString(), accountId: trade.account_id, productId: trade.product_id, sharesDelta: 0, costDeltaCents: 0, cashDeltaCents: 0, lotUpdates: [], newLot: null, sales: [], washAdjustments: [] };
      if (trade.side === 'Buy') {
        write.sharesDelta = sharesMicros;
        write.costDeltaCents = amountCents;
        write.cashDeltaCents = -amountCents;
        write.newLot = { sharesMicros, costCents: amountCents, acquiredDate: tradeDate };
      } else {
        const lots = await tx.lots(firmId, trade.account_id, trade.product_id);
        const positionShares = await tx.positionShares(firmId, trade.account_id, trade.product_id);
        if (positionShares < sharesMicros) throw new DomainError('invalid_state', `account ${trade.account_id} holds ${microsToShares(positionShares)} shares; ${shares} cannot be sold`);
        write.sharesDelta = -sharesMicros;
        write.cashDeltaCents = amountCents;
        // Outside taxable accounts lots go first in, first out (docs/tax-aware.md).
        const relieved = relieveLots(lots, sharesMicros, price, tradeDate, trade.lots, trade.taxStatus === 'Taxable' ? trade.method : 'FIFO');
        for (const r of relieved) {
          write.lotUpdates.push({ id: r.lot.id, sharesMicros: r.lot.shares_micros - r.sharesMicros, costCents: r.lot.cost_cents - r.costCents });
          write.costDeltaCents -= r.costCents;
        }
        if (trade.taxStatus === 'Taxable') {
          for (const r of relieved) {
            const proceedsCents = Math.round((r.sharesMicros / 1e6) * price * 100);
            write.sales.push({ clientId: trade.client_id, acquiredDate: r.lot.acquired_date, sharesMicros: r.sharesMicros, proceedsCents, costCents: r.costCents, term: isLongTerm(r.lot.acquired_date, tradeDate) ? 'Long' : 'Short', gainCents: proceedsCents - r.costCents, disallowedCents: 0, tradeDate });
          }
          const emptied = new Set(write.lotUpdates.filter((u) => u.sharesMicros <= 0).map((u) => u.id));
          const buys = (await tx.recentGroupLots(firmId, trade.client_id, trade.product_id, addDays(tradeDate, -30), tradeDate)).filter((l) => !emptied.has(l.id));
          washSaleAdjustment(write, buys, tradeDate);
        }
      }
      await tx.apply(firmId, write);
      return {
        tradeId,
        status: 'Executed',
        shares,
        price,
        amount: centsToDollars(amountCents),
        tradeDate,
        realized: write.sales.map((s) => ({ acquiredDate: s.acquiredDate, shares: s.sharesMicros / 1e6, proceeds: centsToDollars(s.proceedsCents), costBasis: centsToDollars(s.costCents), term: s.term, gain: centsToDollars(s.gainCents), disallowedLoss: centsToDollars(s.disallowedCents) })),
      };
    });
  }
}

/**
 * A loss sale within 30 days after a buy of its wash-sale group in the household: the loss on as
 * many shares as were bought is disallowed and added to the cost of the bought lots (newest
 * first), whose holding period then starts as early as the sold lot's did (IRS Publication 550).
 */
function washSaleAdjustment(write: ExecutionWrite, buys: LotRow[], tradeDate: string) {
  let bought = buys.reduce((s, b) => s + b.shares_micros, 0);
  let next = 0;
  let room = buys[0]?.shares_micros ?? 0;
  for (const sale of write.sales) {
    if (sale.gainCents >= 0) continue;
    if (bought <= 0) break;
    const washed = Math.min(sale.sharesMicros, bought);
    sale.disallowedCents = Math.round((-sale.gainCents * washed) / sale.sharesMicros);
    bought -= washed;
    const held = daysFrom(sale.acquiredDate, tradeDate);
    let left = washed;
    while (left > 0 && next < buys.length) {
      const lot = buys[next]!;
      const part = Math.min(left, room);
      const carried = addDays(lot.acquired_date, -held);
      write.washAdjustments.push({ lotId: lot.id, positionId: lot.position_id, addCents: Math.round((sale.disallowedCents * part) / washed), acquiredDate: carried < lot.acquired_date ? carried : lot.acquired_date });
      left -= part;
      room -= part;
      if (room <= 0) room = buys[++next]?.shares_micros ?? 0;
    }
  }
}

/** The lots a sell relieves: those it planned when it executes whole, else the method's order. */
function relieveLots(lots: LotRow[], sharesMicros: number, price: number, tradeDate: string, planned: string | null, method: LotSelection) {
  const byId = new Map(lots.map((l) => [l.id, l]));
  const out: { lot: LotRow; sharesMicros: number; costCents: number }[] = [];
  let left = sharesMicros;
  const take = (lot: LotRow, micros: number) => {
    const m = Math.min(micros, lot.shares_micros);
    if (m <= 0) return;
    const cost = m === lot.shares_micros ? lot.cost_cents : Math.round((lot.cost_cents * m) / lot.shares_micros);
    out.push({ lot, sharesMicros: m, costCents: cost });
    left -= m;
  };
  const plan = planned ? decodeTradeLots(planned) : null;
  if (plan && plan.reduce((s, l) => s + Math.round(l.shares * 1e6), 0) === sharesMicros && plan.every((l) => l.taxLotId === null || byId.has(l.taxLotId))) {
    for (const l of plan) if (l.taxLotId !== null) take(byId.get(l.taxLotId)!, Math.round(l.shares * 1e6));
    return out;
  }
  const slices: LotSlice[] = lots.map((l) => sliceOf({ id: l.id, shares: l.shares_micros, costBasis: l.cost_cents, acquiredOn: l.acquired_date }, price * 1e-4, tradeDate));
  for (const s of orderLots(slices, method)) {
    if (left <= 0) break;
    take(byId.get(s.id!)!, left);
  }
  // Shares no lot covers (a book without lots) leave no lot to relieve.
  return out;
}
