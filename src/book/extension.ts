import type { FieldProblem } from '../shared/errors.js';
import type { CustomFieldLevel, UserDefinedField, UserDefinedFieldInput } from './custom-fields/schemas.js';
import type { BookRepository } from './repository.js';

export interface Actor {
  firmId: number;
  userName: string;
  privileges: ReadonlySet<string>;
}

/** One record of a verbose write, as the custom fields see it. */
export interface FieldsItem {
  /** The record's id; undefined on create. */
  id: number | undefined;
  /** Names a field of this item as the caller sent it, e.g. `[2].userDefinedFields[0].value`. */
  at(field: string): string;
  /** undefined: the caller sent no list, and the values stay as they are. */
  fields: UserDefinedFieldInput[] | undefined;
}

export interface PreparedFields {
  /** Bad values, unknown or missing fields: a 400. */
  problems: FieldProblem[];
  /** Values the caller may not change: a 403. */
  forbidden: FieldProblem[];
  /** Writes the checked values; `ids` line up with the items. Call only when both lists are empty. */
  write(ids: number[]): Promise<void>;
}

/**
 * The custom fields of section 4.9 as the verbose machinery uses them: checked with the record,
 * written in the record's transaction, read when a caller asks `expand=userdefinedfields`.
 */
export interface UserDefinedFieldsPort {
  prepare(tx: BookRepository, actor: Actor, level: CustomFieldLevel, items: FieldsItem[]): Promise<PreparedFields>;
  read(tx: BookRepository, actor: Actor, level: CustomFieldLevel, records: { id: number; name: string }[]): Promise<Map<number, UserDefinedField[]>>;
}
