import { setImmediate as nextTurn } from 'node:timers/promises';
import { heldDollars } from '../book/holding-values.js';
import { protectedCash, roundCents } from '../engine/index.js';
import { type Clock, today } from '../shared/clock.js';
import { centsToDollars } from '../shared/money.js';
import type { CashNeedsRepository } from './repository.js';
import type { CashNeed } from './schemas.js';

/** Accounts read and valued at a time; a turn of the event loop passes between pages. */
const ACCOUNTS_A_PAGE = 1000;
/** Needs answered at a time (the route streams them). */
const NEEDS_A_PAGE = 1000;

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
    let afterId = 0;
    for (;;) {
      const accounts = await this.repository.activeAccounts(firmId, afterId, ACCOUNTS_A_PAGE);
      if (accounts.length === 0) break;
      afterId = accounts[accounts.length - 1]!.id;
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
      if (accounts.length < ACCOUNTS_A_PAGE) break;
      await nextTurn();
    }
    return out.sort((a, b) => b.shortfall - a.shortfall || a.accountId - b.accountId);
  }
}

function* pagesOf<T>(items: T[]): Generator<T[]> {
  for (let i = 0; i < items.length; i += NEEDS_A_PAGE) yield items.slice(i, i + NEEDS_A_PAGE);
}
