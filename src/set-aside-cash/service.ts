import { type Clock, isoNow, today } from '../shared/clock.js';
import { notFound } from '../shared/errors.js';
import { toDetail, toListItem } from './records.js';
import type { SetAsideRepository } from './repository.js';
import type { SetAsideDetail, SetAsideInput, SetAsideListItem } from './schemas.js';
import { checkSetAside } from './validate.js';

export interface Actor {
  firmId: number;
  userName: string;
}

/** Set aside cash records of one account (section 4.6). */
export class SetAsideService {
  constructor(
    private readonly repository: SetAsideRepository,
    private readonly clock: Clock,
  ) {}

  private async account(repository: SetAsideRepository, firmId: number, accountId: number) {
    if (!(await repository.accountExists(firmId, accountId))) throw notFound('account', accountId);
  }

  async list(firmId: number, accountId: number): Promise<SetAsideListItem[]> {
    await this.account(this.repository, firmId, accountId);
    const day = today(this.clock);
    return (await this.repository.records(firmId, accountId)).map((row) => toListItem(row, day));
  }

  async get(firmId: number, accountId: number, id: number, repository = this.repository): Promise<SetAsideDetail> {
    await this.account(repository, firmId, accountId);
    const row = await repository.record(firmId, accountId, id);
    if (!row) throw notFound('set aside cash record', id);
    return toDetail(row, today(this.clock));
  }

  create(actor: Actor, accountId: number, input: SetAsideInput): Promise<SetAsideDetail> {
    const columns = checkSetAside(input, today(this.clock));
    return this.repository.transaction(async (repository) => {
      await this.account(repository, actor.firmId, accountId);
      const now = isoNow(this.clock);
      const id = await repository.insert({
        firm_id: actor.firmId,
        account_id: accountId,
        ...columns,
        initial_amount_cents: columns.cash_amount_cents,
        is_expired: 0,
        expired_on: null,
        expired_by: null,
        amount_expired_cents: 0,
        is_deleted: 0,
        created_at: now,
        created_by: actor.userName,
        edited_at: now,
        edited_by: actor.userName,
      });
      return this.get(actor.firmId, accountId, id, repository);
    });
  }

  /**
   * The record is rewritten from the body. An expiry by transaction is history and stays; a
   * date in the past expires the record on read while it stays listed (section 3).
   */
  update(actor: Actor, accountId: number, id: number, input: SetAsideInput): Promise<SetAsideDetail> {
    const columns = checkSetAside(input, today(this.clock));
    return this.repository.transaction(async (repository) => {
      await this.account(repository, actor.firmId, accountId);
      const row = await repository.record(actor.firmId, accountId, id, true);
      if (!row) throw notFound('set aside cash record', id);
      // Until a transaction depleted it, a record's initial amount is simply its amount.
      const untouched = Number(row.amount_expired_cents) === 0;
      await repository.update(actor.firmId, id, {
        ...columns,
        ...(untouched ? { initial_amount_cents: columns.cash_amount_cents } : {}),
        edited_at: isoNow(this.clock),
        edited_by: actor.userName,
      });
      return this.get(actor.firmId, accountId, id, repository);
    });
  }

  /** Soft delete: the record leaves every list and every rebalance, its row stays for audit. */
  remove(actor: Actor, accountId: number, id: number) {
    return this.repository.transaction(async (repository) => {
      await this.account(repository, actor.firmId, accountId);
      if (!(await repository.record(actor.firmId, accountId, id, true))) throw notFound('set aside cash record', id);
      await repository.update(actor.firmId, id, { is_deleted: 1, edited_at: isoNow(this.clock), edited_by: actor.userName });
      return { id: String(id), message: `Set aside cash record ${id} deleted` };
    });
  }
}
