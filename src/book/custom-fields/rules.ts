import { Privilege } from '../../auth/privileges.js';
import type { DefinitionRow } from './repository.js';
import { type DefinitionRecord, type FieldType, INPUT_OF, type UserDefinedField } from './schemas.js';

/** A definition as the rules read it. */
export interface Definition {
  id: number;
  entity: string;
  name: string;
  category: string | null;
  type: FieldType;
  code: string;
  sequence: number;
  options: string[];
  securityCode: string | null;
}

export function definitionOf(row: DefinitionRow): Definition {
  const options: unknown = JSON.parse(row.options);
  return {
    id: row.id,
    entity: row.entity,
    name: row.name,
    category: row.category,
    type: row.type as FieldType,
    code: row.code,
    sequence: row.sequence,
    options: Array.isArray(options) ? options.map(String) : [],
    securityCode: row.security_code,
  };
}

/** A blank field is an unset field: "" is stored as no value, whatever the type. */
export const normalizeValue = (value: string | null): string | null => (value === '' ? null : value);

const isDate = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** Why `value` does not fit the definition, or undefined when it does. */
export function valueProblem(definition: Pick<Definition, 'type' | 'options'>, value: string): string | undefined {
  switch (definition.type) {
    case 'Number':
      return /^-?\d{1,20}(\.\d{1,12})?$/.test(value) ? undefined : `"${value}" is not a number (write it as text, e.g. "1250.50")`;
    case 'Date':
      return isDate(value) ? undefined : `"${value}" is not a date YYYY-MM-DD`;
    case 'List':
      return definition.options.includes(value) ? undefined : `"${value}" is not one of the options: ${definition.options.join(', ')}`;
    case 'Boolean':
      return value === 'true' || value === 'false' ? undefined : `"${value}" is not true or false`;
    case 'Text':
      return undefined;
  }
}

/** Whether the caller may change values of the field: portfolio.edit, plus the field's own privilege if it names one. */
export const canEdit = (definition: Pick<Definition, 'securityCode'>, privileges: ReadonlySet<string>): boolean =>
  privileges.has(Privilege.PortfolioEdit) && (definition.securityCode === null || privileges.has(definition.securityCode));

export function definitionRecord(row: DefinitionRow, privileges: ReadonlySet<string>): DefinitionRecord {
  const definition = definitionOf(row);
  return {
    ...definition,
    input: INPUT_OF[definition.type],
    canEdit: canEdit(definition, privileges),
    createdDate: row.created_at,
    createdBy: row.created_by,
    editedDate: row.edited_at,
    editedBy: row.edited_by,
  };
}

/** Section 2.16's item for one record and one definition. */
export function userDefinedField(
  definition: Definition,
  record: { id: number; name: string },
  stored: { id: number; value: string } | undefined,
  privileges: ReadonlySet<string>,
): UserDefinedField {
  return {
    userDefineDataId: stored?.id ?? null,
    value: stored?.value ?? null,
    childParameter: null,
    entity: definition.entity,
    entityId: record.id,
    entityName: record.name,
    userDefineDefinitionId: definition.id,
    name: definition.name,
    category: definition.category,
    type: definition.type,
    code: definition.code,
    sequence: definition.sequence,
    options: definition.options,
    input: INPUT_OF[definition.type],
    securityCode: definition.securityCode,
    canEdit: canEdit(definition, privileges),
  };
}
