import type { Principal } from '../auth/service.js';
import { notFound, validationError } from '../shared/errors.js';
import { SystemReason, reasonDto } from './records.js';
import type { ReasonRecord, ReasonUpdate } from './schemas.js';
import type { TradeBlockService } from './service.js';

const systemMaintained = (field: string, name: string) =>
  validationError(field, `reason ${name} is system-maintained and cannot be changed`);

/** Trade block reasons (operations 10 to 13). */
export class TradeBlockReasonService {
  constructor(private readonly details: TradeBlockService) {}

  async list(firmId: number): Promise<ReasonRecord[]> {
    const rows = await this.details.repository.transaction((repository) => this.details.reasonsOf(repository, firmId));
    return rows.map((row) => reasonDto(row, firmId));
  }

  async simple(firmId: number) {
    return (await this.list(firmId)).map(({ id, name }) => ({ id, name }));
  }

  async update(principal: Principal, input: ReasonUpdate): Promise<ReasonRecord> {
    if (!input.globalId && !input.id) throw validationError('globalId', 'is required (or id) to name the reason to update');
    return this.details.write(principal, false, async ({ repository, context, reasons }) => {
      const reason = input.globalId
        ? reasons.find((r) => r.global_id === input.globalId!.toLowerCase())
        : reasons.find((r) => r.id === input.id);
      if (!reason) throw notFound('trade block reason', input.globalId ?? input.id!);
      if (input.globalId && input.id && input.id !== reason.id) {
        throw validationError('id', `${input.id} is not the id of reason ${input.globalId} (${reason.id})`);
      }
      if (reason.is_system_maintained === 1) throw systemMaintained(input.globalId ? 'globalId' : 'id', reason.name);
      const name = input.name?.trim() ?? reason.name;
      if (name === '') throw validationError('name', 'must not be blank');
      if (reasons.some((r) => r.id !== reason.id && r.name.toLowerCase() === name.toLowerCase())) {
        throw validationError('name', `${name} is already used by another reason`);
      }
      const allow = input.allowDetailAssignment === undefined ? reason.allow_detail_assignment : input.allowDetailAssignment ? 1 : 0;
      await repository.updateReason(reason.id, { name, allow_detail_assignment: allow, edited_at: context.now, edited_by: principal.userName });
      return reasonDto({ ...reason, name, allow_detail_assignment: allow }, principal.firmId);
    });
  }

  /** Section 3: the reason goes, a system one too (Manual excepted); its details are reassigned to Manual (and synced as such). */
  async delete(principal: Principal, globalId: string, sync = true) {
    return this.details.write(principal, sync, async ({ repository, context, reasons }) => {
      const reason = reasons.find((r) => r.global_id === globalId.toLowerCase());
      if (!reason) throw notFound('trade block reason', globalId);
      // Section 3 removes any reason an administrator names; Manual stays, as every reassignment lands on it.
      if (reason.is_system_maintained === 1 && reason.name === SystemReason.Manual) {
        throw validationError('tradeBlockReasonGlobalId', 'reason Manual cannot be deleted: the details of deleted reasons are reassigned to it');
      }
      const manual = reasons.find((r) => r.name === SystemReason.Manual && r.is_system_maintained === 1)!;
      const views = await repository.detailsWithReason(principal.firmId, reason.id);
      await this.details.writer.change(
        repository,
        context,
        views.map((view) => ({ view, columns: { reason_id: manual.id }, action: 'reassign' as const, reason: manual })),
      );
      await repository.deleteReason(reason.id);
      return { globalId: reason.global_id, name: reason.name, reassignedTradeBlocks: views.length, reassignedTo: manual.id };
    });
  }
}
