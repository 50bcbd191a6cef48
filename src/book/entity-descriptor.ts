import type { TObject } from 'typebox';
import type { CustomFieldLevel } from './custom-fields/schemas.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A connection to read details on: the book repository's, inside its transaction when there is one. */
export interface Connection {
  bind<R>(make: (db: Kysely<Database>) => R): R;
}

/**
 * One descriptor per verbose entity of the portfolio API. The routes, service and repository
 * are generic over it, so an entity is its mapping and its rules, written once.
 */
export type BookTable = 'clients' | 'registrations' | 'accounts' | 'products' | 'representatives';
export type ReferencedTable = BookTable | 'models' | 'restricted_plans' | 'broker_dealers';

/**
 * Columns of a row the record's row points at, read in the same statement as the record's own
 * (`registration_id` → the registration's `type`): one read a page instead of a second by ids.
 */
export interface JoinedColumns {
  table: ReferencedTable;
  /** The record's column holding the other row's id. */
  on: string;
  /** Alias in the row read → column of the other table. */
  columns: { [alias: string]: string };
}

export interface EntityDescriptor<Input, Record> {
  /** Path segment in `/v1/Portfolio/{path}`. */
  path: string;
  label: string;
  table: BookTable;
  /** The custom-field level of section 2.16. */
  level: CustomFieldLevel;
  input: TObject;
  record: TObject;
  toRecord(row: never): Record;
  /** Columns of another table that toRecord reads beside the row's own. */
  joined?: JoinedColumns;
  /**
   * Columns for the fields present in the input: an omitted optional field keeps its stored value.
   * `stored` is the row an update changes (undefined on create).
   */
  toColumns(input: Input, stored?: never): { [column: string]: unknown };
  /** Ids in the input that must name a row of the caller's firm. */
  references: { field: keyof Input & string; table: ReferencedTable; label: string }[];
  /** Fields unique within the firm. */
  uniques: { field: keyof Input & string; column: string }[];
  normalize?(input: Input): Input;
  /** POST takes `{ [envelope]: record, id: 0 }` (section 2.13) instead of the bare record. */
  envelope?: string;
  /** Parts of the record read from the book below the row (the household's accounts, …), for a page of records at once. */
  details?(tx: Connection, firmId: number, records: Record[]): Promise<Record[]>;
  /** Served at `GET …/Verbose/New`: a new record with every field at its default. */
  template?: { schema: TObject; value(): object };
}
