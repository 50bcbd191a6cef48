import { EntityEnum, type EntityCode } from './schemas.js';

/**
 * Shape checks of one batch item (rules 2 and 4). They run per item, so one bad item fails
 * alone; the checks that need the database (existence, uniqueness) are in the service.
 */

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// .NET clients send dates as `2026-01-31T00:00:00`; the time part carries nothing for a block.
const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
/** `DateTime.MinValue` of the source system: a start date that was never set. */
const MIN_DATE = '0001-01-01';
export const MAX_DESCRIPTION = 1000;

export type ReasonRef = { id: number } | { nested: { id?: number; globalId?: string; name?: string } };

export interface CreateItem {
  entityEnum: EntityCode;
  entityId: number;
  description: string;
  startDate: string;
  endDate: string | null;
  reason: ReasonRef;
  globalId: string | undefined;
}

export interface UpdateItem {
  globalId: string;
  id: number | undefined;
  entityEnum: unknown;
  entityId: unknown;
  tradeBlockReasonId: unknown;
  nestedReasonId: unknown;
  description: string | undefined;
  startDate: string | undefined;
  /** undefined: keep; null: clear. */
  endDate: string | null | undefined;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPositiveInt = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const absent = (value: unknown) => value === undefined || value === null;

export function normalizeGuid(value: unknown): string | undefined {
  return typeof value === 'string' && GUID.test(value) ? value.toLowerCase() : undefined;
}

/** A YYYY-MM-DD calendar date, or undefined when the value is not one. */
export function parseDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = DATE.exec(value);
  if (!match) return undefined;
  const [, y, m, d] = match;
  const date = `${y}-${m}-${d}`;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === date ? date : undefined;
}

function checkDescription(value: unknown, problems: string[]) {
  if (typeof value !== 'string' || value.trim() === '') problems.push('description: is required');
  else if (value.length > MAX_DESCRIPTION) problems.push(`description: must be at most ${MAX_DESCRIPTION} characters`);
}

function checkStart(value: unknown, problems: string[]): string | undefined {
  if (absent(value)) {
    problems.push('startDate: is required');
    return undefined;
  }
  const date = parseDate(value);
  if (!date) problems.push(`startDate: ${JSON.stringify(value)} is not a date (YYYY-MM-DD)`);
  else if (date === MIN_DATE) problems.push('startDate: must be set (it is the minimum date)');
  return date;
}

function checkEnd(value: unknown, start: string | undefined, problems: string[]): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '') return null;
  const date = parseDate(value);
  if (!date) problems.push(`endDate: ${JSON.stringify(value)} is not a date (YYYY-MM-DD)`);
  else if (start && date <= start) problems.push(`endDate: must be after startDate (${start})`);
  return date;
}

export function checkCreateItem(raw: unknown, customTypes: boolean): Checked<CreateItem> {
  if (!isObject(raw)) return { ok: false, message: 'item: must be a trade block detail object' };
  const problems: string[] = [];
  if (!absent(raw.id) && raw.id !== 0) problems.push('id: must be 0 on create');
  const entityEnum = raw.entityEnum;
  if (entityEnum !== EntityEnum.Registration && entityEnum !== EntityEnum.Account) {
    problems.push(`entityEnum: must be 6 (Registration) or 7 (Account), got ${JSON.stringify(entityEnum ?? null)}`);
  }
  if (!isPositiveInt(raw.entityId)) problems.push('entityId: must be an integer greater than 0');
  checkDescription(raw.description, problems);
  const startDate = checkStart(raw.startDate, problems);
  const endDate = checkEnd(raw.endDate, startDate, problems) ?? null;

  let reason: ReasonRef | undefined;
  const nested = raw.tradeBlockReason;
  if (isPositiveInt(raw.tradeBlockReasonId)) reason = { id: raw.tradeBlockReasonId };
  else if (!absent(raw.tradeBlockReasonId) && raw.tradeBlockReasonId !== 0) {
    problems.push('tradeBlockReasonId: must be the integer id of a trade block reason');
  } else if (customTypes && isObject(nested)) {
    const ref = {
      id: isPositiveInt(nested.id) ? nested.id : undefined,
      globalId: normalizeGuid(nested.globalId),
      name: typeof nested.name === 'string' && nested.name.trim() !== '' ? nested.name.trim() : undefined,
    };
    if (!ref.id && !ref.globalId && !ref.name) problems.push('tradeBlockReason: needs an id, a globalId or a name');
    else if (ref.name && ref.name.length > 100) problems.push('tradeBlockReason.name: must be at most 100 characters');
    else reason = { nested: ref };
  } else {
    problems.push(customTypes ? 'tradeBlockReasonId: is required (or a nested tradeBlockReason)' : 'tradeBlockReasonId: is required');
  }

  let globalId: string | undefined;
  if (!absent(raw.globalId) && raw.globalId !== '') {
    globalId = normalizeGuid(raw.globalId);
    if (!globalId) problems.push(`globalId: ${JSON.stringify(raw.globalId)} is not a GUID`);
  }
  if (problems.length > 0) return { ok: false, message: problems.join('; ') };
  return {
    ok: true,
    value: { entityEnum: entityEnum as EntityCode, entityId: raw.entityId as number, description: raw.description as string, startDate: startDate!, endDate, reason: reason!, globalId },
  };
}

export function checkUpdateItem(raw: unknown): Checked<UpdateItem> {
  if (!isObject(raw)) return { ok: false, message: 'item: must be a trade block detail object' };
  const problems: string[] = [];
  const globalId = normalizeGuid(raw.globalId);
  if (absent(raw.globalId)) problems.push('globalId: is required; updates are matched by globalId');
  else if (!globalId) problems.push(`globalId: ${JSON.stringify(raw.globalId)} is not a GUID`);
  if (!absent(raw.id) && !Number.isInteger(raw.id)) problems.push('id: must be an integer');
  if (raw.description !== undefined) checkDescription(raw.description, problems);
  let startDate: string | undefined;
  if (raw.startDate !== undefined) startDate = checkStart(raw.startDate, problems);
  const endDate = checkEnd(raw.endDate, undefined, problems);
  if (problems.length > 0) return { ok: false, message: problems.join('; ') };
  const nested = isObject(raw.tradeBlockReason) ? raw.tradeBlockReason.id : undefined;
  return {
    ok: true,
    value: {
      globalId: globalId!,
      id: absent(raw.id) || raw.id === 0 ? undefined : (raw.id as number),
      entityEnum: raw.entityEnum,
      entityId: raw.entityId,
      tradeBlockReasonId: raw.tradeBlockReasonId,
      nestedReasonId: nested,
      description: raw.description as string | undefined,
      startDate,
      endDate,
    },
  };
}
