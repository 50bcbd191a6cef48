// The substitutions file of an import (docs/import.md): each row a product and its substitute, for
// the firm or one account. Rows are checked once every product and account of the import is
// written, against the firm's stored substitutions and the rows before them, by the same rules as
// the routes (substitutions/rules.ts); a row that breaks one is reported on its line.

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { IdMap } from '../seed/repository.js';
import { SubstitutionRepository } from '../substitutions/repository.js';
import { ruleMessage, SubstitutionRules, type SubstitutionRow } from '../substitutions/rules.js';
import type { Lookups } from './lookups-repository.js';
import type { ImportIssue } from './sources.js';

/** The row's column that a broken rule names. */
const COLUMN = { productId: 'ticker', substituteProductId: 'substitute' } as const;

export class SubstitutionImport {
  private readonly repository: SubstitutionRepository;

  constructor(
    conn: Kysely<Database>,
    private readonly firmId: number,
    private readonly lookups: Lookups,
  ) {
    this.repository = new SubstitutionRepository(conn);
  }

  /** Checks every row; writes them when no problem was found anywhere in the import. Returns how many were written. */
  async write(known: IdMap, issues: ImportIssue[]): Promise<number> {
    const pending = this.lookups.substitutionRows;
    this.lookups.substitutionRows = [];
    if (pending.length === 0) return 0;
    const productIds = known.products ?? [];
    const accountIds = known.accounts ?? [];
    // Rows not written (an earlier problem) have no id yet; their checks would name nothing real.
    const resolved = pending.flatMap((r) => {
      const productId = productIds[r.product];
      const substituteProductId = productIds[r.substitute];
      const accountId = r.account === null ? null : accountIds[r.account];
      return productId === undefined || substituteProductId === undefined || accountId === undefined ? [] : [{ ...r, row: { accountId, productId, substituteProductId } }];
    });
    await this.repository.lockFirm(this.firmId);
    const stored = await this.repository.all(this.firmId);
    const rules = new SubstitutionRules(stored);
    const products = [...new Set([...stored, ...resolved.map((r) => r.row)].flatMap((r) => [r.productId, r.substituteProductId]))];
    const tickers = await this.repository.tickers(this.firmId, products);
    const accounts = await this.repository.accountNumbers(this.firmId, [...new Set([...stored, ...resolved.map((r) => r.row)].flatMap((r) => (r.accountId === null ? [] : [r.accountId])))]);
    const tickerOf = (id: number) => tickers.get(id) ?? `product ${id}`;
    const accountOf = (id: number) => `account ${accounts.get(id) ?? id}`;
    const good: SubstitutionRow[] = [];
    /** Where each accepted row of the import is, for the message of a later row that collides with it. */
    const placeOf = new Map<SubstitutionRow, string>();
    for (const { row, file, line } of resolved) {
      const broken = rules.check(row);
      if (broken) {
        const place = 'other' in broken ? placeOf.get(broken.other) : undefined;
        issues.push({ file, line, field: COLUMN[broken.field], message: ruleMessage(broken, row, tickerOf, accountOf) + (place ? ` (${place})` : '') });
        continue;
      }
      rules.add(row);
      placeOf.set(row, `${file}:${line}`);
      good.push(row);
    }
    if (issues.length > 0) return 0;
    await this.repository.insertMany(this.firmId, good);
    return good.length;
  }
}
