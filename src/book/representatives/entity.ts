import type { RepresentativeTable } from '../../db/schema.js';
import type { EntityDescriptor } from '../entity-descriptor.js';
import { flag, type Row } from '../mapping.js';
import {
  MOMENT_FIELDS,
  newRepresentative,
  REPRESENTATIVE_FIELDS,
  type RepresentativeField,
  RepresentativeInput,
  RepresentativeRecord,
  RepresentativeTemplate,
  utcMoment,
} from './schemas.js';

/** Fields with a column of their own (searched, joined or unique); the rest live in `details`. */
const COLUMN_FIELDS = ['brokerDealerId', 'firstName', 'lastName', 'name', 'number', 'email', 'isActive'] as const;
const DETAIL_FIELDS = (Object.keys(REPRESENTATIVE_FIELDS) as RepresentativeField[]).filter(
  (field) => !(COLUMN_FIELDS as readonly string[]).includes(field),
);

const INITIAL = newRepresentative();
/**
 * Each detail field's default, as a fresh value, in DETAIL_FIELDS' order: primitives as they are,
 * objects through their JSON (the defaults are plain JSON; structuredClone of each made most of a
 * page's time).
 */
const DETAIL_DEFAULTS = DETAIL_FIELDS.map((field) => {
  const value: unknown = INITIAL[field];
  if (value === null || typeof value !== 'object') return () => value;
  const text = JSON.stringify(value);
  return () => JSON.parse(text) as unknown;
});

type DetailRecord = (details: Record<string, unknown>, defaults: readonly (() => unknown)[]) => Record<string, unknown>;

/**
 * The detail fields of a record, each stored value or its default, as one object literal compiled
 * once. Filled in field by field (`record[field] = …` for some 60 names) a record becomes a
 * dictionary to V8, an order of magnitude slower to build and slower again to serialize than the
 * literal. The names are this file's constants, quoted by JSON.stringify.
 */
function compileDetailRecord(): DetailRecord {
  const fields = DETAIL_FIELDS.map((field, i) => {
    const name = JSON.stringify(field);
    return `${name}: ${name} in details ? details[${name}] : defaults[${i}]()`;
  });
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('details', 'defaults', `return { ${fields.join(', ')} };`) as DetailRecord;
}

const detailRecord = compileDetailRecord();

function parseDetails(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Section 2.13's representative as a verbose entity: served at /Portfolio/Representatives. */
export const representatives: EntityDescriptor<RepresentativeInput, RepresentativeRecord> = {
  path: 'Representatives',
  label: 'representative',
  table: 'representatives',
  level: 'Representative',
  input: RepresentativeInput,
  record: RepresentativeRecord,
  toRecord: (row: Row<RepresentativeTable>) => {
    // A field never stored (a row written before the field existed, or by the importer) reads as its default.
    const record = detailRecord(parseDetails(row.details), DETAIL_DEFAULTS);
    // Named stores keep the literal's shape (a spread or a loop of keyed stores would not).
    record.id = row.id;
    record.name = row.name;
    record.brokerDealerId = row.broker_dealer_id;
    record.firstName = row.first_name;
    record.lastName = row.last_name;
    record.number = row.number;
    record.email = row.email;
    record.isActive = row.is_active === 1;
    record.createdDate = row.created_at;
    record.createdBy = row.created_by;
    record.editedDate = row.edited_at;
    record.editedBy = row.edited_by;
    if (record.payeeId === null) record.payeeId = -1;
    return record as RepresentativeRecord;
  },
  toColumns: (input, stored?: Row<RepresentativeTable>) => {
    // An omitted optional field keeps its stored value, as a column would.
    const details = stored ? parseDetails(stored.details) : {};
    for (const field of DETAIL_FIELDS) {
      const value = input[field];
      if (value === undefined) continue;
      if (field === 'payeeId' && value === null) details[field] = -1;
      else if (MOMENT_FIELDS.has(field) && typeof value === 'string') details[field] = utcMoment(value);
      else details[field] = value;
    }
    return {
      broker_dealer_id: input.brokerDealerId,
      first_name: input.firstName,
      last_name: input.lastName,
      name: input.name,
      number: input.number,
      email: input.email,
      is_active: flag(input.isActive),
      details: JSON.stringify(details),
    };
  },
  references: [{ field: 'brokerDealerId', table: 'broker_dealers', label: 'broker/dealer' }],
  uniques: [{ field: 'number', column: 'number' }],
  envelope: 'portfolio',
  template: { schema: RepresentativeTemplate, value: newRepresentative },
};
