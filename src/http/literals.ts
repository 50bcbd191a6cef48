import { Type } from 'typebox';

/** A string enum: one schema keyword, so a bad value reads "must be one of A, B" naming the field. */
export const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });
