// Model lines: a model product (after substitution) together with its
// equivalents, the priorities that apply to each product, and which of them the
// account may buy under its restricted plan. The result depends only on the
// model, the plan and the substitutions, so it is cached and shared by every
// account that has the same ones (the common case in a large batch).

import {
  BuyPriority,
  SellPriority,
  type AccountSnapshot,
  type BuyPriorityId,
  type Model,
  type Product,
  type ProductCatalog,
  type RestrictedPlan,
  type SellPriorityId,
  type Substitution,
} from './types.js';

export interface LineSpec {
  readonly key: number;
  readonly ticker: string;
  readonly targetPct: number;
  readonly lowerPct: number;
  readonly upperPct: number;
  /** Products whose holdings count toward the line, primary first. */
  readonly members: readonly number[];
  /** Members the account may buy, in preference order. */
  readonly buyable: readonly number[];
  /** The weight moved to cash because no member is in the restricted plan. */
  readonly toCash: boolean;
  /** Whether a buyable member is Preferred if held (only then does the choice depend on holdings). */
  readonly hasPreferred: boolean;
  /** The first buyable member and its buy priority: the buy product unless a Preferred if held member is held. */
  readonly firstBuy: Product | undefined;
  readonly firstBuyPriority: BuyPriorityId;
}

/** What a position needs to know about its product, found with one lookup. */
export interface MemberInfo {
  readonly line: number;
  readonly product: Product | undefined;
  readonly sell: SellPriorityId;
}

export interface TemplateNote {
  readonly severity: 'Warning' | 'Info';
  readonly code: string;
  readonly message: string;
  readonly productId?: number;
}

export interface LineTemplate {
  readonly lines: readonly LineSpec[];
  readonly lineOf: ReadonlyMap<number, number>;
  readonly memberOf: ReadonlyMap<number, MemberInfo>;
  /** Cash target fraction including plan weights that stay in cash. */
  readonly cashTarget: number;
  readonly cashUpper: number;
  readonly notes: readonly TemplateNote[];
  readonly plan: RestrictedPlan | null;
  readonly sell: ReadonlyMap<number, SellPriorityId>;
  readonly buy: ReadonlyMap<number, BuyPriorityId>;
  readonly blockedBuy: ReadonlySet<number>;
}

/** The one message code of a substitution applied; a batch stores it for the accounts it made trade. */
export const SUBSTITUTED = 'SUBSTITUTED';

const NO_KEY = {};
const cache = new WeakMap<Model, WeakMap<object, Map<string, LineTemplate>>>();

/**
 * Substitutions are keyed by content, not identity: every account of a firm carries the firm's
 * substitutions (plus its own, rarely), so the key is the same string for nearly all of them and
 * the template is built once per model, plan and substitution set instead of once per account.
 */
function substitutionKey(subs: readonly Substitution[] | null): string {
  if (!subs) return '';
  let key = '';
  for (const s of subs) key += `${s.scope === 'Firm' ? 'F' : 'A'}${s.id ?? ''}:${s.productId}>${s.substituteProductId},`;
  return key;
}

export function lineTemplate(snap: AccountSnapshot, useSubstitution: boolean): LineTemplate {
  const model = snap.model as Model;
  const subs = useSubstitution && snap.substitutions && snap.substitutions.length > 0 ? snap.substitutions : null;
  // A plan makes doNotBuyGroupEquivalency irrelevant (buildTemplate reads it only without one).
  const key: object = snap.restrictedPlan ?? snap.doNotBuyGroupEquivalency ?? NO_KEY;
  let byKey = cache.get(model);
  if (!byKey) {
    byKey = new WeakMap();
    cache.set(model, byKey);
  }
  let bySubs = byKey.get(key);
  if (!bySubs) {
    bySubs = new Map();
    byKey.set(key, bySubs);
  }
  const subsKey = substitutionKey(subs);
  let t = bySubs.get(subsKey);
  if (!t) {
    t = buildTemplate(model, snap.restrictedPlan ?? null, subs, snap.doNotBuyGroupEquivalency ?? null, snap.products);
    bySubs.set(subsKey, t);
  }
  return t;
}

/** Model product → the substitution that replaces it. One lookup: a substitute's own substitute is never followed. */
function substituteMap(subs: readonly Substitution[] | null): Map<number, Substitution> | null {
  if (!subs) return null;
  const m = new Map<number, Substitution>();
  // Firm first so that account rows, applied after, overwrite them.
  for (const s of subs) if (s.scope === 'Firm') m.set(s.productId, s);
  for (const s of subs) if (s.scope === 'Account') m.set(s.productId, s);
  return m;
}

/** `BND replaced by AGG (firm substitution 4)`: names the substitution, so a desk can find and remove it. */
function substitutionNote(products: ProductCatalog, s: Substitution): string {
  const which = `${s.scope === 'Firm' ? 'firm' : 'account'} substitution${s.id === undefined ? '' : ` ${s.id}`}`;
  return `${tickerOf(products, s.productId)} replaced by ${tickerOf(products, s.substituteProductId)} (${which})`;
}

export function buildTemplate(
  model: Model,
  plan: RestrictedPlan | null,
  subs: readonly Substitution[] | null,
  dnbge: readonly number[] | null,
  products: ProductCatalog,
): LineTemplate {
  const notes: TemplateNote[] = [];
  const sell = new Map<number, SellPriorityId>();
  const buy = new Map<number, BuyPriorityId>();
  const inPlan = new Set<number>();
  const blockedBuy = new Set<number>();
  const subMap = substituteMap(subs);
  const targets = [...model.targets].sort((a, b) => a.productId - b.productId);

  for (const pp of model.productPriorities ?? []) {
    if (pp.sellPriority != null) sell.set(pp.productId, pp.sellPriority);
    if (pp.buyPriority != null) buy.set(pp.productId, pp.buyPriority);
  }
  for (const t of targets) {
    const id = subMap?.get(t.productId)?.substituteProductId ?? t.productId;
    if (t.sellPriority != null) sell.set(id, t.sellPriority);
    if (t.buyPriority != null) buy.set(id, t.buyPriority);
  }
  if (plan) {
    for (const s of plan.securities) {
      inPlan.add(s.productId);
      if (s.sellPriorityId != null) sell.set(s.productId, s.sellPriorityId);
      if (s.buyPriorityId != null) buy.set(s.productId, s.buyPriorityId);
    }
  } else if (dnbge) {
    for (const id of dnbge) blockedBuy.add(id);
  }
  const canBuy = (id: number): boolean =>
    (buy.get(id) ?? BuyPriority.CanBuy) !== BuyPriority.DoNotBuy && (plan ? inPlan.has(id) : !blockedBuy.has(id));

  interface Draft {
    key: number;
    targetPct: number;
    lowerPct: number;
    upperPct: number;
    members: number[];
    equivalents: readonly number[];
    substitution: Substitution | undefined;
  }
  const drafts: Draft[] = [];
  const lineOf = new Map<number, number>();
  // Primaries first: a product that is a model line of its own is never
  // swallowed as another line's equivalent.
  for (const t of targets) {
    const substitution = subMap?.get(t.productId);
    const id = substitution?.substituteProductId ?? t.productId;
    const existing = lineOf.get(id);
    if (existing !== undefined) {
      const d = drafts[existing] as Draft;
      d.targetPct += t.targetPercent;
      notes.push({ severity: 'Info', code: 'TARGETS_MERGED', message: `${tickerOf(products, t.productId)} shares a product with another model line; targets merged`, productId: id });
      continue;
    }
    lineOf.set(id, drafts.length);
    drafts.push({ key: id, targetPct: t.targetPercent, lowerPct: t.lowerTolerance, upperPct: t.upperTolerance, members: [id], equivalents: t.equivalents ?? [], substitution });
  }
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i] as Draft;
    for (const e of d.equivalents) {
      if (lineOf.has(e)) continue;
      lineOf.set(e, i);
      d.members.push(e);
    }
  }

  let cashPct = model.cashTargetPercent;
  let totalPct = model.cashTargetPercent;
  const lines: LineSpec[] = [];
  for (const d of drafts) {
    totalPct += d.targetPct;
    const buyable = d.members.filter(canBuy);
    const toCash = plan !== null && !d.members.some((m) => inPlan.has(m));
    if (toCash) {
      cashPct += d.targetPct;
      notes.push({ severity: 'Warning', code: 'PLAN_NO_EQUIVALENT', message: `${tickerOf(products, d.key)} is outside restricted plan ${plan.name} and has no equivalent in it; its ${d.targetPct.toFixed(1)}% stays in cash`, productId: d.key });
    } else if (d.substitution) {
      notes.push({ severity: 'Info', code: SUBSTITUTED, message: substitutionNote(products, d.substitution), productId: d.key });
    }
    const hasPreferred = buyable.some((id) => buy.get(id) === BuyPriority.PreferredIfHeld);
    const first = buyable[0];
    const firstBuy = first === undefined ? undefined : products.get(first);
    const firstBuyPriority = first === undefined ? BuyPriority.CanBuy : (buy.get(first) ?? BuyPriority.CanBuy);
    lines.push({ key: d.key, ticker: tickerOf(products, d.key), targetPct: toCash ? 0 : d.targetPct, lowerPct: d.lowerPct, upperPct: d.upperPct, members: d.members, buyable, toCash, hasPreferred, firstBuy, firstBuyPriority });
  }
  // Lines in ticker order, so trades come out sorted without a sort per account.
  const order = lines.map((_, i) => i).sort((a, b) => compareLines(lines[a] as LineSpec, lines[b] as LineSpec));
  const sortedLines = order.map((i) => lines[i] as LineSpec);
  const position = new Map<number, number>();
  order.forEach((oldIndex, newIndex) => position.set(oldIndex, newIndex));
  const sortedLineOf = new Map<number, number>();
  const memberOf = new Map<number, MemberInfo>();
  for (const [productId, oldIndex] of lineOf) {
    const line = position.get(oldIndex) as number;
    sortedLineOf.set(productId, line);
    memberOf.set(productId, { line, product: products.get(productId), sell: sell.get(productId) ?? SellPriority.CanSell });
  }
  if (Math.abs(totalPct - 100) > 0.01) {
    notes.push({ severity: 'Warning', code: 'MODEL_TARGETS', message: `model ${model.name} targets and cash total ${totalPct.toFixed(2)}%, not 100%` });
  }
  return {
    lines: sortedLines,
    lineOf: sortedLineOf,
    memberOf,
    cashTarget: cashPct / 100,
    cashUpper: (model.cashUpperTolerance ?? 0) / 100,
    notes,
    plan,
    sell,
    buy,
    blockedBuy,
  };
}

function compareLines(a: LineSpec, b: LineSpec): number {
  return a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : a.key - b.key;
}

export function sellPriorityOf(t: LineTemplate, productId: number): SellPriorityId {
  return t.sell.get(productId) ?? SellPriority.CanSell;
}

export function buyPriorityOf(t: LineTemplate, productId: number): BuyPriorityId {
  return t.buy.get(productId) ?? BuyPriority.CanBuy;
}

function tickerOf(products: ProductCatalog, id: number): string {
  return products.get(id)?.ticker ?? `#${id}`;
}
