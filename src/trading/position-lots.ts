// A position's tax lots as the rebalance loader reads them: one JSON text per position,
// "[[id, shares_micros, cost_cents, acquired_date], …]". The engine reads a summary of them for
// every position of a taxable account (is there a loss to harvest, a buy in the wash-sale window?)
// and the lots only of the positions it sells or harvests; most of an advisory or direct-indexing
// book's lots are then never made into objects. The summary is read from the text here, on first
// ask, by a scan that makes nothing but the summary: built by the database beside each position's
// lots, its three aggregates and their text were a third of the read's time in SQLite.

import type { LotsSummary, Position, TaxLot } from '../engine/index.js';
import { centsToDollars, microsToShares } from '../shared/money.js';
import { plainInteger } from '../shared/plain-integer.js';

/** A lot as the lots column carries it: [id, shares_micros, cost_cents, acquired_date]. */
type LotTuple = [number, number, number, string];

/**
 * A position whose lots and their summary are read from its text on first ask. `taxLots` and
 * `lotsSummary` are getters of the class: an object spread of a StoredPosition would drop both, so
 * code that copies positions builds new ones (engine/replay.ts does) rather than spreading them.
 */
export class StoredPosition implements Position {
  #lots: readonly TaxLot[] | undefined | null = null;
  #summary: LotsSummary | undefined | null = null;
  readonly #text: string | null;
  readonly #start: number;
  readonly #end: number;

  /** `lots` from `start` to `end` is the position's lot text (the whole account's text: no copy of the segment is made). */
  constructor(
    readonly productId: number,
    readonly shares: number,
    readonly costBasis: number,
    lots: string | null,
    start = 0,
    end = lots === null ? 0 : lots.length,
  ) {
    this.#text = lots;
    this.#start = start;
    this.#end = end;
  }

  get taxLots(): readonly TaxLot[] | undefined {
    if (this.#lots === null) this.#lots = this.#text === null ? undefined : parseLots(this.#text, this.#start, this.#end);
    return this.#lots;
  }

  /** What the lots hold at most; undefined when the position has none. */
  get lotsSummary(): LotsSummary | undefined {
    if (this.#summary === null) this.#summary = this.#text === null ? undefined : summarize(this.#text, this.#start, this.#end);
    return this.#summary;
  }

  /** Lets go of the lots and summary read so far (read again if asked again). */
  forgetLots(): void {
    this.#lots = null;
    this.#summary = null;
  }
}

/**
 * Lets go of what the positions' lots were read into, once their household is planned: the run
 * reads them no more, and they would otherwise live until the chunk is written, copied by every
 * scavenge on the way (a tax-aware chunk parses and summarizes the lots of every taxable account).
 * Let go of young, they cost the collector nothing.
 */
export function forgetLots(positions: readonly Position[]): void {
  for (const p of positions) if (p instanceof StoredPosition) p.forgetLots();
}

/** Lot segments of an account are split by the record separator, which JSON text never holds unescaped. */
const SEGMENTS = String.fromCharCode(30);

/**
 * An account's positions from its packed row (snapshot-repository.ts packedPositions), in product
 * order: `held` is a JSON array of (product_id, shares_micros, cost_cents) triples, `lots` null or
 * "<product_id> <lots>" segments for the positions that have lots.
 */
export function unpackPositions(held: string, lots: string | null): StoredPosition[] {
  const n = JSON.parse(held) as number[];
  const count = Math.floor(n.length / 3);
  const positions = new Array<StoredPosition>(count);
  // One pass of the database over the account's positions builds both the triples and the
  // segments, so the segments come in the triples' order: each is matched to its position walking
  // both at once, read in place in the account's text (a split and a map per account cost more
  // than the rest of the unpacking). Any other order leaves a segment unmatched, and then the
  // segments are looked up by product.
  let at = 0;
  let segmentProduct = NaN;
  let space = -1;
  if (lots !== null && lots.length > 0) {
    space = lots.indexOf(' ');
    segmentProduct = plainInteger(lots, 0, space);
  }
  let sorted = true;
  for (let i = 0; i < count; i++) {
    const productId = n[3 * i] as number;
    const shares = microsToShares(n[3 * i + 1] as number);
    const costBasis = centsToDollars(n[3 * i + 2] as number);
    if (lots !== null && productId === segmentProduct) {
      let end = lots.indexOf(SEGMENTS, space + 1);
      if (end < 0) end = lots.length;
      positions[i] = new StoredPosition(productId, shares, costBasis, lots, space + 1, end);
      at = end + 1;
      space = at < lots.length ? lots.indexOf(' ', at) : -1;
      segmentProduct = at < lots.length ? plainInteger(lots, at, space) : NaN;
    } else {
      positions[i] = new StoredPosition(productId, shares, costBasis, null);
    }
    if (i > 0 && productId < (positions[i - 1] as StoredPosition).productId) sorted = false;
  }
  if (lots !== null && at < lots.length) return unpackByProduct(n, lots);
  // The engine takes an account's positions in product order; the database reads them that way
  // from the (account, product) index, so the sort (which copies the array) is rarely needed.
  return sorted ? positions : positions.sort((a, b) => a.productId - b.productId);
}

/** unpackPositions when the segments do not follow the triples: each segment found by its product. */
function unpackByProduct(n: number[], lots: string): StoredPosition[] {
  const lotsOf = new Map<number, string>();
  for (const segment of lots.split(SEGMENTS)) {
    const space = segment.indexOf(' ');
    lotsOf.set(Number(segment.slice(0, space)), segment.slice(space + 1));
  }
  const positions = new Array<StoredPosition>(Math.floor(n.length / 3));
  for (let i = 0; i < positions.length; i++) {
    const productId = n[3 * i] as number;
    positions[i] = new StoredPosition(productId, microsToShares(n[3 * i + 1] as number), centsToDollars(n[3 * i + 2] as number), lotsOf.get(productId) ?? null);
  }
  return positions.sort((a, b) => a.productId - b.productId);
}

function parseLots(text: string, start: number, end: number): TaxLot[] | undefined {
  const lots = scanLots(text, start) ?? parseLotsJson(text.slice(start, end));
  return lots.length === 0 ? undefined : lots;
}

function parseLotsJson(text: string): TaxLot[] {
  const tuples = JSON.parse(text) as LotTuple[] | null;
  return (tuples ?? []).map(([id, sharesMicros, costCents, acquiredOn]): TaxLot => ({ id, shares: microsToShares(sharesMicros), costBasis: centsToDollars(costCents), acquiredOn }));
}

/**
 * The summary of the lots, as SQL would aggregate them: the highest cost per share of a lot with
 * shares (cents × 10,000 / micro-shares: dollars a share; 0 when no lot has shares), the newest
 * acquired date, the highest cost of a lot. Undefined when there is no lot.
 */
function summarize(text: string, start: number, end: number): LotsSummary | undefined {
  if (!scanSummary(text, start)) return summaryOfTuples(JSON.parse(text.slice(start, end)) as LotTuple[] | null);
  if (found === 0) return undefined;
  const perShare = most[PER_SHARE] as number;
  return { maxCostPerShare: perShare === -Infinity ? 0 : perShare, latestAcquiredOn: dateAt(text, dateStart, dateEnd), maxLotCost: centsToDollars(most[COST] as number) };
}

function summaryOfTuples(tuples: LotTuple[] | null): LotsSummary | undefined {
  if (tuples === null || tuples.length === 0) return undefined;
  let perShare = -Infinity;
  let cost = -Infinity;
  let latest = '';
  for (const [, sharesMicros, costCents, acquiredOn] of tuples) {
    if (sharesMicros !== 0 && (costCents * 10000) / sharesMicros > perShare) perShare = (costCents * 10000) / sharesMicros;
    if (costCents > cost) cost = costCents;
    if (acquiredOn > latest) latest = acquiredOn;
  }
  return { maxCostPerShare: perShare === -Infinity ? 0 : perShare, latestAcquiredOn: latest, maxLotCost: centsToDollars(cost) };
}

// The lots of every position a run sells or harvests are parsed (0.3 s of a 30,000-account
// tax-aware run through JSON.parse, which builds an array per lot before its object): this scan
// builds the objects directly. It reads the shapes both databases write, SQLite's compact JSON and
// PostgreSQL's with spaces, and hands anything else (a fraction, an escape, a null date) to
// JSON.parse, so it never reads a lot differently from it. The cursor stays in a local of each
// function, handed on as an argument and a result: a cursor shared by helper functions in a module
// variable lives in memory, and every character read went there and back.

const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const QUOTE = 34;
const SPACE = 32;
const MINUS = 45;
const BACKSLASH = 92;

/** One lot's fields as scanLot last read them, in module variables: no array or object per lot. */
const lotNumbers = new Float64Array(3);
const ID = 0;
const SHARES = 1;
const CENTS = 2;
let lotDateStart = 0;
let lotDateEnd = 0;

/**
 * Reads one lot `[id, shares in micros, cost in cents, "date"]` from `at` into lotNumbers and the
 * date's bounds: the index after its `]`, or -1 for a text of any other shape. Each number is a
 * plain integer (shared/plain-integer.ts): an optional minus and 1 to 15 digits, nothing else; the
 * date a string without escapes.
 */
function scanLot(s: string, at: number): number {
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== OPEN) return -1;
  for (let k = 0; k < 3; k++) {
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
 * Walks a lot list `[lot, …]` from `start`, calling `onLot` after scanLot read each one: false for
 * a text of any other shape (left to JSON.parse). `onLot` is a module function, not a closure, so
 * a walk makes nothing of its own.
 */
function walkLots(s: string, start: number, onLot: (s: string) => void): boolean {
  let at = start;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== OPEN) return false;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at) === CLOSE) return true;
  for (;;) {
    at = scanLot(s, at);
    if (at < 0) return false;
    onLot(s);
    while (s.charCodeAt(at) === SPACE) at++;
    const next = s.charCodeAt(at++);
    if (next === CLOSE) return true;
    if (next !== COMMA) return false;
  }
}

/** The list scanLots is filling. */
let collected: TaxLot[] = [];

function collectLot(s: string): void {
  collected.push({ id: lotNumbers[ID], shares: microsToShares(lotNumbers[SHARES] as number), costBasis: centsToDollars(lotNumbers[CENTS] as number), acquiredOn: dateAt(s, lotDateStart, lotDateEnd) });
}

/**
 * The lots are gathered in one list kept for every scan, then copied to a list of their number: a
 * list grown by push from empty holds room for 17, and a position has a few lots (its list is kept
 * as long as its chunk is).
 */
const scratch: TaxLot[] = [];

function scanLots(s: string, start: number): TaxLot[] | null {
  scratch.length = 0;
  collected = scratch;
  const read = walkLots(s, start, collectLot);
  const lots = read ? scratch.slice() : null;
  scratch.length = 0;
  return lots;
}

/**
 * Dates read from lot text, one string a date: a book's lots share a few thousand dates, and a
 * string made for each lot and summary (kept as long as its chunk) was a tenth of what reading the
 * lots allocated. Keyed by the date's digits (YYYYMMDD) when it is an ISO date; anything else is
 * sliced as it is. Cleared when it grows past any book's dates.
 */
const dates = new Map<number, string>();

function dateAt(s: string, start: number, end: number): string {
  if (end - start !== 10 || s.charCodeAt(start + 4) !== MINUS || s.charCodeAt(start + 7) !== MINUS) return s.slice(start, end);
  let key = 0;
  for (let i = start; i < end; i++) {
    if (i === start + 4 || i === start + 7) continue;
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return s.slice(start, end);
    key = key * 10 + d;
  }
  let date = dates.get(key);
  if (date === undefined) {
    if (dates.size >= 100_000) dates.clear();
    date = s.slice(start, end);
    dates.set(key, date);
  }
  return date;
}

// What scanSummary found, in module variables: the summary is asked for every position of a
// taxable account, and a result object per scan would be garbage at once. The two fractions sit in
// a typed array: a module variable holding a fraction is a new heap number at each assignment.
let found = 0;
const most = new Float64Array(2);
const PER_SHARE = 0;
const COST = 1;
let dateStart = 0;
let dateEnd = 0;

function summarizeLot(s: string): void {
  if (found === 0 || laterDate(s, lotDateStart, lotDateEnd, dateStart, dateEnd)) {
    dateStart = lotDateStart;
    dateEnd = lotDateEnd;
  }
  found++;
  const shares = lotNumbers[SHARES] as number;
  const cost = lotNumbers[CENTS] as number;
  if (shares !== 0 && (cost * 10000) / shares > (most[PER_SHARE] as number)) most[PER_SHARE] = (cost * 10000) / shares;
  if (cost > (most[COST] as number)) most[COST] = cost;
}

/**
 * The lots' summary read from their text as scanLots reads them, making nothing; false for a
 * text scanLots would leave to JSON.parse. The newest date is compared in place (ISO dates, and
 * SQL's max, compare character by character).
 */
function scanSummary(s: string, start: number): boolean {
  found = 0;
  most[PER_SHARE] = -Infinity;
  most[COST] = -Infinity;
  dateStart = 0;
  dateEnd = 0;
  return walkLots(s, start, summarizeLot);
}

/** Whether s[a, aEnd) sorts after s[b, bEnd), as strings compare. */
function laterDate(s: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const n = aEnd - a < bEnd - b ? aEnd - a : bEnd - b;
  for (let i = 0; i < n; i++) {
    const d = s.charCodeAt(a + i) - s.charCodeAt(b + i);
    if (d !== 0) return d > 0;
  }
  return aEnd - a > bEnd - b;
}
