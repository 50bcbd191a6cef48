import { type TSchemaOptions, type Static, type TSchema, Type } from 'typebox';

/** Types a value may be listed with `null` as (`{ "type": ["integer", "null"] }`). */
const LISTABLE = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * `schema`, or null. A schema of one plain type becomes a type list, `["integer", "null"]`, which
 * the response serializer tells apart with a typeof; as a union (`anyOf`) it would run a compiled
 * validator for each branch, for each such field of every record it writes, and serializing a page
 * takes about three times as long. OpenAPI 3.1 documents read the list as
 * the union it is. Objects, enums and constants stay a union: a type list would not carry them.
 */
export function Nullable<T extends TSchema>(schema: T, options?: TSchemaOptions) {
  const { type } = schema as { type?: unknown };
  const listable = typeof type === 'string' && LISTABLE.has(type) && !('enum' in schema) && !('const' in schema);
  if (!listable) return Type.Union([schema, Type.Null()], options);
  return Type.Unsafe<Static<T> | null>({ ...schema, ...options, type: [type, 'null'] });
}
