import type { TradeBlock } from '../engine/types.js';
import { SystemReason, isOutsideRange } from './records.js';
import type { FirmOptions, TradeBlockRepository } from './repository.js';
import { type EntityCode, EntityEnum } from './schemas.js';

/**
 * The engine's trade block input (AccountSnapshot.tradeBlocks): for each account, the active
 * blocks of the account and of its registration, with date ranges judged against the run's
 * business date (only when the firm's date option is on). Deleted and disabled blocks are left
 * out. Without multi trade block the legacy flags stand in as one Manual block each (id 0).
 */
export async function tradeBlocksForEngine(
  repository: TradeBlockRepository,
  firmId: number,
  accountIds: number[],
  asOfDate: string,
): Promise<Map<number, TradeBlock[]>> {
  const options = await repository.firmOptions(firmId);
  const accounts = await repository.accounts(firmId, accountIds);
  const out = options ? await tradeBlocksOf(repository, firmId, options, accounts, asOfDate) : new Map<number, TradeBlock[]>();
  for (const id of accountIds) if (!out.has(id)) out.set(id, []);
  return out;
}

/**
 * The same for accounts the caller has already read (the rebalance loader reads each account
 * once), with the firm's options read once per batch.
 */
export async function tradeBlocksOf(
  repository: TradeBlockRepository,
  firmId: number,
  options: FirmOptions,
  accounts: readonly { id: number; registration_id: number; is_trading_blocked: number }[],
  asOfDate: string,
): Promise<Map<number, TradeBlock[]>> {
  const out = new Map<number, TradeBlock[]>(accounts.map((a) => [a.id, []]));

  if (!options.multiTradeBlock) {
    const registrations = new Map((await repository.registrations(firmId, accounts.map((a) => a.registration_id))).map((r) => [r.id, r]));
    for (const account of accounts) {
      const registration = registrations.get(account.registration_id);
      const legacy = (entityEnum: EntityCode, entityId: number, what: string): TradeBlock => ({
        id: 0,
        entityEnum,
        entityId,
        reason: SystemReason.Manual,
        description: `${what} flag`,
        startDate: asOfDate,
      });
      const blocks: TradeBlock[] = [];
      if (account.is_trading_blocked === 1) blocks.push(legacy(EntityEnum.Account, account.id, 'isTradingBlocked'));
      if (registration?.do_not_trade === 1) blocks.push(legacy(EntityEnum.Registration, registration.id, 'do-not-trade'));
      out.set(account.id, blocks);
    }
    return out;
  }

  const views = await repository.liveBlocksOnEntities(firmId, accounts.map((a) => a.id), [...new Set(accounts.map((a) => a.registration_id))]);
  // Blocks by their entity, then each account takes its own and its registration's: linear in
  // accounts plus blocks (a firm-wide scan per account cost seconds with thousands of blocks).
  const onAccount = new Map<number, TradeBlock[]>();
  const onRegistration = new Map<number, TradeBlock[]>();
  for (const v of views) {
    if (options.dates && isOutsideRange(v.start_date, v.end_date, asOfDate)) continue;
    const block: TradeBlock = {
      id: v.id,
      entityEnum: v.entity_enum as EntityCode,
      entityId: v.entity_id,
      reason: v.reason_name,
      description: v.description,
      startDate: v.start_date,
      endDate: v.end_date,
      isDeleted: false,
      isDisabled: false,
    };
    const byEntity = v.entity_enum === EntityEnum.Account ? onAccount : onRegistration;
    const list = byEntity.get(v.entity_id);
    if (list) list.push(block);
    else byEntity.set(v.entity_id, [block]);
  }
  for (const account of accounts) {
    // Views come in id order; merging the two lists by id keeps the order the engine saw before.
    const blocks = [...(onAccount.get(account.id) ?? []), ...(onRegistration.get(account.registration_id) ?? [])].sort((a, b) => a.id - b.id);
    out.set(account.id, blocks);
  }
  return out;
}
