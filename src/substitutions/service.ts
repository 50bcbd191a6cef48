import { conflict, type DomainError, type FieldProblem, notFound, validationFailed } from '../shared/errors.js';
import { uniqueViolation } from '../db/errors.js';
import type { StoredSubstitution, SubstitutionFilter, SubstitutionRepository } from './repository.js';
import { type RuleBreak, ruleMessage, SubstitutionRules, type SubstitutionRow } from './rules.js';

export interface SubstitutionInput {
  productId: number;
  substituteProductId: number;
  accountId: number | null;
}

export interface SubstitutionRecord {
  id: number;
  scope: 'Firm' | 'Account';
  productId: number;
  productTicker: string;
  substituteProductId: number;
  substituteTicker: string;
  accountId: number | null;
  accountNumber: string | null;
}

const record = (s: StoredSubstitution): SubstitutionRecord => ({
  id: s.id,
  scope: s.accountId === null ? 'Firm' : 'Account',
  productId: s.productId,
  productTicker: s.productTicker,
  substituteProductId: s.substituteProductId,
  substituteTicker: s.substituteTicker,
  accountId: s.accountId,
  accountNumber: s.accountNumber,
});

/**
 * The firm's product substitutions, which a rebalance with `useProductSubstitution = Use` applies
 * (rules.ts says which may exist together). A rebalance reads them when it starts, so a change
 * takes effect at the next one.
 */
export class SubstitutionService {
  constructor(private readonly repository: SubstitutionRepository) {}

  async list(firmId: number, filter: SubstitutionFilter): Promise<{ items: SubstitutionRecord[]; total: number }> {
    const { rows, total } = await this.repository.page(firmId, filter);
    return { items: rows.map(record), total };
  }

  async get(firmId: number, id: number): Promise<SubstitutionRecord> {
    const row = await this.repository.one(firmId, id);
    if (!row) throw notFound('substitution', id);
    return record(row);
  }

  async create(firmId: number, input: SubstitutionInput): Promise<SubstitutionRecord> {
    const row: SubstitutionRow = { accountId: input.accountId, productId: input.productId, substituteProductId: input.substituteProductId };
    try {
      return await this.repository.transaction(async (repository) => {
        await repository.lockFirm(firmId);
        const tickers = await repository.tickers(firmId, [row.productId, row.substituteProductId]);
        const problems: FieldProblem[] = [];
        for (const field of ['productId', 'substituteProductId'] as const) {
          if (!tickers.has(row[field])) problems.push({ field, message: `product ${row[field]} does not exist` });
        }
        if (row.accountId !== null && !(await repository.accountNumbers(firmId, [row.accountId])).has(row.accountId)) {
          problems.push({ field: 'accountId', message: `account ${row.accountId} does not exist` });
        }
        if (problems.length > 0) throw validationFailed(problems);
        const neighbours = await repository.neighbours(firmId, row);
        const broken = new SubstitutionRules(neighbours).check(row);
        if (broken) throw await this.refusal(repository, firmId, broken, row, tickers);
        const id = await repository.insert(firmId, row);
        return record((await repository.one(firmId, id)) as StoredSubstitution);
      });
    } catch (error) {
      // The unique index of the scope caught a writer that slipped past the check (rules.ts).
      if (uniqueViolation(error) === null) throw error;
      throw conflict('productId', `product ${row.productId} already has a substitute in this scope`);
    }
  }

  async remove(firmId: number, id: number): Promise<SubstitutionRecord> {
    return this.repository.transaction(async (repository) => {
      const row = await repository.one(firmId, id);
      if (!row || !(await repository.remove(firmId, id))) throw notFound('substitution', id);
      return record(row);
    });
  }

  private async refusal(repository: SubstitutionRepository, firmId: number, broken: RuleBreak, row: SubstitutionRow, known: Map<number, string>): Promise<DomainError> {
    const other = 'other' in broken ? broken.other : null;
    const missing = other ? [other.productId, other.substituteProductId].filter((id) => !known.has(id)) : [];
    const tickers = new Map([...known, ...(await repository.tickers(firmId, missing))]);
    const accounts = other?.accountId != null ? await repository.accountNumbers(firmId, [other.accountId]) : new Map<number, string>();
    const message = ruleMessage(broken, row, (id) => tickers.get(id) ?? `product ${id}`, (id) => `account ${accounts.get(id) ?? id}`);
    return broken.kind === 'self' ? validationFailed([{ field: broken.field, message }]) : conflict(broken.field, message);
  }
}
