import { type Clock, isoNow } from '../shared/clock.js';
import { DomainError, type FieldProblem, notFound, validationFailed } from '../shared/errors.js';
import type { UserDefinedFieldInput } from './custom-fields/schemas.js';
import type { EntityDescriptor } from './entities.js';
import type { Actor, UserDefinedFieldsPort } from './extension.js';
import type { BookRepository } from './repository.js';

export type { Actor } from './extension.js';

/** Parts a read may add to the record (`?expand=`). */
export interface Expand {
  userDefinedFields: boolean;
}
export const NO_EXPAND: Expand = { userDefinedFields: false };

/** One record of a write: its fields and, when sent, its complete custom-field list. */
export interface WriteItem<Input> {
  input: Input;
  userDefinedFields?: UserDefinedFieldInput[];
}

interface Checked<Input> extends WriteItem<Input> {
  id: number | undefined;
  at: (field: string) => string;
}

const plain = (field: string) => field;
const indexed = (index: number) => (field: string) => `[${index}].${field}`;

function withoutUndefined(columns: { [column: string]: unknown }) {
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/**
 * Create, read and update of one verbose entity. Every write checks references, uniqueness and
 * custom fields inside the firm first and then writes in one transaction, so a bad item writes
 * nothing.
 */
export class VerboseService<Input extends object, Out> {
  constructor(
    private readonly repository: BookRepository,
    private readonly entity: EntityDescriptor<Input, Out>,
    private readonly clock: Clock,
    private readonly fields?: UserDefinedFieldsPort,
  ) {}

  /** `count`: also the firm's total, which costs a read of every row (see http/paging's CountQuery). */
  async page(actor: Actor, top: number, skip: number, expand: Expand = NO_EXPAND, count = false): Promise<{ items: Out[]; total?: number }> {
    const { rows, total } = await this.repository.page(this.entity.table, actor.firmId, top, skip, count, this.entity.joined);
    return { items: await this.records(this.repository, actor, rows, expand), total };
  }

  async get(actor: Actor, id: number, expand: Expand = NO_EXPAND): Promise<Out> {
    const row = await this.repository.find(this.entity.table, actor.firmId, id, this.entity.joined);
    if (!row) throw notFound(this.entity.label, id);
    const [record] = await this.records(this.repository, actor, [row], expand);
    return record as Out;
  }

  /** `envelope`: the property the record came in (section 2.13's `portfolio`), so problems name it. */
  async create(actor: Actor, item: WriteItem<Input>, expand: Expand = NO_EXPAND, envelope?: string): Promise<Out> {
    const at = envelope ? (field: string) => `${envelope}.${field}` : plain;
    const checked: Checked<Input> = { ...item, input: this.normalize(item.input), id: undefined, at };
    return this.repository.transaction(async (tx) => {
      const write = await this.check(tx, actor, [checked]);
      const now = isoNow(this.clock);
      const id = await tx.insert(this.entity.table, {
        ...withoutUndefined(this.entity.toColumns(checked.input)),
        firm_id: actor.firmId,
        created_at: now,
        created_by: actor.userName,
        edited_at: now,
        edited_by: actor.userName,
      });
      await write([id]);
      const [record] = await this.records(tx, actor, await tx.findMany(this.entity.table, actor.firmId, [id], this.entity.joined), expand);
      return record as Out;
    });
  }

  async update(actor: Actor, id: number, item: WriteItem<Input>, expand: Expand = NO_EXPAND): Promise<Out> {
    const [updated] = await this.write(actor, [{ ...item, id, at: plain }], expand, false);
    return updated as Out;
  }

  /** All or nothing: every item is checked before any is written. */
  async updateMany(actor: Actor, items: (WriteItem<Input> & { id: number })[], expand: Expand = NO_EXPAND): Promise<Out[]> {
    return this.write(actor, items.map((item, index) => ({ ...item, at: indexed(index) })), expand, true);
  }

  private async write(actor: Actor, raw: (WriteItem<Input> & { id: number; at: (field: string) => string })[], expand: Expand, bulk: boolean) {
    const items = raw.map((item) => ({ ...item, input: this.normalize(item.input) }));
    return this.repository.transaction(async (tx) => {
      const ids = items.map((item) => item.id);
      const stored = new Map((await tx.findMany(this.entity.table, actor.firmId, ids)).map((row) => [Number(row.id), row]));
      const missing = items.find((item) => !stored.has(item.id));
      if (missing) {
        if (!bulk) throw notFound(this.entity.label, missing.id);
        const message = `${this.entity.label} ${missing.id} does not exist`;
        throw validationFailed([{ field: missing.at('id'), message }]);
      }
      // One record twice in a request would be written twice, its custom values in one statement.
      const repeated = items.filter((item, i) => ids.indexOf(item.id) !== i);
      if (repeated.length > 0) {
        throw validationFailed(repeated.map((item) => ({ field: item.at('id'), message: `${this.entity.label} ${item.id} is listed more than once` })));
      }
      const writeFields = await this.check(tx, actor, items);
      const now = isoNow(this.clock);
      for (const item of items) {
        await tx.update(this.entity.table, actor.firmId, item.id, {
          ...withoutUndefined(this.entity.toColumns(item.input, stored.get(item.id) as never)),
          edited_at: now,
          edited_by: actor.userName,
        });
      }
      await writeFields(ids);
      const rows = new Map((await tx.findMany(this.entity.table, actor.firmId, ids, this.entity.joined)).map((row) => [Number(row.id), row]));
      return this.records(tx, actor, ids.map((id) => rows.get(id)), expand);
    });
  }

  private normalize(input: Input): Input {
    return this.entity.normalize ? this.entity.normalize(input) : input;
  }

  private async records(tx: BookRepository, actor: Actor, rows: unknown[], expand: Expand): Promise<Out[]> {
    const bare = rows.map((row) => this.entity.toRecord(row as never));
    const records = this.entity.details ? await this.entity.details(tx, actor.firmId, bare) : bare;
    if (!expand.userDefinedFields || !this.fields) return records;
    const keyed = records as (Out & { id: number; name: string })[];
    const fields = await this.fields.read(tx, actor, this.entity.level, keyed.map(({ id, name }) => ({ id, name })));
    return keyed.map((record) => ({ ...record, userDefinedFields: fields.get(record.id) ?? [] }));
  }

  /**
   * Every problem of every item in one 400; then values the caller may not change, a 403.
   * Returns the custom-field write, to run once the records are written.
   */
  private async check(tx: BookRepository, actor: Actor, items: Checked<Input>[]): Promise<(ids: number[]) => Promise<void>> {
    const problems: FieldProblem[] = [];
    for (const reference of this.entity.references) {
      const wanted = items.map((i): unknown => i.input[reference.field]).filter((v): v is number => typeof v === 'number');
      const found = await tx.existingIds(reference.table, actor.firmId, [...new Set(wanted)]);
      for (const item of items) {
        const value = item.input[reference.field];
        if (typeof value === 'number' && !found.has(value)) {
          problems.push({ field: item.at(reference.field), message: `${reference.label} ${value} does not exist` });
        }
      }
    }
    for (const unique of this.entity.uniques) {
      const values = items.map((i) => String(i.input[unique.field]));
      const holders = await tx.holdersOf(this.entity.table, unique.column, actor.firmId, [...new Set(values)]);
      const seen = new Set<string>();
      for (const item of items) {
        const value = String(item.input[unique.field]);
        const heldByOther = holders.some((h) => h.value === value && h.id !== item.id);
        if (heldByOther || seen.has(value)) {
          problems.push({ field: item.at(unique.field), message: `${value} is already used by another ${this.entity.label}` });
        }
        seen.add(value);
      }
    }
    const sent = items.filter((item) => item.userDefinedFields !== undefined);
    if (sent.length > 0 && !this.fields) {
      for (const item of sent) problems.push({ field: item.at('userDefinedFields'), message: `${this.entity.label}s have no custom fields` });
    }
    const fields = this.fields && sent.length > 0
      ? await this.fields.prepare(tx, actor, this.entity.level, items.map((item) => ({ id: item.id, at: item.at, fields: item.userDefinedFields })))
      : undefined;
    problems.push(...(fields?.problems ?? []));
    if (problems.length > 0) throw validationFailed(problems);
    if (fields && fields.forbidden.length > 0) {
      const detail = fields.forbidden.map((p) => `${p.field}: ${p.message}`).join('; ');
      throw new DomainError('forbidden', detail, fields.forbidden);
    }
    return fields ? (ids) => fields.write(ids) : async () => undefined;
  }
}
