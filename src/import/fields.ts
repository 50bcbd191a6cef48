import { CsvHeader, CsvRecord, normalize, type ImportIssue, type RowValues, type SourceRow } from './sources.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TRUE = /^(true|yes|y|1)$/i;
const FALSE = /^(false|no|n|0)$/i;

export interface DecimalOptions {
  required?: boolean;
  min?: number;
  max?: number;
  scale: number;
  positive?: boolean;
}

/** Valid calendar dates seen so far: a file repeats a few thousand dates over its rows. */
const validDates = new Set<string>();

function isDate(value: string): boolean {
  if (validDates.has(value)) return true;
  const valid = DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
  // Bounded: at most every date of a few centuries.
  if (valid && validDates.size < 200_000) validDates.add(value);
  return valid;
}

const fieldSets = new WeakMap<readonly string[], Set<string>>();
const normalizedNames = new Map<string, string>();

/** Built once per entity, not once per row: an import reads hundreds of thousands of rows. */
function fieldSet(known: readonly string[]): Set<string> {
  let set = fieldSets.get(known);
  if (!set) fieldSets.set(known, (set = new Set(known.map(normalize))));
  return set;
}

/** A CSV file's header belongs to one entity: its unknown columns are found once, not per row. */
const unknownOfHeader = new WeakMap<CsvHeader, string[]>();

function unknownFields(values: RowValues, known: readonly string[]): string[] {
  const header = values instanceof CsvRecord ? values.header : undefined;
  const cached = header && unknownOfHeader.get(header);
  if (cached) return cached;
  const fields = fieldSet(known);
  const unknown = [...values.keys()].filter((key) => !fields.has(key));
  if (header) unknownOfHeader.set(header, unknown);
  return unknown;
}

/** The handlers' field names are a few constants; their normalized forms are kept. */
function normalized(field: string): string {
  let name = normalizedNames.get(field);
  if (name === undefined) normalizedNames.set(field, (name = normalize(field)));
  return name;
}

/**
 * Typed reads of one row's fields. Every problem is recorded against the row's file and line
 * and the snake_case field name, and the row is marked bad; reading goes on so that one pass
 * reports every problem of the row.
 */
export class RowReader {
  bad = false;

  constructor(
    readonly row: SourceRow,
    private readonly issues: ImportIssue[],
    known: readonly string[],
  ) {
    for (const key of unknownFields(row.values, known)) this.fail(key, `unknown field; expected one of ${known.join(', ')}`);
  }

  fail(field: string, message: string): void {
    this.bad = true;
    this.issues.push({ file: this.row.file, line: this.row.line, field, message });
  }

  private raw(field: string): unknown {
    const value = this.row.values.get(normalized(field));
    // PostgreSQL refuses NUL in text and SQLite stores it silently: refused here, as over HTTP.
    if (typeof value === 'string' && value.includes('\u0000')) {
      this.fail(field, 'must not contain a NUL character');
      return undefined;
    }
    return value === '' ? undefined : (value ?? undefined);
  }

  has(field: string): boolean {
    return this.raw(field) !== undefined;
  }

  text(field: string, required: true, max?: number): string;
  text(field: string, required?: false, max?: number): string | null;
  text(field: string, required = false, max = 200): string | null {
    const value = this.raw(field);
    if (value === undefined) {
      if (required) this.fail(field, 'is required');
      return required ? '' : null;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      this.fail(field, 'must be text');
      return required ? '' : null;
    }
    const text = String(value).trim();
    if (text.length > max) this.fail(field, `must be at most ${max} characters`);
    return text;
  }

  oneOf<T extends string>(field: string, allowed: readonly T[], required: boolean): T | null {
    const value = this.text(field, required as false);
    if (value === null || value === '') return null;
    const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
    if (!match) this.fail(field, `must be one of ${allowed.join(', ')}; got "${value}"`);
    return match ?? null;
  }

  flag(field: string, fallback: 0 | 1): 0 | 1 {
    const value = this.raw(field);
    if (value === undefined) return fallback;
    if (value === true || value === 1 || (typeof value === 'string' && TRUE.test(value.trim()))) return 1;
    if (value === false || value === 0 || (typeof value === 'string' && FALSE.test(value.trim()))) return 0;
    this.fail(field, `must be true or false; got ${JSON.stringify(value)}`);
    return fallback;
  }

  /** A plain decimal (no exponent, no thousands separators) with at most `scale` places. */
  decimal(field: string, options: DecimalOptions): number | null {
    return this.decimalText(field, options)?.number ?? null;
  }

  /**
   * A decimal as an integer count of 10^-places units (cents: 2, micros: 6), exact: the text has
   * at most `scale` <= `places` decimals, so its digits are the integer. Same result as
   * shared/money's conversions, without a big.js round trip for each of a file's values.
   */
  scaled(field: string, options: DecimalOptions, places: number): number | null {
    const read = this.decimalText(field, options);
    if (!read) return null;
    const { text } = read;
    const dot = text.indexOf('.');
    // The digits without the point are an exact integer (within range: under 2^53), and so is
    // its product with a power of ten up to `places`. + 0: -0 becomes 0.
    if (dot < 0) return Number(text) * 10 ** places + 0;
    return Number(text.slice(0, dot) + text.slice(dot + 1)) * 10 ** (places - (text.length - dot - 1)) + 0;
  }

  private decimalText(field: string, options: DecimalOptions): { text: string; number: number } | null {
    const value = this.raw(field);
    if (value === undefined) {
      if (options.required) this.fail(field, 'is required');
      return null;
    }
    const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
    if (!DECIMAL.test(text)) {
      this.fail(field, `must be a decimal number; got ${JSON.stringify(value)}`);
      return null;
    }
    const dot = text.indexOf('.');
    const places = dot < 0 ? 0 : text.length - dot - 1;
    if (places > options.scale) {
      this.fail(field, `must have at most ${options.scale} decimal places`);
      return null;
    }
    const number = Number(text);
    if (options.positive && number <= 0) this.fail(field, 'must be greater than 0');
    else if (options.min !== undefined && number < options.min) this.fail(field, `must be at least ${options.min}`);
    else if (options.max !== undefined && number > options.max) this.fail(field, `must be at most ${options.max}`);
    return { text, number };
  }

  date(field: string, required = false): string | null {
    const value = this.text(field, required as false);
    if (value === null || value === '') return null;
    const valid = isDate(value);
    if (!valid) this.fail(field, `must be a date YYYY-MM-DD; got "${value}"`);
    return valid ? value : null;
  }

  /** A reference: a whole number is an id, anything else a natural key. */
  reference(field: string, required = true): { id: number } | { key: string } | null {
    const value = this.raw(field);
    if (value === undefined) {
      if (required) this.fail(field, 'is required');
      return null;
    }
    if (typeof value === 'number' && Number.isInteger(value)) return { id: value };
    if (typeof value !== 'string') {
      this.fail(field, 'must be an id or a name');
      return null;
    }
    const text = value.trim();
    return /^\d+$/.test(text) ? { id: Number(text) } : { key: text };
  }
}
