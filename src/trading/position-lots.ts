// A position's tax lots as the rebalance loader reads them: one text value per position, a short
// summary ahead of the lots' JSON, "<max cost per share> <latest acquired date> <max lot
// cost_cents> [[id, shares_micros, cost_cents, acquired_date], …]". The engine reads the summary
// for every position of a taxable account (is there a loss to harvest, a buy in the wash-sale
// window?) and the lots only of the positions it sells or harvests; most of an advisory or
// direct-indexing book's lots are then never parsed. The database builds it in the same pass over
// the lots (snapshot-repository.ts packedPositions), so the summary costs no extra read.

import type { LotsSummary, Position, TaxLot } from '../engine/index.js';
import { centsToDollars, microsToShares } from '../shared/money.js';
import { plainInteger } from '../shared/plain-integer.js';

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
// JSON.parse, so it never reads a lot differently from it.

let at = 0;

function skipSpaces(s: string): void {
  while (s.charCodeAt(at) === 32) at++;
}

/** A plain integer (shared/plain-integer.ts) at the cursor, or NaN for anything else. */
function integerAt(s: string): number {
  skipSpaces(s);
  const start = at;
  if (s.charCodeAt(at) === 45) at++;
  while (s.charCodeAt(at) >= 48 && s.charCodeAt(at) <= 57) at++;
  const next = s.charCodeAt(at);
  if (next === 46 || next === 101 || next === 69) return NaN;
  return plainInteger(s, start, at);
}

/** True when the next non-space character is `code`, which the cursor then passes. */
function passes(s: string, code: number): boolean {
  skipSpaces(s);
  if (s.charCodeAt(at) !== code) return false;
  at++;
  return true;
}

const OPEN = 91;
const CLOSE = 93;
const COMMA = 44;
const QUOTE = 34;

function scanLots(s: string): TaxLot[] | null {
  at = 0;
  const lots: TaxLot[] = [];
  if (!passes(s, OPEN)) return null;
  if (passes(s, CLOSE)) return lots;
  for (;;) {
    if (!passes(s, OPEN)) return null;
    const id = integerAt(s);
    if (!passes(s, COMMA)) return null;
    const sharesMicros = integerAt(s);
    if (!passes(s, COMMA)) return null;
    const costCents = integerAt(s);
    if (Number.isNaN(id) || Number.isNaN(sharesMicros) || Number.isNaN(costCents) || !passes(s, COMMA) || !passes(s, QUOTE)) return null;
    const end = s.indexOf('"', at);
    if (end < 0) return null;
    const acquiredOn = s.slice(at, end);
    if (acquiredOn.includes('\\')) return null;
    at = end + 1;
    if (!passes(s, CLOSE)) return null;
    lots.push({ id, shares: microsToShares(sharesMicros), costBasis: centsToDollars(costCents), acquiredOn });
    if (passes(s, CLOSE)) return lots;
    if (!passes(s, COMMA)) return null;
  }
}
