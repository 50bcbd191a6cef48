import { type Clock, isoNow } from '../../shared/clock.js';
import type { FieldProblem } from '../../shared/errors.js';
import type { Actor, FieldsItem, PreparedFields, UserDefinedFieldsPort } from '../extension.js';
import type { BookRepository } from '../repository.js';
import { CustomFieldsRepository, type ValueRow } from './repository.js';
import { canEdit, type Definition, definitionOf, normalizeValue, userDefinedField, valueProblem } from './rules.js';
import type { CustomFieldLevel, UserDefinedField } from './schemas.js';

interface Change {
  item: number;
  definition: number;
  value: string | null;
  stored: ValueRow | undefined;
}

const bind = (tx: BookRepository) => tx.bind((db) => new CustomFieldsRepository(db));

/** entity id -> definition id -> stored value. */
function byRecord(rows: ValueRow[]): Map<number, Map<number, ValueRow>> {
  const out = new Map<number, Map<number, ValueRow>>();
  for (const row of rows) {
    let values = out.get(row.entity_id);
    if (!values) out.set(row.entity_id, (values = new Map<number, ValueRow>()));
    values.set(row.definition_id, row);
  }
  return out;
}

/**
 * Custom-field values of the verbose records. A sent list is the record's complete list
 * (section 4.9): a field left out that holds a value is refused rather than wiped, a field sent
 * unchanged is no change (so a caller may send back fields it cannot edit), and nothing is written
 * unless every item of the request passes.
 */
export class CustomFieldValues implements UserDefinedFieldsPort {
  constructor(private readonly clock: Clock) {}

  async read(tx: BookRepository, actor: Actor, level: CustomFieldLevel, records: { id: number; name: string }[]): Promise<Map<number, UserDefinedField[]>> {
    const repository = bind(tx);
    const definitions = (await repository.definitions(actor.firmId, level)).map(definitionOf);
    const stored = byRecord(await repository.values(actor.firmId, definitions.map((d) => d.id), records.map((r) => r.id)));
    return new Map(
      records.map((record) => [
        record.id,
        definitions.map((definition) => userDefinedField(definition, record, stored.get(record.id)?.get(definition.id), actor.privileges)),
      ]),
    );
  }

  async prepare(tx: BookRepository, actor: Actor, level: CustomFieldLevel, items: FieldsItem[]): Promise<PreparedFields> {
    const repository = bind(tx);
    const definitions = new Map((await repository.definitions(actor.firmId, level)).map((row) => [row.id, definitionOf(row)]));
    const existing = items.filter((i) => i.fields !== undefined && i.id !== undefined).map((i) => i.id as number);
    const stored = byRecord(await repository.values(actor.firmId, [...definitions.keys()], existing));
    const problems: FieldProblem[] = [];
    const forbidden: FieldProblem[] = [];
    const changes: Change[] = [];

    items.forEach((item, index) => {
      if (item.fields === undefined) return;
      const current = (item.id === undefined ? undefined : stored.get(item.id)) ?? new Map<number, ValueRow>();
      const sent = new Set<number>();
      item.fields.forEach((field, j) => {
        const at = (name: string) => item.at(`userDefinedFields[${j}].${name}`);
        const definition = definitions.get(field.userDefineDefinitionId);
        if (!definition) {
          problems.push({ field: at('userDefineDefinitionId'), message: `no ${level} custom field ${field.userDefineDefinitionId} in this firm` });
          return;
        }
        if (sent.has(definition.id)) {
          problems.push({ field: at('userDefineDefinitionId'), message: `${definition.code} is listed more than once` });
          return;
        }
        sent.add(definition.id);
        const value = normalizeValue(field.value);
        const problem = value === null ? undefined : valueProblem(definition, value);
        if (problem) {
          problems.push({ field: at('value'), message: `${definition.code}: ${problem}` });
          return;
        }
        const before = current.get(definition.id);
        if (value === (before?.value ?? null)) return;
        if (!canEdit(definition, actor.privileges)) {
          forbidden.push({ field: at('value'), message: `${definition.code} can only be changed with the ${definition.securityCode} privilege` });
          return;
        }
        changes.push({ item: index, definition: definition.id, value, stored: before });
      });
      for (const [definitionId] of current) {
        if (sent.has(definitionId)) continue;
        const definition = definitions.get(definitionId) as Definition;
        problems.push({
          field: item.at('userDefinedFields'),
          message: `leaves out ${definition.code} (userDefineDefinitionId ${definitionId}), which has a value; send it back unchanged, or with value null to clear it`,
        });
      }
    });

    return {
      problems,
      forbidden,
      write: async (ids) => {
        const now = isoNow(this.clock);
        const stamp = { created_at: now, created_by: actor.userName, edited_at: now, edited_by: actor.userName };
        await repository.upsertValues(
          changes
            .filter((c) => c.value !== null)
            .map((c) => ({ firm_id: actor.firmId, definition_id: c.definition, entity_id: ids[c.item] as number, value: c.value as string, ...stamp })),
        );
        await repository.deleteValues(actor.firmId, changes.flatMap((c) => (c.value === null && c.stored ? [c.stored.id] : [])));
      },
    };
  }
}
