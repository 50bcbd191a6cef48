import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

function make(options: Options) {
  const ajv = new Ajv({ useDefaults: true, removeAdditional: true, allowUnionTypes: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

// JSON bodies are taken as typed: "12" is not a number. Query strings and path parameters are
// text by nature, so they are coerced. allErrors lets one 400 name every bad field.
const bodyAjv = make({ coerceTypes: false, allErrors: true });
const textAjv = make({ coerceTypes: 'array', allErrors: true });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;

/**
 * Validates a value against a schema the same way request bodies are, for routes whose body
 * shape depends on a field of it (one path serving rebalances and quick trades). Failures are a
 * 400 naming each field, as the error handler renders Ajv's own.
 */
const compiled = new WeakMap<object, ReturnType<Ajv['compile']>>();

export function validateBody<T>(schema: object, value: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return value as T;
  throw Object.assign(new Error('validation failed'), { validation: validate.errors, validationContext: 'body', statusCode: 400 });
}
