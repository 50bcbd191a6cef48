// The tax_lots file of an import (docs/import.md): each row a lot of a position of the same
// import. Lots are written a batch at a time once the positions are, replacing the one lot a
// position row with acquired_date makes; at the end every position's lots must sum to its shares
// and cost. Harvest replacements named by ticker are set once every product exists.

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { IdMap } from '../seed/repository.js';
import type { Lookups } from './lookups-repository.js';
import type { ImportIssue } from './sources.js';
import { clearLots, insertLots, positionsOf, setHarvestReplacements } from './tax-lots-repository.js';

export class LotWriter {
  /** Positions whose one-lot default has been dropped already. */
  private readonly cleared = new Set<number>();

  constructor(
    private readonly conn: Kysely<Database>,
    private readonly firmId: number,
    private readonly lookups: Lookups,
  ) {}

  /** Writes the batch's validated lots (when nothing has failed); returns how many. */
  async write(known: IdMap, ok: boolean): Promise<number> {
    const rows = this.lookups.lotRows;
    this.lookups.lotRows = [];
    if (!ok || rows.length === 0) return 0;
    const accountIds = known.accounts ?? [];
    const productIds = known.products ?? [];
    const positions = await positionsOf(this.conn, this.firmId, [...new Set(rows.map((r) => accountIds[r.account] as number))]);
    const fresh: number[] = [];
    const lots: { positionId: number; shares: number; cost: number; acquired: string }[] = [];
    for (const r of rows) {
      const position = positions.get(`${accountIds[r.account]}:${productIds[r.product]}`);
      if (!position) continue;
      if (!this.cleared.has(position.id)) {
        this.cleared.add(position.id);
        fresh.push(position.id);
      }
      lots.push({ positionId: position.id, shares: r.shares_micros, cost: r.cost_cents, acquired: r.acquired_date });
    }
    await clearLots(this.conn, this.firmId, fresh);
    await insertLots(this.conn, this.firmId, lots);
    return lots.length;
  }

  /** A position's lots must sum to its shares and its cost; reported on its last lot's line. */
  checkSums(issues: ImportIssue[]): void {
    for (const [pair, s] of this.lookups.lotSums) {
      const position = this.lookups.importedHeld.get(pair);
      if (!position) continue;
      if (s.shares !== position.shares) {
        issues.push({ file: s.file, line: s.line, field: 'shares', message: `the lots of this position total ${s.shares / 1e6} shares; the position holds ${position.shares / 1e6}` });
      } else if (s.cost !== position.cost) {
        issues.push({ file: s.file, line: s.line, field: 'cost', message: `the lots of this position cost ${(s.cost / 100).toFixed(2)} in total; the position's cost is ${(position.cost / 100).toFixed(2)}` });
      }
    }
  }

  async replacements(known: IdMap, issues: ImportIssue[]): Promise<void> {
    const productIds = known.products ?? [];
    const pairs: { productId: number; replacementId: number }[] = [];
    for (const r of this.lookups.replacements) {
      const target = this.lookups.productByTicker.get(r.ticker.trim().toLowerCase());
      if (!target) {
        issues.push({ file: r.file, line: r.line, field: 'harvest_replacement', message: `no product "${r.ticker}" in this firm or this import` });
        continue;
      }
      pairs.push({ productId: productIds[r.index] as number, replacementId: productIds[target.index] as number });
    }
    if (issues.length === 0) await setHarvestReplacements(this.conn, this.firmId, pairs);
  }
}
