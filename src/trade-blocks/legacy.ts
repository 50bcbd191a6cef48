import { randomUUID } from 'node:crypto';
import { notFound, validationFailed } from '../shared/errors.js';
import type { BatchDeps } from './batch.js';
import { SystemReason, detailDto, isOutsideRange } from './records.js';
import type { DetailView } from './repository.js';
import { EntityEnum, type TradeBlockDetail } from './schemas.js';
import type { TradeBlockService } from './service.js';
import type { Actor } from './writes.js';

export interface AccountBlockState {
  accountId: number;
  isTradingBlocked: boolean;
  /** The account's own live details (empty without multi trade block). */
  tradeBlocks: TradeBlockDetail[];
  /** Whether the account is a separately managed account, as stored. */
  isSma: boolean;
}

/**
 * What "set false" removes: the legacy account paths remove the Manual blocks they made;
 * updateDoNotTrade removes every deletable block, which is all but OCI (spec 2.5).
 */
export type Removal = 'manual' | 'allButOci';

const isSystem = (view: DetailView, name: string) => view.reason_system === 1 && view.reason_name === name;

/** Rule 7: the legacy account endpoints, routed to Manual details when multi trade block is on. */
export class LegacyAccountService {
  constructor(private readonly tradeBlocks: TradeBlockService) {}

  setTradingBlocked(actor: Actor, accountId: number, blocked: boolean | undefined, removal: Removal, source: string, sync = true) {
    return this.tradeBlocks.write(actor, sync, (deps) => this.apply(deps, accountId, blocked, removal, source));
  }

  /** UpdateDoNotTradeAndSma: the trade block flag as above, and `isSma` stored when given, in one transaction. */
  setTradingBlockedAndSma(actor: Actor, accountId: number, blocked: boolean | undefined, isSma: boolean | undefined, sync = true) {
    return this.tradeBlocks.write(actor, sync, async (deps) => {
      if (isSma !== undefined && (await deps.repository.accounts(actor.firmId, [accountId])).length > 0) {
        await deps.repository.setSma(actor.firmId, accountId, isSma, deps.context.now, actor.userName);
      }
      return this.apply(deps, accountId, blocked, 'manual', 'UpdateDoNotTradeAndSma');
    });
  }

  /** All or nothing: every account must exist before any is changed. */
  updateDoNotTrade(actor: Actor, items: { id: number; blocked: boolean }[], sync = true) {
    return this.tradeBlocks.write(actor, sync, async (deps) => {
      const known = new Set((await deps.repository.accounts(actor.firmId, items.map((i) => i.id))).map((a) => a.id));
      const problems = items.flatMap((item, index) => (known.has(item.id) ? [] : [{ field: `[${index}].id`, message: `account ${item.id} does not exist` }]));
      if (problems.length > 0) throw validationFailed(problems);
      const states: AccountBlockState[] = [];
      for (const item of items) states.push(await this.apply(deps, item.id, item.blocked, 'allButOci', 'updateDoNotTrade'));
      return states;
    });
  }

  private async apply(deps: BatchDeps, accountId: number, blocked: boolean | undefined, removal: Removal, source: string): Promise<AccountBlockState> {
    const { repository, context, options, reasons, writer } = deps;
    const { actor } = context;
    const [account] = await repository.accounts(actor.firmId, [accountId]);
    if (!account) throw notFound('account', accountId);
    if (!options.multiTradeBlock) {
      if (blocked !== undefined) await repository.setLegacyFlag(actor.firmId, EntityEnum.Account, [accountId], blocked, context.now, actor.userName);
      return { accountId, isTradingBlocked: blocked ?? account.is_trading_blocked === 1, tradeBlocks: [], isSma: account.is_sma === 1 };
    }
    const live = await repository.detailsOnEntities(actor.firmId, [accountId], []);
    const active = (view: DetailView) => !(context.view.dates && isOutsideRange(view.start_date, view.end_date, context.view.today));
    if (blocked === true && !live.some((v) => isSystem(v, SystemReason.Manual) && active(v))) {
      const manual = reasons.find((r) => r.name === SystemReason.Manual && r.is_system_maintained === 1)!;
      await writer.insert(repository, context, [
        {
          globalId: randomUUID(),
          entityEnum: EntityEnum.Account,
          entityId: accountId,
          entityName: account.name,
          reason: manual,
          description: `Trading blocked (${source})`,
          startDate: context.view.today,
          endDate: null,
        },
      ]);
    } else if (blocked === false) {
      const doomed = live.filter((v) => (removal === 'manual' ? isSystem(v, SystemReason.Manual) : !isSystem(v, SystemReason.OCI)));
      await writer.change(repository, context, doomed.map((view) => ({ view, columns: { is_deleted: 1 }, action: 'delete' as const })));
    }
    const after = (await repository.detailsOnEntities(actor.firmId, [accountId], [])).map((v) => detailDto(v, context.view));
    return { accountId, isTradingBlocked: after.some((d) => !d.isDisabled), tradeBlocks: after, isSma: account.is_sma === 1 };
  }
}
