import { type Clock, isoNow } from '../../shared/clock.js';
import { DomainError, type FieldProblem, notFound, validationFailed } from '../../shared/errors.js';
import type { EntityDescriptor } from './entities.js';
import type { BookRepository } from './repository.js';

export interface Actor {
  firmId: number;
  userName: string;
}

const prefix = (index: number | undefined, field: string) => (index === undefined ? field : `[${index}].${field}`);

function withoutUndefined(columns: { [column: string]: unknown }) {
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/**
 * Create, read and update of one verbose entity. Every write checks references and uniqueness
 * inside the firm first and then writes in one transaction, so a bad item writes nothing.
 */
export class VerboseService<Input extends object, Out> {
  constructor(
    private readonly repository: BookRepository,
    private readonly entity: EntityDescriptor<Input, Out>,
    private readonly clock: Clock,
  ) {}

  async page(firmId: number, top: number, skip: number) {
    const { rows, total } = await this.repository.page(this.entity.table, firmId, top, skip);
    return { items: rows.map((row) => this.entity.toRecord(row as never)), total };
  }

  async get(firmId: number, id: number): Promise<Out> {
    const row = await this.repository.find(this.entity.table, firmId, id);
    if (!row) throw notFound(this.entity.label, id);
    return this.entity.toRecord(row as never);
  }

  async create(actor: Actor, raw: Input): Promise<Out> {
    const input = this.entity.normalize ? this.entity.normalize(raw) : raw;
    return this.repository.transaction(async (repository) => {
      await this.check(repository, actor.firmId, [{ input, id: undefined, index: undefined }]);
      const now = isoNow(this.clock);
      const id = await repository.insert(this.entity.table, {
        ...withoutUndefined(this.entity.toColumns(input)),
        firm_id: actor.firmId,
        created_at: now,
        created_by: actor.userName,
        edited_at: now,
        edited_by: actor.userName,
      });
      return this.read(repository, actor.firmId, id);
    });
  }

  async update(actor: Actor, id: number, raw: Input): Promise<Out> {
    const [updated] = await this.updateMany(actor, [{ id, input: raw }], false);
    return updated as Out;
  }

  /** All or nothing: every item is checked before any is written. */
  async updateMany(actor: Actor, items: { id: number; input: Input }[], indexed = true): Promise<Out[]> {
    const normalized = items.map((item, index) => ({
      id: item.id,
      input: this.entity.normalize ? this.entity.normalize(item.input) : item.input,
      index: indexed ? index : undefined,
    }));
    return this.repository.transaction(async (repository) => {
      const existing = await repository.existingIds(this.entity.table, actor.firmId, normalized.map((i) => i.id));
      const missing = normalized.find((item) => !existing.has(item.id));
      if (missing) {
        if (!indexed) throw notFound(this.entity.label, missing.id);
        throw new DomainError('validation_failed', `[${missing.index}].id: ${this.entity.label} ${missing.id} does not exist`, [
          { field: prefix(missing.index, 'id'), message: `${this.entity.label} ${missing.id} does not exist` },
        ]);
      }
      await this.check(repository, actor.firmId, normalized);
      const now = isoNow(this.clock);
      for (const item of normalized) {
        await repository.update(this.entity.table, actor.firmId, item.id, {
          ...withoutUndefined(this.entity.toColumns(item.input)),
          edited_at: now,
          edited_by: actor.userName,
        });
      }
      return Promise.all(normalized.map((item) => this.read(repository, actor.firmId, item.id)));
    });
  }

  private async read(repository: BookRepository, firmId: number, id: number): Promise<Out> {
    const row = await repository.find(this.entity.table, firmId, id);
    if (!row) throw notFound(this.entity.label, id);
    return this.entity.toRecord(row as never);
  }

  private async check(
    repository: BookRepository,
    firmId: number,
    items: { input: Input; id: number | undefined; index: number | undefined }[],
  ) {
    const problems: FieldProblem[] = [];
    for (const reference of this.entity.references) {
      const wanted = items.map((i): unknown => i.input[reference.field]).filter((v): v is number => typeof v === 'number');
      const found = await repository.existingIds(reference.table, firmId, [...new Set(wanted)]);
      for (const item of items) {
        const value = item.input[reference.field];
        if (typeof value === 'number' && !found.has(value)) {
          problems.push({ field: prefix(item.index, reference.field), message: `${reference.label} ${value} does not exist` });
        }
      }
    }
    for (const unique of this.entity.uniques) {
      const values = items.map((i) => String(i.input[unique.field]));
      const holders = await repository.holdersOf(this.entity.table, unique.column, firmId, [...new Set(values)]);
      const seen = new Map<string, number | undefined>();
      for (const item of items) {
        const value = String(item.input[unique.field]);
        const heldByOther = holders.some((h) => h.value === value && h.id !== item.id);
        const repeated = seen.has(value);
        if (heldByOther || repeated) {
          problems.push({ field: prefix(item.index, unique.field), message: `${value} is already used by another ${this.entity.label}` });
        }
        seen.set(value, item.id);
      }
    }
    if (problems.length > 0) {
      throw validationFailed(problems);
    }
  }
}
