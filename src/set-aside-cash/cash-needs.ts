import { protectedCash, roundCents } from '../engine/index.js';
import { type Clock, today } from '../shared/clock.js';
import { centsToDollars } from '../shared/money.js';
import { loadRebalancerInputs } from '../trading/firm-inputs-repository.js';
import type { CashNeedsRepository } from './repository.js';
import type { CashNeed } from './schemas.js';

const CHUNK = 500;

/**
 * Accounts whose cash is below what they must hold: their protected cash plus the model's cash
 * target on the rest, valued as the engine values them (positions at their latest price plus
 * custodial cash, pending items not counted). A desk raises the shortfall with a NeedReview
 * rebalance (sells back to the cash target) or a Withdraw of the shortfall.
 */
export class CashNeedsService {
  constructor(
    private readonly repository: CashNeedsRepository,
    private readonly clock: Clock,
  ) {}

  async report(firmId: number): Promise<CashNeed[]> {
    const asOf = today(this.clock);
    const accounts = await this.repository.activeAccounts(firmId);
    const targets = await this.repository.cashTargets(firmId);
    const out: CashNeed[] = [];
    for (let i = 0; i < accounts.length; i += CHUNK) {
      const chunk = accounts.slice(i, i + CHUNK);
      const ids = chunk.map((a) => a.id);
      const values = new Map<number, number>();
      for (const h of await this.repository.holdings(firmId, ids)) {
        if (h.price_micros === null) continue;
        const value = (Number(h.shares_micros) / 1e6) * (Number(h.price_micros) / 1e6);
        values.set(h.account_id, (values.get(h.account_id) ?? 0) + value);
      }
      const { setAsideCash } = await loadRebalancerInputs(this.repository.db, firmId, ids, asOf);
      for (const account of chunk) {
        const cash = centsToDollars(Number(account.cash_cents));
        const value = (values.get(account.id) ?? 0) + cash;
        const prot = protectedCash(setAsideCash.get(account.id), asOf, { managed: value, excluded: 0 });
        const pct = account.model_id === null ? 0 : (targets.get(account.model_id) ?? 0);
        const modelCash = (Math.max(value - prot, 0) * pct) / 100;
        const need = prot + modelCash;
        const shortfall = roundCents(need - cash);
        if (shortfall < 0.01) continue;
        out.push({
          accountId: account.id,
          accountNumber: account.number,
          accountName: account.name,
          modelId: account.model_id,
          accountValue: roundCents(value),
          cash,
          protectedCash: roundCents(prot),
          modelCashTarget: roundCents(modelCash),
          cashNeed: roundCents(need),
          shortfall,
        });
      }
    }
    return out.sort((a, b) => b.shortfall - a.shortfall || a.accountId - b.accountId);
  }
}
