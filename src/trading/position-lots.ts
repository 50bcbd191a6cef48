// A position's tax lots as the rebalance loader reads them: one text value per position, a short
// summary ahead of the lots' JSON, "<max cost per share> <latest acquired date> <max lot
// cost_cents> [[id, shares_micros, cost_cents, acquired_date], …]". The engine reads the summary
// for every position of a taxable account (is there a loss to harvest, a buy in the wash-sale
// window?) and the lots only of the positions it sells or harvests; most of an advisory or
// direct-indexing book's lots are then never parsed. The database builds it in the same pass over
// the lots (snapshot-repository.ts packedPositions), so the summary costs no extra read.

import type { LotsSummary, Position, TaxLot } from '../engine/index.js';
import { centsToDollars, microsToShares } from '../shared/money.js';

/** A lot as the lots column carries it: [id, shares_micros, cost_cents, acquired_date]. */
type LotTuple = [number, number, number, string];

/**
 * A position whose lots are parsed on first read of `taxLots`. `taxLots` is a getter of the class:
 * an object spread of a StoredPosition would keep its summary and drop its lots, so code that copies
 * positions builds new ones (engine/replay.ts does) rather than spreading them.
 */
export class StoredPosition implements Position {
  readonly lotsSummary: LotsSummary | undefined;
  #lots: readonly TaxLot[] | undefined | null = null;
  readonly #text: string | null;

  constructor(
    readonly productId: number,
    readonly shares: number,
    readonly costBasis: number,
    lots: string | null,
  ) {
    if (lots === null) {
      this.#text = null;
      this.lotsSummary = undefined;
      return;
    }
    const first = lots.indexOf(' ');
    const second = lots.indexOf(' ', first + 1);
    const third = lots.indexOf(' ', second + 1);
    this.lotsSummary = {
      maxCostPerShare: Number(lots.slice(0, first)),
      latestAcquiredOn: lots.slice(first + 1, second),
      maxLotCost: centsToDollars(Number(lots.slice(second + 1, third))),
    };
    this.#text = lots.slice(third + 1);
  }

  get taxLots(): readonly TaxLot[] | undefined {
    if (this.#lots === null) this.#lots = parseLots(this.#text);
    return this.#lots;
  }
}

/** Lot segments of an account are split by the record separator, which JSON text never holds unescaped. */
const SEGMENTS = String.fromCharCode(30);

/**
 * An account's positions from its packed row (snapshot-repository.ts packedPositions), in product
 * order: `held` is a JSON array of (product_id, shares_micros, cost_cents) triples, `lots` null or
 * "<product_id> <lots>" segments for the positions that have lots.
 */
export function unpackPositions(held: string, lots: string | null): StoredPosition[] {
  const lotsOf = lots === null ? null : new Map<number, string>();
  if (lotsOf !== null && lots !== null) {
    for (const segment of lots.split(SEGMENTS)) {
      const space = segment.indexOf(' ');
      lotsOf.set(Number(segment.slice(0, space)), segment.slice(space + 1));
    }
  }
  const n = JSON.parse(held) as number[];
  const positions = new Array<StoredPosition>(Math.floor(n.length / 3));
  let sorted = true;
  for (let i = 0; i < positions.length; i++) {
    const productId = n[3 * i] as number;
    positions[i] = new StoredPosition(productId, microsToShares(n[3 * i + 1] as number), centsToDollars(n[3 * i + 2] as number), lotsOf?.get(productId) ?? null);
    if (i > 0 && productId < (positions[i - 1] as StoredPosition).productId) sorted = false;
  }
  // The engine takes an account's positions in product order; the database reads them that way
  // from the (account, product) index, so the sort (which copies the array) is rarely needed.
  return sorted ? positions : positions.sort((a, b) => a.productId - b.productId);
}

function parseLots(text: string | null): TaxLot[] | undefined {
  if (text === null) return undefined;
  const lots = scanLots(text) ?? parseLotsJson(text);
  return lots.length === 0 ? undefined : lots;
}

function parseLotsJson(text: string): TaxLot[] {
  const tuples = JSON.parse(text) as LotTuple[] | null;
  return (tuples ?? []).map(([id, sharesMicros, costCents, acquiredOn]): TaxLot => ({ id, shares: microsToShares(sharesMicros), costBasis: centsToDollars(costCents), acquiredOn }));
}

// The lots of every position a run sells or harvests are parsed (0.3 s of a 30,000-account
// tax-aware run through JSON.parse, which builds an array per lot before its object): this scan
// builds the objects directly. It reads the shapes both databases write, SQLite's compact JSON and
// PostgreSQL's with spaces, and hands anything else (a fraction, an escape, a null date) to
// JSON.parse, so it never reads a lot differently from it. One function with its cursor in a local:
// a cursor shared by helper functions lives in memory, and every character read went there and back.

const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const QUOTE = 34;
const SPACE = 32;
const MINUS = 45;

function scanLots(s: string): TaxLot[] | null {
  const lots: TaxLot[] = [];
  let at = 0;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at++) !== OPEN) return null;
  while (s.charCodeAt(at) === SPACE) at++;
  if (s.charCodeAt(at) === CLOSE) return lots;
  const numbers = [0, 0, 0];
  for (;;) {
    while (s.charCodeAt(at) === SPACE) at++;
    if (s.charCodeAt(at++) !== OPEN) return null;
    // The id, the shares in micros and the cost in cents, each a plain integer (shared/plain-integer.ts)
    // followed by a comma: an optional minus and 1 to 15 digits, nothing else.
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
      if (at === first || at - first > 15) return null;
      numbers[k] = negative ? -value : value;
      while (c === SPACE) c = s.charCodeAt(++at);
      if (c !== COMMA) return null;
      at++;
    }
    while (s.charCodeAt(at) === SPACE) at++;
    if (s.charCodeAt(at++) !== QUOTE) return null;
    const end = s.indexOf('"', at);
    if (end < 0) return null;
    const acquiredOn = s.slice(at, end);
    if (acquiredOn.includes('\\')) return null;
    at = end + 1;
    while (s.charCodeAt(at) === SPACE) at++;
    if (s.charCodeAt(at++) !== CLOSE) return null;
    lots.push({ id: numbers[0], shares: microsToShares(numbers[1] as number), costBasis: centsToDollars(numbers[2] as number), acquiredOn });
    while (s.charCodeAt(at) === SPACE) at++;
    const next = s.charCodeAt(at++);
    if (next === CLOSE) return lots;
    if (next !== COMMA) return null;
  }
}
