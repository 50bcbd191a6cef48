// A chunk's accounts through the engine, and what it found as the rows the chunk writes: plain
// data in (the batch's request, the firm's context, the chunk's reads), rows out. Nothing here
// touches the database, so it runs where the queue puts it: inline in a PostgreSQL worker, in a
// thread of its own beside SQLite's (plan-thread.ts).

import {
  type AccountResult,
  type AccountSnapshot,
  type RegistrationSnapshot,
  rebalanceAccount,
  rebalanceHousehold,
  rebalanceRegistration,
  type TaxOptions,
  errorResult,
  TAX_INFO_CODES,
  SUBSTITUTED,
  EARLIER_ORDERS_COUNTED,
  unknownAccountResult,
} from '../engine/index.js';
import { SYSTEM_SLEEVE_TYPES } from '../book/sleeves/schemas.js';
import { EntityEnum } from '../shared/entity-enum.js';
import { CENTS_PER_DOLLAR, MICROS } from '../shared/money.js';
import type { NewMessage, NewTaxSummary, NewTransfer, TradeRow } from './trade-writes-repository.js';
import { type AccountRow, type ChunkReads, type FirmContext, type LoadedAccount, snapshotsOf } from './chunk-reads.js';
import { forgetLots } from './position-lots.js';
import type { BatchPlan, StoredRequest } from './request.js';
import type { TaxInputs } from './tax-inputs-repository.js';
import { encodeTradeLots } from './trade-lots-codec.js';

/** What a chunk writes besides its counters. */
export interface ChunkRows {
  trades: TradeRow[];
  messages: NewMessage[];
  transfers: NewTransfer[];
  taxSummaries: NewTaxSummary[];
}

const isSystemSleeve = (row: AccountRow) => row.sleeve_type !== null && SYSTEM_SLEEVE_TYPES.includes(row.sleeve_type);

function failure(accountId: number, request: StoredRequest, error: unknown): AccountResult {
  const result = unknownAccountResult(accountId, request.reason);
  return { ...result, messages: [{ accountId, severity: 'Error', code: 'ENGINE_ERROR', message: `account ${accountId} could not be rebalanced: ${(error as Error).message}` }] };
}

/** A substitution applied in an account that bought or sold the substitute in this run. */
function explainsATrade(message: AccountResult['messages'][number], result: AccountResult): boolean {
  if (message.code !== SUBSTITUTED) return false;
  const accountId = message.accountId ?? result.accountId;
  return result.trades.some((trade) => trade.productId === message.productId && trade.accountId === accountId);
}

/**
 * The chunk's accounts planned: each account, each household (tax-aware) or each registration
 * (level Registration) through the engine, in the order of `keys`. An account the engine cannot
 * handle becomes an Error message of that account only.
 */
export function planChunk(plan: BatchPlan, context: FirmContext, keys: number[], reads: ChunkReads): ChunkRows {
  const loaded = snapshotsOf(context, reads);
  const transfers: NewTransfer[] = [];
  const taxSummaries: NewTaxSummary[] = [];
  const taxOptions = plan.request.options?.taxOptions;
  let results: AccountResult[];
  if (taxOptions) results = byHousehold(plan, keys, loaded, reads.tax ?? { accounts: new Map(), households: new Map() }, taxOptions, taxSummaries);
  else results = plan.request.level === 'Registration' ? byRegistration(plan, keys, loaded, transfers) : byAccount(plan, keys, loaded);

  const trades: TradeRow[] = [];
  const messages: NewMessage[] = [];
  for (const result of results) {
    for (const trade of result.trades) {
      // The engine already rounded these to the stored precision, so scaling is exact.
      trades.push([
        trade.accountId,
        trade.productId,
        trade.side,
        'Shares',
        Math.round(trade.shares * MICROS),
        Math.round(trade.estimatedAmount * CENTS_PER_DOLLAR),
        Math.round(trade.price * MICROS),
        trade.reason,
        trade.lots ? encodeTradeLots(trade.lots) : null,
        trade.lots ? Math.round((trade.estimatedShortTermGain ?? 0) * CENTS_PER_DOLLAR) : null,
        trade.lots ? Math.round((trade.estimatedLongTermGain ?? 0) * CENTS_PER_DOLLAR) : null,
      ]);
    }
    for (const message of result.messages) {
      // Info lines would cost more to store than the trades. Kept: the note that earlier orders or
      // pending transactions were counted; in a tax-aware batch those that explain its harvests and
      // wash-sale decisions; and the substitution behind a trade of the substitute (not the one every
      // account on the model repeats without trading).
      if (message.severity === 'Info' && message.code !== EARLIER_ORDERS_COUNTED && !(taxOptions && TAX_INFO_CODES.has(message.code)) && !explainsATrade(message, result)) continue;
      messages.push({ accountId: message.accountId ?? result.accountId, severity: message.severity, code: message.code, message: message.message });
    }
  }
  return { trades, messages, transfers, taxSummaries };
}

function byAccount(plan: BatchPlan, keys: number[], loaded: LoadedAccount[]): AccountResult[] {
  const entries = new Map(loaded.map((l) => [l.snapshot.accountId, l]));
  return keys.map((key) => {
    const entry = entries.get(key);
    if (!entry) return unknownAccountResult(key, plan.request.reason);
    const { row, snapshot } = entry;
    // A system sleeve without a model holds what no sleeve manages yet: nothing to rebalance, and not an error of the batch.
    if (row.model_id === null && isSystemSleeve(row)) {
      return errorResult(key, plan.request.reason, [
        { accountId: key, severity: 'Warning', code: 'SYSTEM_SLEEVE', message: `account ${key} is the ${row.sleeve_type} of registration ${row.registration_id}; it has no model and is not rebalanced` },
      ]);
    }
    try {
      return rebalanceAccount(snapshot, plan.optionsFor(key));
    } catch (error) {
      return failure(key, plan.request, error);
    }
  });
}

/**
 * Tax-aware: the accounts of one household are planned together (the service never splits a
 * household across chunks), each household with its realized gains and recent trades.
 */
function byHousehold(plan: BatchPlan, keys: number[], loaded: LoadedAccount[], tax: TaxInputs, taxOptions: TaxOptions, summaries: NewTaxSummary[]): AccountResult[] {
  const byKey = new Map<number, AccountResult>();
  const entries = new Map(loaded.map((l) => [l.row.id, l]));
  const households = new Map<number, AccountSnapshot[]>();
  for (const key of keys) {
    const entry = entries.get(key);
    const householdId = tax.accounts.get(key)?.householdId;
    if (!entry || householdId === undefined || (entry.row.model_id === null && isSystemSleeve(entry.row))) {
      byKey.set(key, byAccount(plan, [key], entry ? [entry] : [])[0]!);
      continue;
    }
    const list = households.get(householdId);
    if (list) list.push(entry.snapshot);
    else households.set(householdId, [entry.snapshot]);
  }
  for (const [householdId, accounts] of households) {
    const data = tax.households.get(householdId);
    try {
      const outcome = rebalanceHousehold(
        {
          householdId,
          asOfDate: accounts[0]!.asOfDate,
          accounts,
          realizedShortTermGain: data?.realizedShortTermGain ?? 0,
          realizedLongTermGain: data?.realizedLongTermGain ?? 0,
          recentTrades: data?.recentTrades ?? [],
        },
        (accountId) => plan.optionsFor(accountId),
        taxOptions,
      );
      for (const result of outcome.accounts) byKey.set(result.accountId, result);
      const s = outcome.summary;
      summaries.push({
        householdId,
        shortTermGainCents: Math.round(s.shortTermGain * CENTS_PER_DOLLAR),
        longTermGainCents: Math.round(s.longTermGain * CENTS_PER_DOLLAR),
        harvestedLossCents: Math.round(s.harvestedLosses * CENTS_PER_DOLLAR),
        washSaleMoves: s.washSaleMoves,
        budgetCuts: s.budgetCuts,
      });
    } catch (error) {
      for (const a of accounts) byKey.set(a.accountId, failure(a.accountId, plan.request, error));
    }
    for (const a of accounts) forgetLots(a.positions);
  }
  return keys.map((key) => byKey.get(key)!);
}

/**
 * Sleeved registrations move cash between sleeves, then rebalance each sleeve to its model. The
 * sleeves are the accounts with a target; system sleeves (custodial, contribution, distribution)
 * are neither traded nor counted, even when imported with a target.
 */
function byRegistration(plan: BatchPlan, keys: number[], loaded: LoadedAccount[], transfers: NewTransfer[]): AccountResult[] {
  const { request } = plan;
  const found = new Set(loaded.map((l) => l.row.id));
  const results: AccountResult[] = keys.filter((k) => !found.has(k)).map((k) => unknownAccountResult(k, request.reason));
  const byRegistration = new Map<number, LoadedAccount[]>();
  for (const entry of loaded) {
    const list = byRegistration.get(entry.row.registration_id) ?? [];
    list.push(entry);
    byRegistration.set(entry.row.registration_id, list);
  }
  for (const [registrationId, members] of byRegistration) {
    const sleeves = members.filter((m) => m.row.sleeve_target_pct !== null && !isSystemSleeve(m.row));
    if (sleeves.length === 0) {
      results.push(...byAccount(plan, members.map((m) => m.row.id), members));
      continue;
    }
    const registration: RegistrationSnapshot = {
      registrationId,
      asOfDate: members[0]!.snapshot.asOfDate,
      sleeves: sleeves.map((m) => ({
        account: m.snapshot,
        targetAllocation: m.row.sleeve_target_pct!,
        toleranceLower: m.row.sleeve_tolerance_lower ?? 0,
        toleranceUpper: m.row.sleeve_tolerance_upper ?? 0,
      })),
      tradeBlocks: sleeves[0]!.snapshot.tradeBlocks?.filter((b) => b.entityEnum === EntityEnum.Registration),
    };
    try {
      const outcome = rebalanceRegistration(registration, plan.optionsFor(sleeves[0]!.row.id));
      results.push(...outcome.accounts);
      for (const t of outcome.transfers) {
        if (t.amount === 0) continue;
        transfers.push({ registrationId, accountId: t.accountId, amountCents: Math.round(t.amount * CENTS_PER_DOLLAR), currentPct: t.currentAllocation, targetPct: t.targetAllocation, outOfBand: t.outOfBand });
      }
      if (outcome.messages.length > 0) {
        const first = outcome.accounts[0];
        if (first) results.push({ ...first, trades: [], messages: outcome.messages.map((m) => ({ ...m, accountId: m.accountId ?? first.accountId })) });
      }
    } catch (error) {
      results.push(...sleeves.map((m) => failure(m.row.id, request, error)));
    }
  }
  return results;
}
