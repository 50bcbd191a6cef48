import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordSetAsidesExpired } from '../notifications/index.js';
import { SetAsideRepository } from './repository.js';
import { TransactionExpiry } from './validate.js';

/** Portfolio transaction types that expire Transaction-type set asides (section 2.12's codes). */
const EXPIRY_CODE: Record<string, number> = {
  Distribution: TransactionExpiry.DistributionOrMergeOut,
  MergeOut: TransactionExpiry.DistributionOrMergeOut,
  Fee: TransactionExpiry.Fee,
};

export interface ExpiryOutcome {
  expired: number[];
  depleted: number[];
}

/**
 * Applies a recorded transaction to the account's set asides waiting for that kind of
 * transaction, oldest first, inside the caller's database transaction. The amount is consumed
 * as it goes: a record expires when what is left of the transaction covers it within its
 * tolerance (percent records, having no dollar amount, expire on the transaction itself); a
 * record depleting over time loses what the transaction paid and expires once its remainder is
 * within the tolerance of its initial amount.
 */
export async function applyTransactionToSetAsides(
  db: Kysely<Database>,
  transaction: { firmId: number; accountId: number; id: number; type: string; amountCents: number; tradeDate: string; now: string },
): Promise<ExpiryOutcome> {
  const outcome: ExpiryOutcome = { expired: [], depleted: [] };
  const code = EXPIRY_CODE[transaction.type];
  if (code === undefined) return outcome;
  const repository = new SetAsideRepository(db);
  const by = `Transaction ${transaction.id}`;
  const expire = { is_expired: 1 as const, expired_on: transaction.tradeDate, expired_by: by, edited_at: transaction.now, edited_by: by };
  let left = transaction.amountCents;
  for (const row of await repository.waitingFor(transaction.firmId, transaction.accountId, code, transaction.tradeDate)) {
    if (row.cash_amount_type_id === 2) {
      await repository.update(transaction.firmId, row.id, expire);
      outcome.expired.push(row.id);
      continue;
    }
    if (left <= 0) continue;
    const remaining = Number(row.cash_amount_cents ?? 0);
    const tolerance = Number(row.tolerance_value ?? 0) / 100;
    const spent = Number(row.amount_expired_cents);
    if (row.is_deplete_over_time === 1) {
      const taken = Math.min(left, remaining);
      left -= taken;
      const rest = remaining - taken;
      const initial = Number(row.initial_amount_cents ?? remaining);
      const done = rest <= Math.round(initial * tolerance);
      await repository.update(transaction.firmId, row.id, {
        cash_amount_cents: rest,
        amount_expired_cents: spent + taken,
        edited_at: transaction.now,
        edited_by: by,
        ...(done ? expire : {}),
      });
      (done ? outcome.expired : outcome.depleted).push(row.id);
    } else if (left >= Math.round(remaining * (1 - tolerance))) {
      left -= Math.min(left, remaining);
      await repository.update(transaction.firmId, row.id, { ...expire, amount_expired_cents: spent + remaining });
      outcome.expired.push(row.id);
    }
  }
  // Their creators are told in this same transaction, so an expiry is never left unannounced.
  if (outcome.expired.length > 0) {
    await recordSetAsidesExpired(db, transaction.firmId, outcome.expired, { by: 'transaction', transactionId: transaction.id, date: transaction.tradeDate }, transaction.now);
  }
  return outcome;
}
