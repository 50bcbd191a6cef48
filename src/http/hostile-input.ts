import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationFailed } from '../shared/errors.js';

/** Deeper JSON than any request of the API needs; deeper input is refused before it is parsed. */
export const MAX_JSON_DEPTH = 64;

/**
 * How deep a JSON text nests, read in one pass without parsing: parsing (and later validating)
 * deeply nested input recurses, and a body like `[[[[…]]]]` a megabyte long overflows the stack.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return false;
}

/** The first string (or object key) holding a NUL character, named as the error handler names fields. */
function nulField(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const name = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return name;
    const found = nulField(item, name, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Input no route should see, refused in one place for every route of both applications:
 * - JSON nested deeper than MAX_JSON_DEPTH (400 before parsing);
 * - NUL characters in any string of the body, query or path. PostgreSQL refuses them in text
 *   (a 500 there) while SQLite stores them silently; refusing them here gives both databases the
 *   same 400 naming the field.
 */
export function refuseHostileInput(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      done(validationFailed([{ field: 'body', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }]), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const inParams = nulField(request.params, '');
    const inQuery = nulField(request.query, '');
    const field =
      inParams !== undefined ? `params.${inParams}` : inQuery !== undefined ? `querystring.${inQuery}` : nulField(request.body, '');
    done(field === undefined ? undefined : validationFailed([{ field: field || 'body', message: 'must not contain a NUL character' }]));
  });
}
