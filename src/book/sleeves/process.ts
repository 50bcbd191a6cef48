import type { FieldProblem } from '../../shared/errors.js';
import type { AccountSleeveInput, SleeveRegistrationInput } from './schemas.js';
import { SleeveType } from './schemas.js';
import { type Loaded, type Settings, type Sleeve, settingsOf, sleevesOf } from './state.js';

/** Percent totals are compared to 100 with this slack, so 33.333 × 3 + 0.001 passes. */
const TOTAL_SLACK = 0.0011;

export interface Lookups {
  /** Models of the firm named by the request or held by its sleeves: id → name. */
  models: Map<number, string>;
  /** Self-directed models of any sleeve of the firm: model id → its sleeve's account id. */
  selfDirectedOwners: Map<number, number>;
  products: Set<number>;
  /** For each sleeve that would be removed: what it still holds. */
  holdings: Map<number, { positions: number; orders: number; pending: number; transfers: number }>;
}

export type SleeveModel =
  | { kind: 'strategy'; modelId: number }
  /** `allocations` null: the self-directed model stays as it is. */
  | { kind: 'self'; allocations: { productId: number; targetPct: number; lowerPct: number; upperPct: number }[] | null };

/** One Normal Sleeve as it will be stored; `current` is absent for a new sleeve. */
export interface SleeveWrite {
  index: number;
  current: Sleeve | undefined;
  description: string | null;
  target: number;
  lower: number;
  upper: number;
  contribution: number | null;
  distribution: number | null;
  corporateAction: number | null;
  sweepAssetId: number | null;
  managementStyleId: number | null;
  managementStyle: string | null;
  subAdvisorId: number | null;
  subAdvisor: string | null;
  model: SleeveModel;
}

export interface ProcessPlan {
  settings: Settings;
  /** Set when this call sleeves the registration: its single account becomes the Custodial Account. */
  custodialAccountId: number | null;
  writes: SleeveWrite[];
  removals: Sleeve[];
  /**
   * Where the positions and cash of removed sleeves go: the registration's Custodial Account
   * sleeve (the account the registration held before it was sleeved).
   */
  holdingsTo: number | null;
}

const pick = <T>(given: T | undefined, stored: T): T => (given !== undefined ? given : stored);
const round = (n: number) => Math.round(n * 10_000) / 10_000;
const same = (a: number | null | undefined, b: number | null | undefined) => Math.abs((a ?? 0) - (b ?? 0)) < 1e-9;

/**
 * Checks a Process request against the registration as stored and says what to write. Every
 * problem is collected (a 400 names them all); nothing is written unless there are none.
 */
export function planProcess(input: SleeveRegistrationInput, loaded: Loaded, lookups: Lookups, today: string): { problems: FieldProblem[]; plan: ProcessPlan } {
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const { registration } = loaded;
  const stored = settingsOf(loaded);

  const sleeving = registration.is_sleeved !== 1;
  // A registration read before sleeving shows isActive false and comes back so: Process activates it.
  if (input.isActive === false && !sleeving) problem('isActive', 'a sleeved registration stays active; unsleeving is not offered');
  if (sleeving && loaded.accounts.length !== 1) {
    problem('registrationId', `registration ${registration.id} holds ${loaded.accounts.length} accounts and is not sleeved; only a registration with a single account can be sleeved`);
  }
  const settings: Settings = {
    sleeveStrategyId: pick(input.sleeveStrategyId, stored.sleeveStrategyId),
    isActive: true,
    asOfDate: pick(input.asOfDate, loaded.settings ? stored.asOfDate : today),
    contributionAllocationMethod: pick(input.contributionAllocationMethod, stored.contributionAllocationMethod),
    distributionAllocationMethod: pick(input.distributionAllocationMethod, stored.distributionAllocationMethod),
    corporateActionAllocationMethod: pick(input.corporateActionAllocationMethod, stored.corporateActionAllocationMethod),
    autoRebalFrequency: pick(input.autoRebalFrequency, stored.autoRebalFrequency),
    autoRebalMonth: pick(input.autoRebalMonth, stored.autoRebalMonth),
    autoRebalDay: pick(input.autoRebalDay, stored.autoRebalDay),
    mandate: pick(input.mandate, stored.mandate),
  };
  if (settings.autoRebalFrequency !== 'None' && settings.autoRebalDay === null) problem('autoRebalDay', `is required when autoRebalFrequency is ${settings.autoRebalFrequency}`);
  if (['Quarterly', 'Semi-Annually', 'Annually'].includes(settings.autoRebalFrequency) && settings.autoRebalMonth === null) {
    problem('autoRebalMonth', `is required when autoRebalFrequency is ${settings.autoRebalFrequency}`);
  }

  const current = sleevesOf(loaded);
  const byId = new Map(current.map((s) => [s.account.id, s]));
  const seen = new Map<number, number>();
  const writes: SleeveWrite[] = [];
  input.accountSleeves.forEach((item, index) => {
    const at = (field: string) => `accountSleeves[${index}].${field}`;
    const id = item.accountId ?? 0;
    if (id === 0) {
      if (item.sleeveType != null && item.sleeveType !== SleeveType.Normal) problem(at('sleeveType'), `only Normal Sleeve sleeves can be added; ${item.sleeveType} is a system sleeve`);
      writes.push(resolveNormal(item, undefined, index, lookups, problem));
      return;
    }
    const sleeve = byId.get(id);
    if (!sleeve) return problem(at('accountId'), `account ${id} is not a sleeve of registration ${registration.id}`);
    if (seen.has(id)) return problem(at('accountId'), `account ${id} is listed twice (also accountSleeves[${seen.get(id)}])`);
    seen.set(id, index);
    if (sleeve.system) return checkSystem(item, sleeve, at, problem);
    if (item.sleeveType != null && item.sleeveType !== SleeveType.Normal) problem(at('sleeveType'), `a Normal Sleeve cannot become a ${item.sleeveType}`);
    writes.push(resolveNormal(item, sleeve, index, lookups, problem));
  });

  for (const sleeve of current) {
    if (!sleeve.system || seen.has(sleeve.account.id)) continue;
    problem('accountSleeves', `the ${sleeve.type} sleeve (account ${sleeve.account.id}, ${sleeve.account.number}) is missing; system sleeves cannot be removed or changed`);
  }
  // Section 4.8 removes omitted sleeves. What a removed sleeve holds moves to the Custodial Account;
  // what is still on its way to it (open orders, pending transactions, sleeve transfers of an open
  // trade instance) would land in a closed account, so those keep it until they settle or are cancelled.
  const removals = current.filter((s) => !s.system && !seen.has(s.account.id));
  const custodial = current.find((s) => s.type === SleeveType.Custodial);
  for (const sleeve of removals) {
    const held = lookups.holdings.get(sleeve.account.id);
    const holds = (held !== undefined && held.positions > 0) || Number(sleeve.account.cash_cents) !== 0;
    if (holds && !custodial) {
      problem('accountSleeves', `sleeve account ${sleeve.account.id} (${sleeve.account.number}) is left out and holds positions or cash, and the registration has no Custodial Account sleeve to move them to`);
    }
    const inFlight = [
      held && held.orders > 0 ? `${held.orders} open order(s)` : null,
      held && held.pending > 0 ? `${held.pending} pending transaction(s)` : null,
      held && held.transfers > 0 ? `${held.transfers} open sleeve transfer(s)` : null,
    ].filter((w): w is string => w !== null);
    if (inFlight.length > 0) {
      problem('accountSleeves', `sleeve account ${sleeve.account.id} (${sleeve.account.number}) is left out but still has ${inFlight.join(', ')}; let them settle or cancel them before removing the sleeve`);
    }
  }

  const totals: ['target' | 'contribution' | 'distribution' | 'corporateAction', string, boolean][] = [
    ['target', 'targetAllocation', true],
    ['contribution', 'contributionAllocation', settings.contributionAllocationMethod === 'Assigned'],
    ['distribution', 'distributionAllocation', settings.distributionAllocationMethod === 'Assigned'],
    ['corporateAction', 'corporateActionAllocation', settings.corporateActionAllocationMethod === 'Assigned'],
  ];
  for (const [key, field, applies] of totals) {
    if (!applies) continue;
    const method = field.replace('Allocation', 'AllocationMethod');
    if (key !== 'target') {
      for (const w of writes) if (w[key] === null) problem(`accountSleeves[${w.index}].${field}`, `is required when ${method} is Assigned`);
    }
    const total = writes.reduce((sum, w) => sum + (w[key] ?? 0), 0);
    if (Math.abs(total - 100) > TOTAL_SLACK) {
      const why = key === 'target' ? '' : ` when ${method} is Assigned`;
      problem(`accountSleeves[*].${field}`, `must total 100 over the Normal Sleeves${why} (total ${round(total)}); system sleeves carry none`);
    }
  }
  return { problems, plan: { settings, custodialAccountId: sleeving ? (loaded.accounts[0]?.id ?? null) : null, writes, removals, holdingsTo: custodial?.account.id ?? null } };
}

function resolveNormal(
  item: AccountSleeveInput,
  current: Sleeve | undefined,
  index: number,
  lookups: Lookups,
  problem: (field: string, message: string) => void,
): SleeveWrite {
  const at = (field: string) => `accountSleeves[${index}].${field}`;
  const account = current?.account;
  const row = current?.row;
  const target = pick(item.targetAllocation, account?.sleeve_target_pct ?? null);
  if (target === null) problem(at('targetAllocation'), 'is required for a Normal Sleeve');
  const sweepAssetId = pick(item.sweepAssetId, row?.sweep_asset_id ?? null);
  if (sweepAssetId !== null && !lookups.products.has(sweepAssetId)) problem(at('sweepAssetId'), `product ${sweepAssetId} does not exist`);

  const wasSelf = row?.self_directed === 1;
  let model: SleeveModel;
  if (item.modelAllocations && item.modelAllocations.length > 0) {
    if (item.modelAggId != null) problem(at('modelAggId'), 'must be null for a self-directed sleeve (one with modelAllocations)');
    const seen = new Set<number>();
    let total = 0;
    item.modelAllocations.forEach((a, j) => {
      const field = `${at('modelAllocations')}[${j}].productId`;
      if (!lookups.products.has(a.productId)) problem(field, `product ${a.productId} does not exist`);
      else if (seen.has(a.productId)) problem(field, `product ${a.productId} is listed twice`);
      seen.add(a.productId);
      total += a.targetPercent;
    });
    if (Math.abs(total - 100) > TOTAL_SLACK) problem(at('modelAllocations'), `targetPercent must total 100 (total ${round(total)})`);
    model = {
      kind: 'self',
      allocations: item.modelAllocations.map((a) => ({ productId: a.productId, targetPct: a.targetPercent, lowerPct: a.lowerTolerance ?? 0, upperPct: a.upperTolerance ?? 0 })),
    };
  } else if (item.modelAllocations === undefined && wasSelf && item.modelAggId == null) {
    model = { kind: 'self', allocations: null };
  } else {
    const modelId = pick(item.modelAggId, account && !wasSelf ? account.model_id : null);
    const owner = modelId === null ? undefined : lookups.selfDirectedOwners.get(modelId);
    if (modelId === null) problem(at('modelAggId'), 'is required for a strategy sleeve (a sleeve without modelAllocations)');
    else if (!lookups.models.has(modelId)) problem(at('modelAggId'), `model ${modelId} does not exist`);
    else if (owner !== undefined) problem(at('modelAggId'), `model ${modelId} is the self-directed model of sleeve account ${owner}; name a strategy model`);
    model = { kind: 'strategy', modelId: modelId ?? 0 };
  }

  return {
    index,
    current,
    description: pick(item.sleeveDescription, row?.description ?? null),
    target: target ?? 0,
    lower: pick(item.toleranceLower, account?.sleeve_tolerance_lower ?? null) ?? 0,
    upper: pick(item.toleranceUpper, account?.sleeve_tolerance_upper ?? null) ?? 0,
    contribution: pick(item.contributionAllocation, row?.contribution_pct ?? null),
    distribution: pick(item.distributionAllocation, row?.distribution_pct ?? null),
    corporateAction: pick(item.corporateActionAllocation, row?.corporate_action_pct ?? null),
    sweepAssetId,
    managementStyleId: pick(item.managementStyleId, row?.management_style_id ?? null),
    managementStyle: pick(item.managementStyle, row?.management_style ?? null),
    subAdvisorId: pick(item.subAdvisorId, row?.sub_advisor_id ?? null),
    subAdvisor: pick(item.subAdvisor, row?.sub_advisor ?? null),
    model,
  };
}

/** A system sleeve comes back as read: any field that differs from what GET shows is a 400. */
function checkSystem(item: AccountSleeveInput, sleeve: Sleeve, at: (field: string) => string, problem: (field: string, message: string) => void) {
  const { account, row } = sleeve;
  const refuse = (field: string) => problem(at(field), `the ${sleeve.type} sleeve is a system sleeve; it cannot be changed`);
  if (item.sleeveType != null && item.sleeveType !== sleeve.type) refuse('sleeveType');
  if (item.sleeveDescription !== undefined && item.sleeveDescription !== (row?.description ?? account.name)) refuse('sleeveDescription');
  const numbers: [keyof AccountSleeveInput, number | null][] = [
    ['targetAllocation', account.sleeve_target_pct],
    ['toleranceLower', account.sleeve_tolerance_lower],
    ['toleranceUpper', account.sleeve_tolerance_upper],
    ['contributionAllocation', row?.contribution_pct ?? null],
    ['distributionAllocation', row?.distribution_pct ?? null],
    ['corporateActionAllocation', row?.corporate_action_pct ?? null],
  ];
  for (const [field, value] of numbers) if (item[field] !== undefined && !same(item[field] as number | null, value)) refuse(field);
  const exact: [keyof AccountSleeveInput, unknown][] = [
    ['sweepAssetId', row?.sweep_asset_id ?? null],
    ['managementStyleId', row?.management_style_id ?? null],
    ['managementStyle', row?.management_style ?? null],
    ['subAdvisorId', row?.sub_advisor_id ?? null],
    ['subAdvisor', row?.sub_advisor ?? null],
    ['modelAggId', null],
  ];
  for (const [field, value] of exact) if (item[field] !== undefined && item[field] !== value) refuse(field);
  if (item.modelAllocations && item.modelAllocations.length > 0) refuse('modelAllocations');
}
