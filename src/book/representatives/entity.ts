import type { RepresentativeTable } from '../../db/schema.js';
import type { EntityDescriptor } from '../entity-descriptor.js';
import { audit, flag, type Row } from '../mapping.js';
import {
  newRepresentative,
  REPRESENTATIVE_FIELDS,
  type RepresentativeField,
  RepresentativeInput,
  RepresentativeRecord,
  RepresentativeTemplate,
} from './schemas.js';

/** Fields with a column of their own (searched, joined or unique); the rest live in `details`. */
const COLUMN_FIELDS = ['brokerDealerId', 'firstName', 'lastName', 'name', 'number', 'email', 'isActive'] as const;
const DETAIL_FIELDS = (Object.keys(REPRESENTATIVE_FIELDS) as RepresentativeField[]).filter(
  (field) => !(COLUMN_FIELDS as readonly string[]).includes(field),
);

const INITIAL = newRepresentative();
/**
 * Each detail field's default, as a fresh value: primitives as they are, objects through their JSON
 * (the defaults are plain JSON). A page of 100 representatives read this for every field of every
 * record; structuredClone made that most of the page's time.
 */
const DETAIL_DEFAULTS = DETAIL_FIELDS.map((field) => {
  const value: unknown = INITIAL[field];
  if (value === null || typeof value !== 'object') return [field, () => value] as const;
  const text = JSON.stringify(value);
  return [field, () => JSON.parse(text) as unknown] as const;
});

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
    const details = parseDetails(row.details);
    // One object, filled in place, rather than a details object of some 60 fields copied into a
    // second one for every record of a page.
    const record: Record<string, unknown> = {
      id: row.id,
      name: row.name,
      brokerDealerId: row.broker_dealer_id,
      firstName: row.first_name,
      lastName: row.last_name,
      number: row.number,
      email: row.email,
      isActive: row.is_active === 1,
      ...audit(row),
    };
    // A field never stored (a row written before the field existed, or by the importer) reads as its default.
    for (const [field, initial] of DETAIL_DEFAULTS) record[field] = field in details ? details[field] : initial();
    if (record.payeeId === null) record.payeeId = -1;
    return record as RepresentativeRecord;
  },
  toColumns: (input, stored?: Row<RepresentativeTable>) => {
    // An omitted optional field keeps its stored value, as a column would.
    const details = stored ? parseDetails(stored.details) : {};
    for (const field of DETAIL_FIELDS) {
      const value = input[field];
      if (value !== undefined) details[field] = field === 'payeeId' && value === null ? -1 : value;
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
