import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../shared/clock.js';
import { DomainError, notFound, validationError } from '../shared/errors.js';
import { createBatch, updateBatch, type BatchDeps } from './batch.js';
import { tradeBlocksForEngine } from './engine-input.js';
import { SystemReason, detailDto } from './records.js';
import type { DetailView, FirmOptions, ReasonRow, TradeBlockRepository } from './repository.js';
import { EntityEnum, type HistoryEntry, type RelatedEntity, type TradeBlockDetail, type TradeBlockResult } from './schemas.js';
import { type Actor, DetailWriter, type WriteContext } from './writes.js';

export interface TradeBlockServiceOptions {
  /** Called after a transaction that wrote sync events has committed (wakes the dispatcher). */
  afterCommit?: () => void;
}

const unsupported = (entityEnum: number) =>
  new DomainError('not_found', `entityEnum ${entityEnum} is not a supported entity type; use 6 (Registration) or 7 (Account)`);

/** Trade block details (spec 4.2): reads, batch writes, deletes, re-publishing and history. */
export class TradeBlockService {
  readonly writer = new DetailWriter();

  constructor(
    readonly repository: TradeBlockRepository,
    readonly clock: Clock,
    private readonly options: TradeBlockServiceOptions = {},
  ) {}

  /** Runs a write in one transaction with the firm's options and its reasons (created on first use). */
  async write<T>(actor: Actor, sync: boolean, work: (deps: BatchDeps) => Promise<T>): Promise<T> {
    const result = await this.repository.transaction(async (repository) => {
      const options = await this.firmOptions(repository, actor.firmId);
      const reasons = await this.reasonsOf(repository, actor.firmId);
      const now = isoNow(this.clock);
      const context: WriteContext = { actor, now, sync, view: { firmId: actor.firmId, dates: options.dates, today: now.slice(0, 10) } };
      const customReason = async (name: string) => {
        await repository.insertReasonsIfMissing([newReason(actor, now, name, false)]);
        const rows = await repository.reasons(actor.firmId);
        return rows.find((r) => r.name.toLowerCase() === name.toLowerCase())!;
      };
      return work({ repository, writer: this.writer, context, options, reasons, customReason });
    });
    if (sync) this.options.afterCommit?.();
    return result;
  }

  /**
   * A firm gets the four system reasons when it is created (and by migration 0012). Only Manual,
   * which the legacy paths and reassignment need and which cannot be deleted, is ensured here on
   * use: the others may be deleted by an administrator (section 3) and stay deleted.
   */
  async reasonsOf(repository: TradeBlockRepository, firmId: number): Promise<ReasonRow[]> {
    const rows = await repository.reasons(firmId);
    const missing = [SystemReason.Manual].filter((name) => !rows.some((r) => r.name === name && r.is_system_maintained === 1));
    if (missing.length === 0) return rows;
    const now = isoNow(this.clock);
    await repository.insertReasonsIfMissing(missing.map((name) => newReason({ firmId, userName: 'system' }, now, name, true)));
    return repository.reasons(firmId);
  }

  async firmOptions(repository: TradeBlockRepository, firmId: number): Promise<FirmOptions> {
    const options = await repository.firmOptions(firmId);
    if (!options) throw notFound('firm', firmId);
    return options;
  }

  async viewContext(firmId: number) {
    const options = await this.firmOptions(this.repository, firmId);
    return { firmId, dates: options.dates, today: isoNow(this.clock).slice(0, 10) };
  }

  async get(firmId: number, id: number): Promise<TradeBlockDetail> {
    const view = await this.repository.detailWithDateOption(firmId, id);
    if (!view) throw notFound('trade block detail', id);
    return detailDto(view, { firmId, dates: view.trade_block_dates === 1, today: isoNow(this.clock).slice(0, 10) });
  }

  /** Operation 2: the entity's blocks and those of related entities. */
  async forEntity(firmId: number, entityEnum: number, entityId: number, page: { top: number; skip: number }): Promise<{ items: TradeBlockDetail[]; total: number }> {
    const { accountIds, registrationIds } = await this.scope(firmId, entityEnum, entityId);
    const [{ rows, total }, context] = await Promise.all([
      this.repository.detailsOnEntitiesPage(firmId, accountIds, registrationIds, page),
      this.viewContext(firmId),
    ]);
    return { items: rows.map((view) => detailDto(view, context)), total };
  }

  /** Operation 8: the entity first, then its related entities. */
  async related(firmId: number, entityEnum: number, entityId: number): Promise<RelatedEntity[]> {
    const { items } = await this.scope(firmId, entityEnum, entityId);
    return items;
  }

  private async scope(firmId: number, entityEnum: number, entityId: number) {
    if (entityEnum === EntityEnum.Account) {
      const [account] = await this.repository.accounts(firmId, [entityId]);
      if (!account) throw notFound('account', entityId);
      const [registration] = await this.repository.registrations(firmId, [account.registration_id]);
      const items: RelatedEntity[] = [{ id: account.id, entityType: EntityEnum.Account, name: account.name }];
      if (registration) items.push({ id: registration.id, entityType: EntityEnum.Registration, name: registration.name });
      return { items, accountIds: [account.id], registrationIds: registration ? [registration.id] : [] };
    }
    if (entityEnum === EntityEnum.Registration) {
      const [registration] = await this.repository.registrations(firmId, [entityId]);
      if (!registration) throw notFound('registration', entityId);
      const accounts = await this.repository.accountsOfRegistration(firmId, entityId);
      const items: RelatedEntity[] = [
        { id: registration.id, entityType: EntityEnum.Registration, name: registration.name },
        ...accounts.map((a) => ({ id: a.id, entityType: EntityEnum.Account, name: a.name })),
      ];
      return { items, accountIds: accounts.map((a) => a.id), registrationIds: [registration.id] };
    }
    throw unsupported(entityEnum);
  }

  create(actor: Actor, items: unknown[], sync: boolean): Promise<TradeBlockResult> {
    return this.write(actor, sync, (deps) => createBatch(deps, items));
  }

  update(actor: Actor, items: unknown[], sync: boolean): Promise<TradeBlockResult> {
    return this.write(actor, sync, (deps) => updateBatch(deps, items));
  }

  /** Operation 5: a soft delete; deleting a deleted detail changes nothing. */
  async deleteOne(actor: Actor, id: number, sync: boolean): Promise<TradeBlockDetail> {
    return this.write(actor, sync, async ({ repository, context }) => {
      const view = await repository.detailById(actor.firmId, id);
      if (!view) throw notFound('trade block detail', id);
      if (view.is_deleted === 1) return detailDto(view, context.view);
      const [deleted] = await this.writer.change(repository, context, [{ view, columns: { is_deleted: 1 }, action: 'delete' }]);
      return deleted!;
    });
  }

  /** Operations 6 and 7: unknown keys come back failed; the others are soft-deleted. */
  async deleteMany(actor: Actor, keys: (number | string)[], by: 'id' | 'globalId', sync: boolean): Promise<TradeBlockResult> {
    return this.write(actor, sync, async ({ repository, context }) => {
      const wanted: (number | string)[] = by === 'id' ? keys : keys.map((k) => String(k).toLowerCase());
      const views =
        by === 'id'
          ? await repository.detailsByIds(actor.firmId, [...new Set(wanted.map(Number))])
          : await repository.detailsByGlobalIds(actor.firmId, [...new Set(wanted.map(String))]);
      const found = new Map<number | string, DetailView>(views.map((v) => [by === 'id' ? v.id : v.global_id, v]));
      const live = views.filter((v) => v.is_deleted === 0);
      const changed = await this.writer.change(repository, context, live.map((view) => ({ view, columns: { is_deleted: 1 }, action: 'delete' })));
      const already = views.filter((v) => v.is_deleted === 1).map((v) => detailDto(v, context.view));
      const failedTradeBlocks = [...new Set(wanted)]
        .filter((key) => !found.has(key))
        .map((key) => ({ [by]: key, errorMessage: `${by}: no trade block detail has ${by} ${key}` }));
      return { successfulTradeBlocks: [...changed, ...already], failedTradeBlocks };
    });
  }

  /** Operation 9 (rule 5): re-publish the active details of the accounts and their registrations. */
  async queueForAccounts(actor: Actor, accountIds: number[]) {
    if (accountIds.length === 0) throw validationError('accountIds', 'at least one account id is required');
    return this.write(actor, true, async ({ repository, context }) => {
      const accounts = await repository.accounts(actor.firmId, accountIds);
      const views = await repository.detailsOnEntities(
        actor.firmId,
        accounts.map((a) => a.id),
        [...new Set(accounts.map((a) => a.registration_id))],
      );
      const queuedEvents = await this.writer.republish(repository, context, views);
      const known = new Set(accounts.map((a) => a.id));
      return {
        queuedEvents,
        accountIds: [...known].sort((a, b) => a - b),
        notFoundAccountIds: [...new Set(accountIds)].filter((id) => !known.has(id)),
      };
    });
  }

  /** Item 10: active, non-disabled blocks of each account and its registration, for the engine. */
  engineBlocks(firmId: number, accountIds: number[], asOfDate = isoNow(this.clock).slice(0, 10)) {
    return tradeBlocksForEngine(this.repository, firmId, accountIds, asOfDate);
  }

  async history(firmId: number, id: number): Promise<HistoryEntry[]> {
    const view = await this.repository.detailById(firmId, id);
    if (!view) throw notFound('trade block detail', id);
    const rows = await this.repository.history(firmId, id);
    return rows.map((row) => ({
      id: row.id,
      tradeBlockId: row.detail_id,
      globalId: row.global_id,
      action: row.action,
      version: row.version,
      changedBy: row.changed_by,
      changedDate: row.changed_at,
      tradeBlock: JSON.parse(row.snapshot) as TradeBlockDetail,
    }));
  }
}

export function newReason(actor: Actor, now: string, name: string, system: boolean) {
  return {
    firm_id: actor.firmId,
    global_id: randomUUID(),
    name,
    is_system_maintained: system ? (1 as const) : (0 as const),
    allow_detail_assignment: 1 as const,
    created_at: now,
    created_by: actor.userName,
    edited_at: now,
    edited_by: actor.userName,
  };
}
