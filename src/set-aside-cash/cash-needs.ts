import { heldDollars } from '../shared/holding-values.js';
import { protectedCash, roundCents } from '../engine/index.js';
import { type Clock, today } from '../shared/clock.js';
import { centsToDollars } from '../shared/money.js';
import { PAGE_SIZE, pagesById } from '../shared/pages.js';
import type { CashNeedsRepository } from './repository.js';
import type { CashNeed } from './schemas.js';

/**
 * Accounts whose cash is below what they must hold: their protected cash plus the model's cash
 * target on the rest, valued as the engine values them (positions at their latest price plus
 * custodial cash, pending items not counted). A desk raises the shortfall with a NeedReview
 * rebalance (sells back to the cash target) or a Withdraw of the shortfall.
 *
 * The report sorts the whole firm by shortfall, so it reads every active account; it does so a
 * page at a time, letting other requests run between pages (a firm of 117,000 accounts is a
 * second or two of reads, which held the server whole before).
 */
export class CashNeedsService {
  constructor(
    private readonly repository: CashNeedsRepository,
    private readonly clock: Clock,
  ) {}

  /** Largest shortfall first; `skip`/`top` select the part answered, `total` counts every need. */
  async report(firmId: number, page: { top?: number; skip: number } = { skip: 0 }): Promise<{ total: number; pages: Generator<CashNeed[]> }> {
    const needs = await this.needs(firmId);
    const chosen = needs.slice(page.skip, page.top === undefined ? undefined : page.skip + page.top);
    return { total: needs.length, pages: pagesOf(chosen) };
  }

  private async needs(firmId: number): Promise<CashNeed[]> {
    const asOf = today(this.clock);
    const targets = await this.repository.cashTargets(firmId);
    const out: CashNeed[] = [];
    for await (const accounts of pagesById((afterId, limit) => this.repository.activeAccounts(firmId, afterId, limit))) {
      const ids = accounts.map((a) => a.id);
      const values = heldDollars(await this.repository.holdings(firmId, ids));
      const setAsideCash = await this.repository.setAsideCash(firmId, ids, asOf);
      for (const account of accounts) {
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

/** The needs a page at a time (the route streams them). */
function* pagesOf<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += PAGE_SIZE) yield items.slice(i, i + PAGE_SIZE);
}
