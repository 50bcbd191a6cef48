// The book's tax reads (docs/tax-aware.md): an account's lots with their term and unrealized gain,
// a household's realized gains of a year. (An account's effective tax status is read with the
// account itself: entities.ts.)

import type { Clock } from '../../shared/clock.js';
import { notFound, validationFailed } from '../../shared/errors.js';
import { centsToDollars, microsToPrice, microsToShares } from '../../shared/money.js';
import { isLongTerm } from '../../engine/index.js';
import { TaxRepository } from './repository.js';

export class TaxService {
  constructor(
    private readonly repository: TaxRepository,
    private readonly clock: Clock,
  ) {}

  async lots(firmId: number, accountId: number, productId?: number) {
    if (!(await this.repository.accountExists(firmId, accountId))) throw notFound('account', accountId);
    const today = this.clock.now().toISOString().slice(0, 10);
    return (await this.repository.lots(firmId, accountId, productId)).map((l) => {
      const shares = microsToShares(l.shares_micros);
      const cost = centsToDollars(l.cost_cents);
      const value = l.price_micros === null ? null : Math.round(shares * microsToPrice(l.price_micros) * 100);
      return {
        taxLotId: l.id,
        productId: l.product_id,
        ticker: l.ticker,
        shares,
        costBasis: cost,
        acquiredDate: l.acquired_date,
        term: isLongTerm(l.acquired_date, today) ? 'Long' : 'Short',
        unrealizedGain: value === null ? null : centsToDollars(value - Number(l.cost_cents)),
      };
    });
  }

  async realizedGains(firmId: number, clientId: number, year?: number) {
    const y = year ?? this.clock.now().getUTCFullYear();
    if (!Number.isInteger(y) || y < 1900 || y > 9999) throw validationFailed([{ field: 'year', message: 'must be a year such as 2026' }]);
    if (!(await this.repository.clientExists(firmId, clientId))) throw notFound('household', clientId);
    let shortCents = 0;
    let longCents = 0;
    for (const r of await this.repository.realizedGains(firmId, clientId, y)) {
      // A disallowed loss is not realized: it moved into a replacement lot's cost.
      const cents = Number(r.gain ?? 0) + Number(r.disallowed ?? 0);
      if (r.term === 'Long') longCents += cents;
      else shortCents += cents;
    }
    return { clientId, year: y, shortTermGain: centsToDollars(shortCents), longTermGain: centsToDollars(longCents) };
  }
}
