import type { Insertable } from 'kysely';
import type { TradeBlockHistoryTable } from '../db/schema.js';
import type { OutboxMessage } from '../outbox/repository.js';
import { type ViewContext, TRADE_BLOCK_SYNC_TOPIC, detailDto, publishes, syncEvent } from './records.js';
import type { DetailRow, DetailView, ReasonRow, TradeBlockRepository } from './repository.js';
import { EntityEnum, type TradeBlockDetail } from './schemas.js';

export interface Actor {
  firmId: number;
  userName: string;
}

/** Everything one write needs: who, when, how to render, and whether to publish sync events. */
export interface WriteContext {
  actor: Actor;
  now: string;
  view: ViewContext;
  sync: boolean;
}

export interface NewDetail {
  globalId: string;
  entityEnum: number;
  entityId: number;
  entityName: string;
  reason: ReasonRow;
  description: string;
  startDate: string;
  endDate: string | null;
}

export type DetailChange = Partial<Pick<DetailRow, 'description' | 'start_date' | 'end_date' | 'is_deleted' | 'reason_id'>>;

export interface Change {
  view: DetailView;
  columns: DetailChange;
  action: 'update' | 'delete' | 'reassign';
  /** Set when the reason changes, so the new view and the event name it. */
  reason?: ReasonRow;
}

/**
 * Every write of a detail goes through here, inside the caller's transaction: the row, its
 * history entry and (unless suppressed) its sync event commit together or not at all.
 */
export class DetailWriter {
  async insert(repository: TradeBlockRepository, context: WriteContext, items: NewDetail[]): Promise<TradeBlockDetail[]> {
    if (items.length === 0) return [];
    const { actor, now } = context;
    const audit = { created_at: now, created_by: actor.userName, edited_at: now, edited_by: actor.userName };
    const rows = items.map((item) => ({
      firm_id: actor.firmId,
      global_id: item.globalId,
      entity_enum: item.entityEnum,
      entity_id: item.entityId,
      reason_id: item.reason.id,
      description: item.description,
      start_date: item.startDate,
      end_date: item.endDate,
      is_deleted: 0 as const,
      version: 1,
      ...audit,
    }));
    const ids = await repository.insertDetails(rows);
    // The view is the stored row plus what the read joins in; nothing is read back.
    const views: DetailView[] = rows.map((row, i) => ({
      ...row,
      id: ids.get(row.global_id)!,
      ...reasonColumns(items[i]!.reason),
      account_name: row.entity_enum === EntityEnum.Account ? items[i]!.entityName : null,
      registration_name: row.entity_enum === EntityEnum.Registration ? items[i]!.entityName : null,
    }));
    return this.record(repository, context, views.map((view) => ({ view, action: 'create' as const, publish: publishes(item(view)) })));
  }

  async change(repository: TradeBlockRepository, context: WriteContext, changes: Change[]): Promise<TradeBlockDetail[]> {
    const { actor, now } = context;
    const recorded: { view: DetailView; action: Change['action']; publish: boolean }[] = [];
    // Details given the same columns at the same version are written by one statement (a delete of
    // 10,000 details, a deleted reason's every detail moved to Manual), not one each.
    const writes = new Map<string, { columns: DetailChange & { version: number }; ids: number[] }>();
    for (const change of changes) {
      const view: DetailView = {
        ...change.view,
        ...change.columns,
        ...(change.reason ? reasonColumns(change.reason) : {}),
        version: change.view.version + 1,
        edited_at: now,
        edited_by: actor.userName,
      };
      const columns = { ...change.columns, version: view.version };
      const key = JSON.stringify(columns);
      const write = writes.get(key);
      if (write) write.ids.push(view.id);
      else writes.set(key, { columns, ids: [view.id] });
      recorded.push({ view, action: change.action, publish: publishes(item(view)) });
    }
    for (const { columns, ids } of writes.values()) await repository.updateDetails(ids, { ...columns, edited_at: now, edited_by: actor.userName });
    return this.record(repository, context, recorded);
  }

  /** Re-publishes the current state of details (QueueForAccountIds); no history, no version bump. */
  async republish(repository: TradeBlockRepository, context: WriteContext, views: DetailView[]): Promise<number> {
    const messages = views.filter((view) => publishes(item(view))).map((view) => message(context.actor.firmId, view));
    await repository.enqueue(messages, context.now);
    return messages.length;
  }

  private async record(
    repository: TradeBlockRepository,
    context: WriteContext,
    entries: { view: DetailView; action: TradeBlockHistoryTable['action']; publish: boolean }[],
  ): Promise<TradeBlockDetail[]> {
    const { actor, now } = context;
    const dtos = entries.map((entry) => detailDto(entry.view, context.view));
    const history: Insertable<TradeBlockHistoryTable>[] = entries.map((entry, i) => ({
      firm_id: actor.firmId,
      detail_id: entry.view.id,
      global_id: entry.view.global_id,
      action: entry.action,
      version: entry.view.version,
      snapshot: JSON.stringify(dtos[i]),
      changed_by: actor.userName,
      changed_at: now,
    }));
    await repository.insertHistory(history);
    if (context.sync) {
      await repository.enqueue(
        entries.filter((entry) => entry.publish).map((entry) => message(actor.firmId, entry.view)),
        now,
      );
    }
    return dtos;
  }
}

function reasonColumns(reason: ReasonRow) {
  return {
    reason_name: reason.name,
    reason_global_id: reason.global_id,
    reason_system: reason.is_system_maintained,
    reason_assignable: reason.allow_detail_assignment,
  };
}

const item = (view: DetailView) => ({ name: view.reason_name, is_system_maintained: view.reason_system });

const message = (firmId: number, view: DetailView): OutboxMessage => ({
  firmId,
  topic: TRADE_BLOCK_SYNC_TOPIC,
  payload: syncEvent(view),
});
