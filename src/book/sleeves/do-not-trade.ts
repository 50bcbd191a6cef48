import { randomUUID } from 'node:crypto';
import { isoNow } from '../../shared/clock.js';
import { type FieldProblem, validationFailed } from '../../shared/errors.js';
import type { BatchDeps } from '../../trade-blocks/batch.js';
import { SystemReason, detailDto, isOutsideRange } from '../../trade-blocks/records.js';
import type { DetailView } from '../../trade-blocks/repository.js';
import { EntityEnum } from '../../trade-blocks/schemas.js';
import type { TradeBlockService } from '../../trade-blocks/service.js';
import type { Actor } from '../../trade-blocks/writes.js';
import type { DoNotTradeItem, DoNotTradeState } from './schemas.js';

const isSystem = (view: DetailView, name: string) => view.reason_system === 1 && view.reason_name === name;

/**
 * Registration-level do-not-trade over several sleeved registrations, the way the legacy account
 * flag works (section 4.2 rules 6 and 7): with multi trade block on, true adds a Manual block on
 * the registration and false removes its deletable blocks (all but OCI); with it off, the legacy
 * `registrations.do_not_trade` flag is set. Either way the engine sees a registration block.
 */
export class SleeveDoNotTrade {
  constructor(private readonly tradeBlocks: TradeBlockService) {}

  /** All or nothing: every registration must exist in the firm and be sleeved before any changes. */
  update(actor: Actor, items: DoNotTradeItem[], sync: boolean): Promise<DoNotTradeState[]> {
    return this.tradeBlocks.write(actor, sync, async (deps) => {
      const registrations = new Map((await deps.repository.registrations(actor.firmId, items.map((i) => i.registrationId))).map((r) => [r.id, r]));
      const problems: FieldProblem[] = [];
      const seen = new Map<number, number>();
      items.forEach((item, index) => {
        const field = `[${index}].registrationId`;
        const registration = registrations.get(item.registrationId);
        if (!registration) problems.push({ field, message: `registration ${item.registrationId} does not exist` });
        else if (registration.is_sleeved !== 1) problems.push({ field, message: `registration ${item.registrationId} is not sleeved; registration-level do-not-trade applies to sleeved registrations only` });
        if (seen.has(item.registrationId)) problems.push({ field, message: `registration ${item.registrationId} is listed twice (also [${seen.get(item.registrationId)}])` });
        seen.set(item.registrationId, index);
      });
      if (problems.length > 0) throw validationFailed(problems);
      const states: DoNotTradeState[] = [];
      for (const item of items) states.push(await this.apply(deps, registrations.get(item.registrationId)!, item.doNotTrade));
      return states;
    });
  }

  /** Whether the registration's rebalancing is stopped today: an active registration block, or the legacy flag. */
  async isBlocked(firmId: number, registration: { id: number; do_not_trade: number }): Promise<boolean> {
    const repository = this.tradeBlocks.repository;
    const options = await repository.firmOptions(firmId);
    if (!options?.multiTradeBlock) return registration.do_not_trade === 1;
    const today = isoNow(this.tradeBlocks.clock).slice(0, 10);
    const live = await repository.detailsOnEntities(firmId, [], [registration.id]);
    return live.some((v) => !(options.dates && isOutsideRange(v.start_date, v.end_date, today)));
  }

  private async apply(deps: BatchDeps, registration: { id: number; name: string }, blocked: boolean): Promise<DoNotTradeState> {
    const { repository, context, options, reasons, writer } = deps;
    const { actor } = context;
    if (!options.multiTradeBlock) {
      await repository.setLegacyFlag(actor.firmId, EntityEnum.Registration, [registration.id], blocked, context.now, actor.userName);
      return { registrationId: registration.id, doNotTrade: blocked, tradeBlocks: [] };
    }
    const live = await repository.detailsOnEntities(actor.firmId, [], [registration.id]);
    const active = (view: DetailView) => !(context.view.dates && isOutsideRange(view.start_date, view.end_date, context.view.today));
    if (blocked && !live.some((v) => isSystem(v, SystemReason.Manual) && active(v))) {
      const manual = reasons.find((r) => r.name === SystemReason.Manual && r.is_system_maintained === 1)!;
      await writer.insert(repository, context, [
        {
          globalId: randomUUID(),
          entityEnum: EntityEnum.Registration,
          entityId: registration.id,
          entityName: registration.name,
          reason: manual,
          description: 'Do not trade (sleeve registrations batch)',
          startDate: context.view.today,
          endDate: null,
        },
      ]);
    } else if (!blocked) {
      const doomed = live.filter((v) => !isSystem(v, SystemReason.OCI));
      await writer.change(repository, context, doomed.map((view) => ({ view, columns: { is_deleted: 1 }, action: 'delete' as const })));
    }
    const after = (await repository.detailsOnEntities(actor.firmId, [], [registration.id])).map((v) => detailDto(v, context.view));
    return { registrationId: registration.id, doNotTrade: after.some((d) => !d.isDisabled), tradeBlocks: after };
  }
}
