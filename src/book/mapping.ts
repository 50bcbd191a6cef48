/** Row-to-record helpers shared by the verbose entity descriptors. */

export const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

type Audited = { created_at: string; created_by: string; edited_at: string; edited_by: string };
export const audit = (row: Audited) => ({
  createdDate: row.created_at,
  createdBy: row.created_by,
  editedDate: row.edited_at,
  editedBy: row.edited_by,
});

/** A selected row of a table type of src/db/schema.ts. */
export type Row<T> = { [K in keyof T]: T[K] extends { __select__: infer S } ? S : T[K] } & { id: number };
