import { REBALANCE_DEFAULTS, type RebalanceOptions } from '../engine/index.js';
import type { FieldProblem } from '../shared/errors.js';
import type { RebalanceRequest } from './schemas.js';

/**
 * The one resolution of a rebalance request (spec 2.9): its checks, its level, and the engine's
 * options, made once when the batch is created and stored with it; workers read the stored
 * result and only pick each account's amount. The request type is the route's TypeBox schema;
 * the engine's options are the request's own fields, listed here.
 */
export interface ResolvedRequest {
  level: 'Account' | 'Registration';
  /** The engine options every account of the batch shares. */
  options: RebalanceOptions;
}

/** The request as stored with its batch: what the caller sent, resolved. */
export type StoredRequest = Omit<RebalanceRequest, 'level'> & ResolvedRequest;

/** Request fields the engine reads, under the same names: a field the engine does not know fails to compile. */
const ENGINE_FIELDS = [
  'reason',
  'exactTrades',
  'maxTrades',
  'minTradeAmount',
  'minTradePercent',
  'roundingLogic',
  'assetValues',
  'includeCustodialCash',
  'useProductSubstitution',
  'taxOptions',
] as const satisfies readonly (keyof RebalanceOptions & keyof RebalanceRequest)[];

const isCashFlow = (reason: RebalanceRequest['reason']) => reason === 'Add' || reason === 'Withdraw';

export function resolveRequest(request: RebalanceRequest): { problems: FieldProblem[] } | { stored: StoredRequest } {
  const level = request.level ?? REBALANCE_DEFAULTS.level;
  const problems: FieldProblem[] = [];
  const cashFlow = isCashFlow(request.reason);
  if (cashFlow && request.entity !== 'Account') problems.push({ field: 'entity', message: `${request.reason} accepts only Account` });
  if (cashFlow && (request.amounts ?? []).length !== request.keys.length) {
    problems.push({ field: 'amounts', message: `must hold one amount per key: ${request.keys.length} keys, ${(request.amounts ?? []).length} amounts` });
  }
  if (cashFlow && level === 'Registration') problems.push({ field: 'level', message: `${request.reason} is per account; use level Account` });
  if (new Set(request.keys).size !== request.keys.length) problems.push({ field: 'keys', message: 'must not repeat a key' });
  problems.push(...taxProblems(request, level));
  if (problems.length > 0) return { problems };
  return { stored: { ...request, level, options: optionsOf(request) } };
}

/** The tax options' rules that one field's schema cannot say (docs/tax-aware.md). */
function taxProblems(request: RebalanceRequest, level: 'Account' | 'Registration'): FieldProblem[] {
  const tax = request.taxOptions;
  const harvest = tax?.harvestLosses ?? null;
  const problems: FieldProblem[] = [];
  if (request.reason === 'TaxLossHarvest' && harvest === null) {
    problems.push({ field: 'taxOptions.harvestLosses', message: 'TaxLossHarvest needs harvestLosses with minLossDollars and minLossPercent' });
  }
  if (harvest !== null && request.reason !== 'NeedReview' && request.reason !== 'TaxLossHarvest') {
    problems.push({ field: 'taxOptions.harvestLosses', message: `harvesting runs with NeedReview or TaxLossHarvest, not ${request.reason}` });
  }
  if (tax && level === 'Registration') problems.push({ field: 'taxOptions', message: 'tax-aware rebalancing runs at level Account' });
  return problems;
}

function optionsOf(request: Omit<RebalanceRequest, 'level'>): RebalanceOptions {
  const options: Record<string, unknown> = {};
  for (const field of ENGINE_FIELDS) if (request[field] !== undefined && request[field] !== null) options[field] = request[field];
  return options as unknown as RebalanceOptions;
}

/** What a worker runs a batch's accounts with: the stored options, and for Add and Withdraw each account's own amount. */
export interface BatchPlan {
  request: StoredRequest;
  optionsFor(accountId: number): RebalanceOptions;
}

export function planOf(request: StoredRequest): BatchPlan {
  // A batch stored before options were stored with it (running across an upgrade) has none yet.
  const shared = request.options ?? optionsOf(request);
  if (!isCashFlow(request.reason)) return { request, optionsFor: () => shared };
  // Add and Withdraw name accounts directly (entity Account): amounts[i] belongs to keys[i].
  const amounts = new Map(request.keys.map((key, i) => [key, request.amounts?.[i]]));
  return { request, optionsFor: (accountId) => ({ ...shared, amount: amounts.get(accountId) }) };
}
