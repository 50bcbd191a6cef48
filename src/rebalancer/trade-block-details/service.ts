import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../../shared/clock.js';
import { mapPages, pagesById } from '../../shared/pages.js';
import { type FieldProblem, notFound, validationError, validationFailed } from '../../shared/errors.js';
import type { ClaimedMessage } from '../../outbox/repository.js';
import type { TradeBlockSyncEvent } from '../../trade-blocks/records.js';
import type { CopyRow, DetailFilter, RebalancerTradeBlockRepository } from './repository.js';
import { type V2Create, type V2Detail, type V2ListQuery, type V2Update, RelatedType, relatedTypeOf } from './schemas.js';

export interface Caller {
  firmId: number;
  userName: string;
}

export function v2Dto(row: CopyRow): V2Detail {
  return {
    id: row.id,
    globalId: row.global_id,
    relatedType: row.related_type,
    relatedTypeId: row.related_type_id,
    tradeBlockReasonId: row.reason_id,
    tradeBlockReasonName: row.reason_name,
    description: row.description,
    startDate: row.start_date,
    endDate: row.end_date,
    isDeleted: row.is_deleted === 1,
    createdBy: row.created_by,
    createdDate: row.created_at,
    editedBy: row.edited_by,
    editedDate: row.edited_at,
  };
}

const label = (relatedType: number) => (relatedType === RelatedType.Portfolio ? 'portfolio (registration)' : 'account');

/**
 * The rebalancing application's copy of trade block details: kept in step with the platform by
 * sync events, and served (and edited) through the v2 interface of section 9.3.
 */
export class RebalancerTradeBlockService {
  constructor(
    private readonly repository: RebalancerTradeBlockRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Applies one sync event. The log's unique event id makes a redelivered event a no-op, and the
   * version check keeps an older event from overwriting a newer state.
   */
  async applySyncEvent(message: ClaimedMessage): Promise<void> {
    const event = message.payload as TradeBlockSyncEvent;
    await this.repository.transaction(async (repository) => {
      const now = isoNow(this.clock);
      const fresh = await repository.logEvent({
        firm_id: message.firmId,
        event_id: message.id,
        global_id: event.globalId,
        version: event.version,
        outcome: 'applied',
        applied_at: now,
      });
      if (!fresh) return;
      const current = await repository.byGlobalId(message.firmId, event.globalId);
      if (current && current.source_version >= event.version) {
        await repository.setOutcome(message.id, 'stale');
        return;
      }
      const state = {
        related_type: relatedTypeOf(event.entityEnum),
        related_type_id: event.entityId,
        reason_id: event.reasonId,
        reason_name: event.reasonName,
        description: event.description,
        start_date: event.startDate,
        end_date: event.endDate,
        is_deleted: event.isDeleted ? (1 as const) : (0 as const),
        source_version: event.version,
        edited_at: event.editedDate,
        edited_by: event.editedBy,
      };
      if (current) await repository.update(current.id, state);
      else {
        await repository.insert([
          { firm_id: message.firmId, global_id: event.globalId, created_at: event.createdDate, created_by: event.createdBy, ...state },
        ]);
      }
    });
  }

  syncLog(firmId: number, globalId: string) {
    return this.repository.syncLog(firmId, globalId.toLowerCase());
  }

  /** Every detail the query selects, by id, a page at a time (shared/pages.ts). */
  /** Every matching detail in id order, read a page at a time. */
  list(firmId: number, filter: DetailFilter): AsyncGenerator<V2Detail[]> {
    return mapPages(pagesById((afterId, limit) => this.repository.list(firmId, filter, afterId, limit)), (rows) => rows.map(v2Dto));
  }

  /** The matching details from `$skip`, `$top` of them (all when not given), read a page at a time, with how many match. */
  async page(firmId: number, query: V2ListQuery): Promise<{ total: number; pages: AsyncGenerator<V2Detail[]> }> {
    const total = await this.repository.count(firmId, query);
    const rows = pagesById((afterId, limit, skip) => this.repository.list(firmId, query, afterId, limit, skip), { skip: query.$skip, top: query.$top });
    return { total, pages: mapPages(rows, (page) => page.map(v2Dto)) };
  }

  async get(firmId: number, id: number): Promise<V2Detail> {
    const row = await this.repository.byId(firmId, id);
    if (!row) throw notFound('trade block detail', id);
    return v2Dto(row);
  }

  /** AddList is all or nothing: a bad item is a 400 naming `[index].field`. */
  async create(caller: Caller, items: V2Create[], indexed: boolean): Promise<V2Detail[]> {
    const field = (index: number, name: string) => (indexed ? `[${index}].${name}` : name);
    return this.repository.transaction(async (repository) => {
      const problems: FieldProblem[] = [];
      const reasons = new Map((await repository.reasons(caller.firmId)).map((r) => [r.id, r.name]));
      const existing = new Map<number, Set<number>>();
      for (const type of [RelatedType.Portfolio, RelatedType.Account]) {
        existing.set(type, await repository.existingRelated(caller.firmId, type, items.filter((i) => i.relatedType === type).map((i) => i.relatedTypeId)));
      }
      const globalIds = new Set<string>();
      for (const [index, item] of items.entries()) {
        if (!existing.get(item.relatedType)!.has(item.relatedTypeId)) {
          problems.push({ field: field(index, 'relatedTypeId'), message: `${label(item.relatedType)} ${item.relatedTypeId} does not exist` });
        }
        if (!reasons.has(item.tradeBlockReasonId)) {
          problems.push({ field: field(index, 'tradeBlockReasonId'), message: `reason ${item.tradeBlockReasonId} does not exist` });
        }
        if (item.endDate && item.endDate <= item.startDate) {
          problems.push({ field: field(index, 'endDate'), message: `must be after startDate (${item.startDate})` });
        }
        const globalId = item.globalId?.toLowerCase();
        if (globalId && (globalIds.has(globalId) || (await repository.byGlobalId(caller.firmId, globalId)))) {
          problems.push({ field: field(index, 'globalId'), message: `${globalId} is already used by another trade block detail` });
        }
        if (globalId) globalIds.add(globalId);
      }
      if (problems.length > 0) throw validationFailed(problems);
      const now = isoNow(this.clock);
      const ids = await repository.insert(
        items.map((item) => ({
          firm_id: caller.firmId,
          global_id: item.globalId?.toLowerCase() ?? randomUUID(),
          related_type: item.relatedType,
          related_type_id: item.relatedTypeId,
          reason_id: item.tradeBlockReasonId,
          reason_name: reasons.get(item.tradeBlockReasonId)!,
          description: item.description,
          start_date: item.startDate,
          end_date: item.endDate ?? null,
          is_deleted: 0,
          source_version: 0,
          created_at: now,
          created_by: caller.userName,
          edited_at: now,
          edited_by: caller.userName,
        })),
      );
      return Promise.all(ids.map(async (id) => v2Dto((await repository.byId(caller.firmId, id))!)));
    });
  }

  async update(caller: Caller, input: V2Update): Promise<V2Detail> {
    return this.repository.transaction(async (repository) => {
      const row = await repository.byId(caller.firmId, input.id);
      if (!row) throw notFound('trade block detail', input.id);
      if (row.is_deleted === 1) throw validationError('id', `trade block detail ${input.id} is deleted`);
      const immutable: [keyof V2Update, number][] = [
        ['relatedType', row.related_type],
        ['relatedTypeId', row.related_type_id],
        ['tradeBlockReasonId', row.reason_id],
      ];
      for (const [name, stored] of immutable) {
        if (input[name] !== undefined && input[name] !== stored) throw validationError(name, `cannot be changed (it is ${stored})`);
      }
      const start = input.startDate ?? row.start_date;
      const end = input.endDate === undefined ? row.end_date : input.endDate;
      if (end !== null && end <= start) throw validationError('endDate', `must be after startDate (${start})`);
      const now = isoNow(this.clock);
      const columns = { description: input.description ?? row.description, start_date: start, end_date: end, edited_at: now, edited_by: caller.userName };
      await repository.update(row.id, columns);
      return v2Dto({ ...row, ...columns });
    });
  }

  async delete(caller: Caller, id: number): Promise<V2Detail> {
    return this.repository.transaction(async (repository) => {
      const row = await repository.byId(caller.firmId, id);
      if (!row) throw notFound('trade block detail', id);
      if (row.is_deleted === 1) return v2Dto(row);
      const columns = { is_deleted: 1 as const, edited_at: isoNow(this.clock), edited_by: caller.userName };
      await repository.update(row.id, columns);
      return v2Dto({ ...row, ...columns });
    });
  }
}
