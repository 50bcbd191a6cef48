import { type Clock, isoNow } from '../../shared/clock.js';
import { type FieldProblem, notFound, validationFailed } from '../../shared/errors.js';
import type { Actor } from '../extension.js';
import type { CustomFieldsRepository, DefinitionRow } from './repository.js';
import { definitionOf, definitionRecord, valueProblem } from './rules.js';
import type { CustomFieldLevel, DefinitionInput, DefinitionRecord } from './schemas.js';

const label = 'custom field definition';

/**
 * A firm's custom-field definitions (not in the spec; platform administrators manage them).
 * A change of type or options is refused while stored values would no longer fit it, so a value
 * that was valid when written stays readable and writable as it is.
 */
export class CustomFieldDefinitions {
  constructor(
    private readonly repository: CustomFieldsRepository,
    private readonly clock: Clock,
  ) {}

  async list(actor: Actor, level?: CustomFieldLevel): Promise<DefinitionRecord[]> {
    return (await this.repository.definitions(actor.firmId, level)).map((row) => definitionRecord(row, actor.privileges));
  }

  async get(actor: Actor, id: number): Promise<DefinitionRecord> {
    const row = await this.repository.definition(actor.firmId, id);
    if (!row) throw notFound(label, id);
    return definitionRecord(row, actor.privileges);
  }

  async create(actor: Actor, input: DefinitionInput): Promise<DefinitionRecord> {
    return this.repository.transaction(async (repository) => {
      const columns = await this.columns(repository, actor.firmId, input, undefined);
      const now = isoNow(this.clock);
      const stamp = { created_at: now, created_by: actor.userName, edited_at: now, edited_by: actor.userName };
      const id = await repository.insertDefinition({ firm_id: actor.firmId, ...columns, ...stamp });
      return definitionRecord((await repository.definition(actor.firmId, id)) as DefinitionRow, actor.privileges);
    });
  }

  /** The whole definition; omitted optional fields keep their values, as on the verbose records. */
  async update(actor: Actor, id: number, input: DefinitionInput): Promise<DefinitionRecord> {
    return this.repository.transaction(async (repository) => {
      const stored = await repository.definition(actor.firmId, id);
      if (!stored) throw notFound(label, id);
      const columns = await this.columns(repository, actor.firmId, input, stored);
      await repository.updateDefinition(actor.firmId, id, { ...columns, edited_at: isoNow(this.clock), edited_by: actor.userName });
      return definitionRecord((await repository.definition(actor.firmId, id)) as DefinitionRow, actor.privileges);
    });
  }

  /** Removes the definition and every value stored for it. */
  async remove(actor: Actor, id: number): Promise<{ id: number; deletedValues: number }> {
    return this.repository.transaction(async (repository) => {
      if (!(await repository.definition(actor.firmId, id))) throw notFound(label, id);
      return { id, deletedValues: await repository.deleteDefinition(actor.firmId, id) };
    });
  }

  private async columns(repository: CustomFieldsRepository, firmId: number, input: DefinitionInput, stored: DefinitionRow | undefined) {
    const problems: FieldProblem[] = [];
    const before = stored ? definitionOf(stored) : undefined;
    if (before && input.entity !== before.entity) {
      problems.push({ field: 'entity', message: `cannot change from ${before.entity}; create a field at the other level instead` });
    }
    const holder = await repository.codeHolder(firmId, input.entity, input.code);
    if (holder !== undefined && holder !== stored?.id) {
      problems.push({ field: 'code', message: `${input.code} is already used by another ${input.entity} custom field` });
    }
    let options: string[] = [];
    if (input.type === 'List') {
      options = input.options ?? (before?.type === 'List' ? before.options : []);
      if (options.length === 0) problems.push({ field: 'options', message: 'a List field needs at least one option' });
      options.forEach((option, i) => {
        if (options.indexOf(option) !== i) problems.push({ field: `options[${i}]`, message: `"${option}" is listed more than once` });
      });
    } else if (input.options && input.options.length > 0) {
      problems.push({ field: 'options', message: `only List fields have options; a ${input.type} field takes none` });
    }
    if (problems.length === 0 && stored) {
      const misfits = (await repository.distinctValues(firmId, stored.id)).filter((v) => valueProblem({ type: input.type, options }, v));
      if (misfits.length > 0) {
        const shown = misfits.slice(0, 5).map((v) => `"${v}"`).join(', ');
        problems.push({
          field: input.type !== before?.type ? 'type' : 'options',
          message: `records hold ${misfits.length} value(s) that would no longer fit (${shown}); change or clear them first`,
        });
      }
    }
    if (problems.length > 0) throw validationFailed(problems);
    return {
      entity: input.entity,
      name: input.name,
      category: input.category === undefined ? (stored?.category ?? null) : input.category,
      type: input.type,
      code: input.code,
      sequence: input.sequence ?? stored?.sequence ?? 0,
      options: JSON.stringify(options),
      security_code: input.securityCode === undefined ? (stored?.security_code ?? null) : input.securityCode,
    };
  }
}
