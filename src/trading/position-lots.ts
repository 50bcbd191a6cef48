// A position's tax lots as the rebalance loader reads them: one JSON text per account, its lots
// "[[product_id, id, shares_micros, cost_cents, acquired_date], …]" in product order. The engine
// reads a summary of them for every position of a taxable account (is there a loss to harvest, a
// buy in the wash-sale window?) and the lots only of the positions it sells or harvests; most of an
// advisory or direct-indexing book's lots are then never made into objects. The text is walked
// once when the account is unpacked: each position's run of lots is found there, and its summary's
// aggregates are taken on the way, so the summary costs no second walk. Built by the database beside
// each position's lots, those aggregates and their text were a third of the read's time in SQLite,
// and a lot list per position (a correlated subquery) cost SQLite about a third more than one list
// an account read through a join (docs/decisions/tax-aware-reads-by-need.md).

import type { LotsSummary, Position, TaxLot } from '../engine/index.js';
import { centsToDollars, microsToShares } from '../shared/money.js';

/** A lot as the lots column carries it: [product_id, id, shares_micros, cost_cents, acquired_date]. */
type LotTuple = [number, number, number, number, string];

/**
 * Where an account's lots lie in its text, eight numbers a position (a run of lots of one product),
 * in one array: no object per position. The summary's aggregates are those SQL would give.
 */
const RUN_FIELDS = 8;
const RUN_PRODUCT = 0;
/** The run's first lot's `[` and the index after its last lot's `]`. */
const RUN_START = 1;
const RUN_END = 2;
/** The highest cost per share (cents × 10,000 / micro-shares: dollars a share), -Infinity when no lot has shares. */
const RUN_PER_SHARE = 3;
/** The highest cost of a lot, in cents. */
const RUN_COST = 4;
/** The newest acquired date's bounds in the text. */
const RUN_DATE_START = 5;
const RUN_DATE_END = 6;
/** How many lots the run holds. */
const RUN_LOTS = 7;

/** An account's lot text and its runs, shared by the account's positions. */
class AccountLots {
  constructor(
    readonly text: string,
    readonly runs: Float64Array,
  ) {}
}

/**
 * A position whose lots and their summary are read from its run of its account's lot text on first
 * ask: the summary from the numbers unpacking took, the lots by one scan of the run. `taxLots` and
 * `lotsSummary` are getters of the class: an object spread of a position would drop both, so code
 * that copies positions builds new ones (engine/replay.ts does) rather than spreading them.
 */
export class RunPosition implements Position {
  #lots: readonly TaxLot[] | null = null;
  #summary: LotsSummary | null = null;
  readonly #account: AccountLots;
  readonly #at: number;

  constructor(
    readonly productId: number,
    readonly shares: number,
    readonly costBasis: number,
    account: AccountLots,
    run: number,
  ) {
    this.#account = account;
    this.#at = run * RUN_FIELDS;
  }

  get taxLots(): readonly TaxLot[] {
    if (this.#lots === null) this.#lots = lotsOfRun(this.#account, this.#at);
    return this.#lots;
  }

  get lotsSummary(): LotsSummary {
    if (this.#summary === null) this.#summary = summaryOfRun(this.#account, this.#at);
    return this.#summary;
  }

  /** Lets go of the lots and summary read so far (read again if asked again). */
  forgetLots(): void {
    this.#lots = null;
    this.#summary = null;
  }
}

/**
 * A position without lots, or with lots as JSON.parse read them (a text the scan leaves alone):
 * those are made into lots and a summary on first ask.
 */
export class StoredPosition implements Position {
  #lots: readonly TaxLot[] | undefined | null = null;
  #summary: LotsSummary | undefined | null = null;
  readonly #tuples: LotTuple[] | null;

  constructor(
    readonly productId: number,
    readonly shares: number,
    readonly costBasis: number,
    tuples: LotTuple[] | null = null,
  ) {
    this.#tuples = tuples;
  }

  get taxLots(): readonly TaxLot[] | undefined {
    if (this.#lots === null) this.#lots = this.#tuples === null ? undefined : lotsOfTuples(this.#tuples);
    return this.#lots;
  }

  /** What the lots hold at most; undefined when the position has none. */
  get lotsSummary(): LotsSummary | undefined {
    if (this.#summary === null) this.#summary = this.#tuples === null ? undefined : summaryOfTuples(this.#tuples);
    return this.#summary;
  }

  /** Lets go of the lots and summary read so far (read again if asked again). */
  forgetLots(): void {
    this.#lots = null;
    this.#summary = null;
  }
}

export type LoadedPosition = RunPosition | StoredPosition;

/**
 * Lets go of what the positions' lots were read into, once their household is planned: the run
 * reads them no more, and they would otherwise live until the chunk is written, copied by every
 * scavenge on the way (a tax-aware chunk parses and summarizes the lots of every taxable account).
 * Let go of young, they cost the collector nothing.
 */
export function forgetLots(positions: readonly Position[]): void {
  for (const p of positions) if (p instanceof RunPosition || p instanceof StoredPosition) p.forgetLots();
}

/**
 * An account's positions from its packed rows (snapshot-repository.ts), in product order: `held`
 * is a JSON array of (product_id, shares_micros, cost_cents) triples, `lots` null or the account's
 * lots, each naming its product. A product's lots without a position in `held` are ignored.
 */
export function unpackPositions(held: string, lots: string | null): LoadedPosition[] {
  const n = JSON.parse(held) as number[];
  const count = Math.floor(n.length / 3);
  const positions = new Array<LoadedPosition>(count);
  let sorted = true;
  for (let i = 1; i < count; i++) if ((n[3 * i] as number) < (n[3 * (i - 1)] as number)) sorted = false;
  const account = lots === null ? null : accountLots(lots);
  if (lots !== null && account === null) return unpackParsed(n, JSON.parse(lots) as LotTuple[] | null);
  const runs = account?.runs;
  const runCount = runs === undefined ? 0 : runs.length / RUN_FIELDS;
  // Runs come in product order (accountLots holds them to it), as the database reads the triples
  // from the (account, product) index: each run is matched to its position walking both at once.
  // Triples in any other order look their run up.
  let byProduct: Map<number, number> | null = null;
  if (!sorted && runs !== undefined) {
    byProduct = new Map();
    for (let r = 0; r < runCount; r++) byProduct.set(runs[r * RUN_FIELDS + RUN_PRODUCT] as number, r);
  }
  let r = 0;
  for (let i = 0; i < count; i++) {
    const productId = n[3 * i] as number;
    const shares = microsToShares(n[3 * i + 1] as number);
    const costBasis = centsToDollars(n[3 * i + 2] as number);
    let run = -1;
    if (runs !== undefined) {
      if (byProduct !== null) run = byProduct.get(productId) ?? -1;
      else {
        while (r < runCount && (runs[r * RUN_FIELDS + RUN_PRODUCT] as number) < productId) r++;
        if (r < runCount && runs[r * RUN_FIELDS + RUN_PRODUCT] === productId) run = r++;
      }
    }
    positions[i] = run < 0 || account === null ? new StoredPosition(productId, shares, costBasis) : new RunPosition(productId, shares, costBasis, account, run);
  }
  // The engine takes an account's positions in product order; the database reads them that way
  // from the (account, product) index, so the sort (which copies the array) is rarely needed.
  return sorted ? positions : positions.sort((a, b) => a.productId - b.productId);
}

/** unpackPositions for a lot text the scan leaves to JSON.parse: each position keeps its own tuples. */
function unpackParsed(n: number[], tuples: LotTuple[] | null): LoadedPosition[] {
  const lotsOf = new Map<number, LotTuple[]>();
  for (const tuple of tuples ?? []) {
    const list = lotsOf.get(tuple[0]);
    if (list) list.push(tuple);
    else lotsOf.set(tuple[0], [tuple]);
  }
  const positions = new Array<StoredPosition>(Math.floor(n.length / 3));
  for (let i = 0; i < positions.length; i++) {
    const productId = n[3 * i] as number;
    positions[i] = new StoredPosition(productId, microsToShares(n[3 * i + 1] as number), centsToDollars(n[3 * i + 2] as number), lotsOf.get(productId) ?? null);
  }
  return positions.sort((a, b) => a.productId - b.productId);
}

function lotsOfTuples(tuples: LotTuple[]): TaxLot[] | undefined {
  if (tuples.length === 0) return undefined;
  return tuples.map(([, id, sharesMicros, costCents, acquiredOn]): TaxLot => ({ id, shares: microsToShares(sharesMicros), costBasis: centsToDollars(costCents), acquiredOn }));
}

/**
 * The summary of the lots, as SQL would aggregate them: the highest cost per share of a lot with
 * shares (cents × 10,000 / micro-shares: dollars a share; 0 when no lot has shares), the newest
 * acquired date, the highest cost of a lot. Undefined when there is no lot.
 */
function summaryOfTuples(tuples: LotTuple[]): LotsSummary | undefined {
  if (tuples.length === 0) return undefined;
  let perShare = -Infinity;
  let cost = -Infinity;
  let latest = '';
  for (const [, , sharesMicros, costCents, acquiredOn] of tuples) {
    if (sharesMicros !== 0 && (costCents * 10000) / sharesMicros > perShare) perShare = (costCents * 10000) / sharesMicros;
    if (costCents > cost) cost = costCents;
    if (acquiredOn > latest) latest = acquiredOn;
  }
  return { maxCostPerShare: perShare === -Infinity ? 0 : perShare, latestAcquiredOn: latest, maxLotCost: centsToDollars(cost) };
}

/** The summary of a run, from the aggregates unpacking took. */
function summaryOfRun(account: AccountLots, at: number): LotsSummary {
  const runs = account.runs;
  const perShare = runs[at + RUN_PER_SHARE] as number;
  return {
    maxCostPerShare: perShare === -Infinity ? 0 : perShare,
    latestAcquiredOn: dateAt(account.text, runs[at + RUN_DATE_START] as number, runs[at + RUN_DATE_END] as number),
    maxLotCost: centsToDollars(runs[at + RUN_COST] as number),
  };
}

// The lots are read by a direct scan (JSON.parse built an array per lot before its object). It
// reads the shapes both databases write, SQLite's compact JSON and PostgreSQL's with spaces, and
// hands anything else (a fraction, an escape, a null date) to JSON.parse, so it never reads a lot
// differently from it. The cursor stays in a local of each function, handed on as an argument and a
// result: a cursor shared by helper functions in a module variable lives in memory, and every
// character read went there and back.

const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const QUOTE = 34;
const SPACE = 32;
const MINUS = 45;
const BACKSLASH = 92;

/** One lot's numbers as scanLot last read them, in module variables: no array or object per lot. */
const lotNumbers = new Float64Array(4);
const PRODUCT = 0;
const ID = 1;
const SHARES = 2;
const CENTS = 3;
let lotDateStart = 0;
let lotDateEnd = 0;

/**
 * Reads one lot `[product, id, shares in micros, cost in cents, "date"]` from `at` into lotNumbers
 * and the date's bounds: the index after its `]`, or -1 for a text of any other shape. Each number
 * is a plain integer (shared/plain-integer.ts): an optional minus and 1 to 15 digits, nothing else;
 * the date a string without escapes.
 */
function scanLot(s: string, at: number): number {
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== OPEN) return -1;
  for (let k = 0; k < 4; k++) {
    while (s.charCodeAt(at) === SPACE) at++;
    const negative = s.charCodeAt(at) === MINUS;
    if (negative) at++;
    const first = at;
    let value = 0;
    let c = s.charCodeAt(at);
    while (c >= 48 && c <= 57) {
      value = value * 10 + (c - 48);
      c = s.charCodeAt(++at);
    }
    if (at === first || at - first > 15) return -1;
    lotNumbers[k] = negative ? -value : value;
    while (c === SPACE) c = s.charCodeAt(++at);
    if (c !== COMMA) return -1;
    at++;
  }
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== QUOTE) return -1;
  const end = s.indexOf('"', at);
  if (end < 0) return -1;
  for (let i = at; i < end; i++) if (s.charCodeAt(i) === BACKSLASH) return -1;
  lotDateStart = at;
  lotDateEnd = end;
  at = end + 1;
  while (s.charCodeAt(at) === SPACE) at++;
  return s.charCodeAt(at) === CLOSE ? at + 1 : -1;
}

/**
 * The runs are gathered in one array kept for every account (grown when an account needs more),
 * then copied to an array of their number, which the account's positions keep.
 */
let gathering = new Float64Array(64 * RUN_FIELDS);

/**
 * An account's lot list `[lot, …]` walked once: each run of lots of one product, with its
 * summary's aggregates. Null for a text of any other shape, or whose products do not come in
 * ascending runs (left to JSON.parse and a lookup by product).
 */
function accountLots(s: string): AccountLots | null {
  let at = 0;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== OPEN) return null;
  while (s.charCodeAt(at) === SPACE) at++;
  let runs = gathering;
  let o = -RUN_FIELDS;
  if (s.charCodeAt(at) !== CLOSE) {
    for (;;) {
      while (s.charCodeAt(at) === SPACE) at++;
      const start = at;
      at = scanLot(s, at);
      if (at < 0) return null;
      const product = lotNumbers[PRODUCT] as number;
      const shares = lotNumbers[SHARES] as number;
      const cost = lotNumbers[CENTS] as number;
      if (o < 0 || product !== runs[o + RUN_PRODUCT]) {
        if (o >= 0 && product < (runs[o + RUN_PRODUCT] as number)) return null;
        o += RUN_FIELDS;
        if (o + RUN_FIELDS > runs.length) {
          const grown = new Float64Array(runs.length * 2);
          grown.set(runs);
          runs = gathering = grown;
        }
        runs[o + RUN_PRODUCT] = product;
        runs[o + RUN_START] = start;
        runs[o + RUN_PER_SHARE] = -Infinity;
        runs[o + RUN_COST] = -Infinity;
        runs[o + RUN_DATE_START] = lotDateStart;
        runs[o + RUN_DATE_END] = lotDateEnd;
        runs[o + RUN_LOTS] = 0;
      } else if (laterDate(s, lotDateStart, lotDateEnd, runs[o + RUN_DATE_START] as number, runs[o + RUN_DATE_END] as number)) {
        runs[o + RUN_DATE_START] = lotDateStart;
        runs[o + RUN_DATE_END] = lotDateEnd;
      }
      if (shares !== 0 && (cost * 10000) / shares > (runs[o + RUN_PER_SHARE] as number)) runs[o + RUN_PER_SHARE] = (cost * 10000) / shares;
      if (cost > (runs[o + RUN_COST] as number)) runs[o + RUN_COST] = cost;
      runs[o + RUN_END] = at;
      runs[o + RUN_LOTS] = (runs[o + RUN_LOTS] as number) + 1;
      while (s.charCodeAt(at) === SPACE) at++;
      const next = s.charCodeAt(at++);
      if (next === CLOSE) break;
      if (next !== COMMA) return null;
    }
  }
  return new AccountLots(s, runs.slice(0, o + RUN_FIELDS));
}

/**
 * The (product, acquired date) of each lot of an account's lot text (db/position-lots.ts
 * accountLotsQuery) acquired on or after `since`, an ISO date: the household's recent buys, read
 * from its other accounts' lots. A text the scan does not read is parsed as JSON.
 */
export function lotsAcquiredSince(s: string, since: string): { productId: number; date: string }[] {
  const out: { productId: number; date: string }[] = [];
  let at = 0;
  while (s.charCodeAt(at) === SPACE) at++;
  let scanned = s.charCodeAt(at++) === OPEN;
  while (s.charCodeAt(at) === SPACE) at++;
  if (scanned && s.charCodeAt(at) === CLOSE) return out;
  while (scanned) {
    at = scanLot(s, at);
    if (at < 0) {
      scanned = false;
      break;
    }
    const date = dateAt(s, lotDateStart, lotDateEnd);
    if (date >= since) out.push({ productId: lotNumbers[PRODUCT] as number, date });
    while (s.charCodeAt(at) === SPACE) at++;
    const next = s.charCodeAt(at++);
    if (next === CLOSE) break;
    if (next !== COMMA) scanned = false;
  }
  if (scanned) return out;
  return (JSON.parse(s) as LotTuple[]).filter((lot) => lot[4] >= since).map((lot) => ({ productId: lot[0], date: lot[4] }));
}

/**
 * The lots of one run (from its offset in the runs), read again from the text accountLots walked.
 * Gathered in one list that keeps its room from run to run (emptied slot by slot), then copied to
 * a list of their number: a list made by `new Array(n)` is one with holes to V8 for good, and
 * the engine's loops over lot lists, tuned to lists without holes, would see both kinds.
 */
const gathered: (TaxLot | undefined)[] = [];

function lotsOfRun(account: AccountLots, at: number): TaxLot[] {
  const s = account.text;
  const count = account.runs[at + RUN_LOTS] as number;
  let next = account.runs[at + RUN_START] as number;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      while (s.charCodeAt(next) === SPACE) next++;
      next++; // the comma between lots
    }
    next = scanLot(s, next);
    // accountLots read this text already; a failure here would be a bug, not a shape.
    if (next < 0) throw new Error('a lot run read differently the second time');
    gathered[i] = { id: lotNumbers[ID], shares: microsToShares(lotNumbers[SHARES] as number), costBasis: centsToDollars(lotNumbers[CENTS] as number), acquiredOn: dateAt(s, lotDateStart, lotDateEnd) };
  }
  const lots = gathered.slice(0, count) as TaxLot[];
  for (let i = 0; i < count; i++) gathered[i] = undefined;
  return lots;
}

/**
 * Dates read from lot text, one string a date: a book's lots share a few thousand dates, and a
 * string made for each lot and summary (kept as long as its chunk) was a tenth of what reading the
 * lots allocated. An ISO date of the years FIRST_YEAR to FIRST_YEAR + 255 has a slot of its own
 * (416 a year: month × 32 + day), looked up by index; a Map keyed by the date's digits cost a
 * tenth of a tax-aware chunk's planning, being asked for every lot and every position's summary.
 * Any other text is sliced as it is.
 */
const FIRST_YEAR = 1900;
const SLOTS_A_YEAR = 416;
const dates: (string | undefined)[] = new Array<string | undefined>(256 * SLOTS_A_YEAR).fill(undefined);

/** The whole number written by the `n` digits at `at`, or -1 if one is not a digit. */
function digitsAt(s: string, at: number, n: number): number {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

function dateAt(s: string, start: number, end: number): string {
  if (end - start !== 10 || s.charCodeAt(start + 4) !== MINUS || s.charCodeAt(start + 7) !== MINUS) return s.slice(start, end);
  const year = digitsAt(s, start, 4) - FIRST_YEAR;
  const month = digitsAt(s, start + 5, 2);
  const day = digitsAt(s, start + 8, 2);
  if (year < 0 || year > 255 || month < 0 || month > 12 || day < 0 || day > 31) return s.slice(start, end);
  const slot = year * SLOTS_A_YEAR + month * 32 + day;
  let date = dates[slot];
  if (date === undefined) {
    date = s.slice(start, end);
    dates[slot] = date;
  }
  return date;
}

/** Whether s[a, aEnd) sorts after s[b, bEnd), as strings compare (ISO dates, and SQL's max, compare character by character). */
function laterDate(s: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const n = aEnd - a < bEnd - b ? aEnd - a : bEnd - b;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(a + i) - s.charCodeAt(b + i);
    if (d !== 0) return d > 0;
  }
  return aEnd - a > bEnd - b;
}
