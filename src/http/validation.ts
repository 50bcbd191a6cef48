import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats ships CommonJS; under NodeNext its default export arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

function make(options: Options) {
  const ajv = new Ajv({ useDefaults: true, removeAdditional: false, allowUnionTypes: true, discriminator: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

// removeAdditional stays off: an object the project defines closes itself with
// `additionalProperties: false`, and an unknown field (a typo of an option) must be a 400 naming
// it, not a field silently dropped while the request runs with the option's default.
// JSON bodies are taken as typed: "12" is not a number. Query strings and path parameters are
// text by nature, so they are coerced. allErrors lets one 400 name every bad field.
// verbose: a union's error can say which values its key takes (error-handler.ts).
const bodyAjv = make({ coerceTypes: false, allErrors: true, verbose: true });
const textAjv = make({ coerceTypes: 'array', allErrors: true });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
