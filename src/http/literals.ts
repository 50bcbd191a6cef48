import { Type } from 'typebox';

/**
 * A string enum: one schema keyword, so a bad value reads "must be one of A, B" naming the field.
 * A default, when given, is declared in the schema so the OpenAPI document says it.
 */
export const literals = <T extends string>(values: readonly T[], description?: string, defaultValue?: T) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}), ...(defaultValue !== undefined ? { default: defaultValue } : {}) });
