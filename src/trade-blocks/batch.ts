import { randomUUID } from 'node:crypto';
import { detailDto, reasonDto } from './records.js';
import type { DetailView, FirmOptions, ReasonRow, TradeBlockRepository } from './repository.js';
import { EntityEnum, type FailedTradeBlock, type TradeBlockDetail, type TradeBlockResult } from './schemas.js';
import { type CreateItem, checkCreateItem, checkUpdateItem } from './validation.js';
import type { Change, DetailWriter, NewDetail, WriteContext } from './writes.js';

/**
 * Batch create and update (operations 3 and 4): every item is checked on its own; the good ones
 * are written in the caller's transaction and the bad ones come back with an errorMessage.
 */

const failure = (raw: unknown, message: string): FailedTradeBlock => {
  const base = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : { value: raw };
  return { ...base, errorMessage: message };
};

const absent = (value: unknown) => value === undefined || value === null;

export interface BatchDeps {
  repository: TradeBlockRepository;
  writer: DetailWriter;
  context: WriteContext;
  options: FirmOptions;
  reasons: ReasonRow[];
  /** Creates (or finds) a custom reason by name; only with the custom-types firm option. */
  customReason(name: string): Promise<ReasonRow>;
}

function findReason(reasons: ReasonRow[], ref: CreateItem['reason']): ReasonRow | string | undefined {
  if ('id' in ref) return reasons.find((r) => r.id === ref.id) ?? `tradeBlockReasonId: reason ${ref.id} does not exist`;
  const { id, globalId, name } = ref.nested;
  if (id) return reasons.find((r) => r.id === id) ?? `tradeBlockReason.id: reason ${id} does not exist`;
  if (globalId) return reasons.find((r) => r.global_id === globalId) ?? `tradeBlockReason.globalId: reason ${globalId} does not exist`;
  // A name not yet known becomes a new custom reason at write time.
  return reasons.find((r) => r.name.toLowerCase() === name!.toLowerCase());
}

export async function createBatch(deps: BatchDeps, items: unknown[]): Promise<TradeBlockResult> {
  const { repository, context, options, reasons } = deps;
  const firmId = context.actor.firmId;
  const checked = items.map((raw) => checkCreateItem(raw, options.customTypes));
  const valid = checked.flatMap((c) => (c.ok ? [c.value] : []));
  const ids = (code: number) => valid.filter((v) => v.entityEnum === code).map((v) => v.entityId);
  const accounts = new Map((await repository.accounts(firmId, ids(EntityEnum.Account))).map((a) => [a.id, a]));
  const registrations = new Map((await repository.registrations(firmId, ids(EntityEnum.Registration))).map((r) => [r.id, r]));
  const taken = await repository.existingGlobalIds(firmId, valid.flatMap((v) => (v.globalId ? [v.globalId] : [])));

  const failed: FailedTradeBlock[] = [];
  const accepted: { item: CreateItem; reason: ReasonRow | undefined; entityName: string }[] = [];
  checked.forEach((result, index) => {
    const raw = items[index];
    if (!result.ok) return failed.push(failure(raw, result.message));
    const item = result.value;
    const problems: string[] = [];
    const account = item.entityEnum === EntityEnum.Account ? accounts.get(item.entityId) : undefined;
    const registration = item.entityEnum === EntityEnum.Registration ? registrations.get(item.entityId) : undefined;
    if (!account && !registration) {
      problems.push(`entityId: ${item.entityEnum === EntityEnum.Account ? 'account' : 'registration'} ${item.entityId} does not exist`);
    }
    const reason = findReason(reasons, item.reason);
    if (typeof reason === 'string') problems.push(reason);
    else if (reason && reason.allow_detail_assignment !== 1) {
      problems.push(`tradeBlockReasonId: reason ${reason.name} does not allow detail assignment`);
    }
    if (item.globalId) {
      if (taken.has(item.globalId)) problems.push(`globalId: ${item.globalId} is already used by another trade block detail`);
      taken.add(item.globalId);
    }
    if (problems.length > 0) return failed.push(failure(raw, problems.join('; ')));
    // Rule 3: a registration block for a registration that is not sleeved is silently dropped on
    // create: neither stored nor reported as failed (as the spec says), so it does not turn a good batch into a 207.
    if (registration && registration.is_sleeved !== 1) return;
    accepted.push({ item, reason: typeof reason === 'string' ? undefined : reason, entityName: (account ?? registration)!.name });
  });

  const fresh: NewDetail[] = [];
  for (const { item, reason, entityName } of accepted) {
    const resolved = reason ?? (await deps.customReason((item.reason as { nested: { name: string } }).nested.name));
    fresh.push({
      globalId: item.globalId ?? randomUUID(),
      entityEnum: item.entityEnum,
      entityId: item.entityId,
      entityName,
      reason: resolved,
      description: item.description,
      startDate: item.startDate,
      endDate: item.endDate,
    });
  }
  const successful = options.multiTradeBlock ? await deps.writer.insert(repository, context, fresh) : await legacyCreate(deps, fresh);
  return { successfulTradeBlocks: successful, failedTradeBlocks: failed };
}

/** Rule 6: without multi trade block, a block is the entity's legacy flag and no record is kept. */
async function legacyCreate({ repository, context }: BatchDeps, fresh: NewDetail[]): Promise<TradeBlockDetail[]> {
  const { actor, now } = context;
  for (const code of [EntityEnum.Account, EntityEnum.Registration]) {
    const ids = fresh.filter((f) => f.entityEnum === code).map((f) => f.entityId);
    await repository.setLegacyFlag(actor.firmId, code, [...new Set(ids)], true, now, actor.userName);
  }
  return fresh.map((f) => ({
    ...detailDto(
      {
        id: 0,
        firm_id: actor.firmId,
        global_id: f.globalId,
        entity_enum: f.entityEnum,
        entity_id: f.entityId,
        reason_id: f.reason.id,
        description: f.description,
        start_date: f.startDate,
        end_date: f.endDate,
        is_deleted: 0,
        version: 0,
        created_at: now,
        created_by: actor.userName,
        edited_at: now,
        edited_by: actor.userName,
        reason_name: f.reason.name,
        reason_global_id: f.reason.global_id,
        reason_system: f.reason.is_system_maintained,
        reason_assignable: f.reason.allow_detail_assignment,
        account_name: f.entityName,
        registration_name: f.entityName,
      },
      context.view,
    ),
    globalId: null,
    tradeBlockReason: reasonDto(f.reason, actor.firmId),
  }));
}

export async function updateBatch(deps: BatchDeps, items: unknown[]): Promise<TradeBlockResult> {
  const { repository, context } = deps;
  const checked = items.map((raw) => checkUpdateItem(raw));
  const globalIds = checked.flatMap((c) => (c.ok ? [c.value.globalId] : []));
  const stored = new Map((await repository.detailsByGlobalIds(context.actor.firmId, [...new Set(globalIds)])).map((v) => [v.global_id, v]));
  const seen = new Set<string>();
  const failed: FailedTradeBlock[] = [];
  const unchanged: DetailView[] = [];
  const changes: Change[] = [];
  checked.forEach((result, index) => {
    const raw = items[index];
    if (!result.ok) return failed.push(failure(raw, result.message));
    const item = result.value;
    const view = stored.get(item.globalId);
    if (!view) return failed.push(failure(raw, `globalId: no trade block detail has globalId ${item.globalId}`));
    if (seen.has(item.globalId)) return failed.push(failure(raw, `globalId: ${item.globalId} appears more than once in this batch`));
    seen.add(item.globalId);
    if (view.is_deleted === 1) return failed.push(failure(raw, `globalId: trade block detail ${item.globalId} is deleted`));
    const problems: string[] = [];
    if (item.id !== undefined && item.id !== view.id) problems.push(`id: ${item.id} is not the id of globalId ${item.globalId} (${view.id})`);
    // Rule 4: only description and the dates may change.
    if (!absent(item.entityEnum) && item.entityEnum !== view.entity_enum) problems.push(`entityEnum: cannot be changed on update (it is ${view.entity_enum})`);
    if (!absent(item.entityId) && item.entityId !== view.entity_id) problems.push(`entityId: cannot be changed on update (it is ${view.entity_id})`);
    if (!absent(item.tradeBlockReasonId) && item.tradeBlockReasonId !== 0 && item.tradeBlockReasonId !== view.reason_id) {
      problems.push(`tradeBlockReasonId: cannot be changed on update (it is ${view.reason_id})`);
    }
    if (!absent(item.nestedReasonId) && item.nestedReasonId !== 0 && item.nestedReasonId !== view.reason_id) {
      problems.push(`tradeBlockReason: cannot be changed on update (it is reason ${view.reason_id})`);
    }
    const description = item.description ?? view.description;
    const start = item.startDate ?? view.start_date;
    const end = item.endDate === undefined ? view.end_date : item.endDate;
    if (end !== null && end <= start) problems.push(`endDate: must be after startDate (${start})`);
    if (problems.length > 0) return failed.push(failure(raw, problems.join('; ')));
    if (description === view.description && start === view.start_date && end === view.end_date) return unchanged.push(view);
    changes.push({ view, action: 'update', columns: { description, start_date: start, end_date: end } });
  });
  const written = await deps.writer.change(repository, context, changes);
  const byGlobalId = new Map([...written, ...unchanged.map((v) => detailDto(v, context.view))].map((d) => [d.globalId, d]));
  // Successful items come back in the order they were sent.
  const successful = checked.flatMap((c) => (c.ok && byGlobalId.has(c.value.globalId) ? [byGlobalId.get(c.value.globalId)!] : []));
  return { successfulTradeBlocks: dedupe(successful), failedTradeBlocks: failed };
}

const dedupe = (details: TradeBlockDetail[]) => [...new Map(details.map((d) => [d.id, d])).values()];
