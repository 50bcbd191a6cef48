import { Type, type Static } from 'typebox';
import { IdSchema } from '../../http/ids.js';
import { ALL_PRIVILEGES } from '../../auth/privileges.js';
import { Nullable } from '../../http/nullable.js';

/** Section 2.16's levels, as `entity` names them. */
export const LEVELS = ['Representative', 'Household', 'Registration', 'Account', 'Product'] as const;
export type CustomFieldLevel = (typeof LEVELS)[number];

export const FIELD_TYPES = ['Text', 'Number', 'Date', 'List', 'Boolean'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The input control a screen draws for each type (section 2.16's `input`). */
export const INPUT_OF: Record<FieldType, string> = {
  Text: 'text',
  Number: 'number',
  Date: 'date',
  List: 'select',
  Boolean: 'checkbox',
};

export const MAX_VALUE_LENGTH = 4000;

const Level = Type.Enum([...LEVELS], { description: 'The level the field belongs to' });
const FieldTypeSchema = Type.Enum([...FIELD_TYPES], { description: 'Text, Number (decimal), Date (YYYY-MM-DD), List (one of options), Boolean (true/false)' });
const SecurityCode = Nullable(Type.Enum([...ALL_PRIVILEGES]), {
  description: 'Privilege a caller needs, beside portfolio.edit, to change a value; null: anyone with portfolio.edit',
});
const Options = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500, description: 'Allowed values of a List field' });

export const DefinitionInput = Type.Object({
  entity: Level,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  category: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  type: FieldTypeSchema,
  code: Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z][A-Za-z0-9_]*$', description: 'Unique within the level' }),
  sequence: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  options: Type.Optional(Options),
  securityCode: Type.Optional(SecurityCode),
});

/** What a field's definition shows, in a definition read and in each field of a record alike. */
const DefinitionShown = {
  name: Type.String(),
  category: Nullable(Type.String()),
  type: Type.String(),
  code: Type.String(),
  sequence: Type.Integer(),
  options: Type.Array(Type.String()),
  input: Type.String(),
  securityCode: Nullable(Type.String()),
  canEdit: Type.Boolean({ description: 'Whether the caller may change values of this field' }),
};

export const DefinitionRecord = Type.Object({
  id: IdSchema(),
  entity: Type.String(),
  ...DefinitionShown,
  createdDate: Type.String({ format: 'date-time' }),
  createdBy: Type.String(),
  editedDate: Type.String({ format: 'date-time' }),
  editedBy: Type.String(),
});

export const DefinitionQuery = Type.Object({ entity: Type.Optional(Level) });
export const DefinitionParams = Type.Object({ definitionId: IdSchema() });
export const DeleteResult = Type.Object({ id: IdSchema(), deletedValues: Type.Integer() });

/** Section 2.16's user-defined field, as a verbose record carries it. */
export const UserDefinedField = Type.Object({
  userDefineDataId: Nullable(IdSchema(), { description: 'The stored value\'s id; null while the field has no value' }),
  value: Nullable(Type.String()),
  childParameter: Type.Null(),
  entity: Type.String(),
  entityId: IdSchema(),
  entityName: Type.String(),
  userDefineDefinitionId: IdSchema(),
  ...DefinitionShown,
});

/** What a write reads of each sent item; the other fields of 2.16 are read-only and ignored. */
export const UserDefinedFieldInput = Type.Object({
  userDefineDefinitionId: IdSchema(),
  value: Nullable(Type.String({ maxLength: MAX_VALUE_LENGTH }), { description: 'null (or "") clears the value' }),
});
export const UserDefinedFieldsInput = Type.Array(UserDefinedFieldInput, {
  maxItems: 500,
  description: 'The complete list of the record\'s custom-field values (definitions under Portfolio/UserDefinedFields/Definitions); omit the property to leave every value as it is',
});

export type DefinitionInput = Static<typeof DefinitionInput>;
export type DefinitionRecord = Static<typeof DefinitionRecord>;
export type UserDefinedField = Static<typeof UserDefinedField>;
export type UserDefinedFieldInput = Static<typeof UserDefinedFieldInput>;
