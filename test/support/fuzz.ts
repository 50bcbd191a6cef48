import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
// Only vitest-free support: scripts/fuzz.ts runs this outside a test run.
import { tablesOf } from './tables.js';
import type { TestFirm } from './firm.js';

/**
 * A schema-driven fuzzer over the served OpenAPI documents: for every operation it derives
 * requests from the operation's own parameter and body schemas, mixing in hostile values at every
 * level (NUL characters, huge and negative numbers, wrong types, deep nesting, long strings).
 * Operations are discovered from the documents, so a new route is fuzzed without being listed.
 */

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  $ref?: string;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema?: Schema;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: { contentType: string; schema: Schema };
}

export interface FuzzRequest {
  method: string;
  url: string;
  payload?: string;
  headers: Record<string, string>;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const content = operation.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: contentType ? { contentType, schema: content[contentType]?.schema ?? {} } : undefined,
      });
    }
  }
  return operations;
}

const hostileStrings = [
  '', '\u0000', 'a\u0000b', 'x'.repeat(5000), '1e20', '-1', '9'.repeat(40), "' OR 1=1 --", '../../etc/passwd',
  '\u202e🙂', '<script>alert(1)</script>', 'null', '{}', 'NaN', '2026-02-30', '0000-00-00', ' ', '%00',
];
const hostileNumbers = [0, -1, 1e20, -1e20, 2 ** 53, 2 ** 31, 1.5, -0.0001, Number.MAX_SAFE_INTEGER, 1e308];
const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...hostileStrings),
  fc.constantFrom(...hostileNumbers),
  fc.constantFrom<unknown>(null, {}, [], true, false, nested(40), { __proto__: { polluted: true } }),
  fc.string({ maxLength: 20 }),
);

function typeOf(schema: Schema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
}

/** Values shaped by the schema most of the time, hostile ones at any level some of the time. */
function valueOf(schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 2, arbitrary: shaped(schema, depth) }, { weight: 1, arbitrary: hostile });
}

function shaped(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (depth > 5) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (union && union.length > 0) return fc.oneof(...union.map((s) => shaped(s, depth + 1)));
  if (schema.allOf && schema.allOf.length > 0) return shaped(Object.assign({}, ...schema.allOf) as Schema, depth + 1);
  switch (typeOf(schema)) {
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 100_000, 100_000) }), fc.nat(1000));
    case 'number':
      return fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.integer({ min: 0, max: 10_000 }));
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2035-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
      return fc.string({ minLength: Math.min(schema.minLength ?? 0, 20), maxLength: Math.min(schema.maxLength ?? 30, 30) });
    case 'array':
      return fc.array(valueOf(schema.items ?? {}, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), hostile, { maxKeys: 3 });
      const required = schema.required ?? [];
      return fc.record(Object.fromEntries(properties.map(([name, property]) => [name, valueOf(property, depth + 1)])), {
        requiredKeys: required.filter((name) => properties.some(([p]) => p === name)),
      });
    }
    default:
      return hostile;
  }
}

const pathValue = fc.oneof(
  fc.constantFrom('1', '2', '0', '-1', '1e20', 'abc', '%00', '99999999999999999999', '1.5', '%2e%2e'),
  fc.nat(50).map(String),
);

/** A query value as text: strings as they are, anything else as JSON (objects, arrays, numbers alike). */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value) ?? '');

/** One request for an operation: path and query parameters, then a body in the operation's media type. */
export function requestsOf(operation: Operation): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === 'path');
  const queryParams = operation.parameters.filter((p) => p.in === 'query');
  const path = fc.tuple(...pathParams.map(() => pathValue)).map((values) => {
    let url = operation.path;
    pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, values[i]!)));
    return url.replace('{*}', values[0] ?? 'x');
  });
  const query = fc.tuple(...queryParams.map((p) => (p.required ? valueOf(p.schema ?? {}).map((v) => [v]) : fc.option(valueOf(p.schema ?? {}), { nil: undefined }).map((v) => (v === undefined ? [] : [v])))));
  const body = operation.body ? valueOf(operation.body.schema) : fc.constant(undefined);
  return fc.tuple(path, query, body).map(([url, values, payload]) => {
    const search = queryParams
      .flatMap((p, i) => (values[i]!.length === 0 ? [] : [`${encodeURIComponent(p.name)}=${encodeURIComponent(asText(values[i]![0]))}`]))
      .join('&');
    const request: FuzzRequest = { method: operation.method, url: search ? `${url}?${search}` : url, headers: {} };
    if (payload !== undefined && operation.body) {
      if (operation.body.contentType === 'application/x-www-form-urlencoded' && payload !== null && typeof payload === 'object' && !Array.isArray(payload)) {
        request.payload = new URLSearchParams(Object.entries(payload).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
        request.headers['content-type'] = 'application/x-www-form-urlencoded';
      } else {
        request.payload = JSON.stringify(payload) ?? 'null';
        request.headers['content-type'] = 'application/json';
      }
    }
    return request;
  });
}

export interface FuzzFinding {
  request: FuzzRequest;
  status: number;
  body: string;
}

/**
 * Sends `runsPerOperation` generated requests to every operation of the documents, with the
 * headers `authorize` gives (it may log in again). Returns every 5xx, and every refused write that
 * changed a table (`fingerprint` reads the row counts before and after a refused write).
 */
export async function fuzz(
  app: FastifyInstance,
  documents: OpenApiDocument[],
  options: { runsPerOperation: number; seed: number; authorize: (path: string) => Promise<Record<string, string>>; fingerprint?: () => Promise<string> },
): Promise<{ sent: number; serverErrors: FuzzFinding[]; partialWrites: FuzzFinding[] }> {
  let sent = 0;
  const serverErrors: FuzzFinding[] = [];
  const partialWrites: FuzzFinding[] = [];
  let index = 0;
  for (const document of documents) {
    for (const operation of operationsOf(document)) {
      // A seed of its own per operation: operations of the same shape would otherwise all get the same values.
      const samples = fc.sample(requestsOf(operation), { numRuns: options.runsPerOperation, seed: options.seed + index++ });
      const headers = await options.authorize(operation.path);
      for (const request of samples) {
        const before = operation.method !== 'GET' && options.fingerprint ? await options.fingerprint() : undefined;
        const response = await app.inject({ method: request.method as 'GET', url: request.url, payload: request.payload, headers: { ...headers, ...request.headers } });
        sent++;
        const finding = { request, status: response.statusCode, body: response.body.slice(0, 500) };
        if (response.statusCode >= 500) serverErrors.push(finding);
        else if (before !== undefined && response.statusCode >= 400 && (await options.fingerprint!()) !== before) partialWrites.push(finding);
      }
    }
  }
  return { sent, serverErrors, partialWrites };
}

/** Header text a client can send: no control characters, nothing outside Latin-1. */
const headerText = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '');
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Authorization values aimed at the header parsers: broken Basic and Bearer/Session values above all. */
const hostileAuthorization: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  // Well-formed base64 of text with broken percent escapes, colons in odd places, NUL, Unicode.
  fc.tuple(fc.constantFrom('Basic', 'basic', 'BASIC'), fc.oneof(fc.string(), fc.constantFrom('%zz:x', '%:%', ':', ':x', 'x:', '%E0%A4%A:1', 'a\u0000b:c', '\uD800:x', '%'.repeat(50)))).map(([scheme, text]) => `${scheme} ${base64(text)}`),
  // Not base64 at all, or empty, or without the space.
  fc.tuple(fc.constantFrom('Basic', 'Bearer', 'Session'), fc.oneof(fc.string(), fc.constantFrom('', ' ', '=', '====', '!!!', 'a b c', '.'.repeat(5000)))).map(([scheme, text]) => headerText(`${scheme} ${text}`)),
  fc.constantFrom('Basic', 'Bearer', 'Session', 'Bearer  ', 'Session\t', 'Negotiate abc', 'Basic Og==', 'Basic JXp6Ong='),
  fc.string().map(headerText),
);

/** One request to a token endpoint (or a secured route) with hostile credential headers. */
const credentialRequests: fc.Arbitrary<FuzzRequest> = fc
  .record({
    target: fc.constantFrom('GET /api/v1/Security/Token', 'POST /api/v1/Security/Token', 'GET /rebalancer/v1/admin/token', 'GET /api/v1/Security/Firm/BasicLogin', 'GET /rebalancer/v1/admin/authorization/user'),
    authorization: hostileAuthorization,
    clientId: fc.option(fc.oneof(fc.nat().map(String), fc.string().map(headerText), fc.constantFrom('1', '-1', '1e3', '99999999999999999999')), { nil: undefined }),
    clientSecret: fc.option(fc.oneof(fc.uuid(), fc.string().map(headerText)), { nil: undefined }),
    grantType: fc.option(fc.constantFrom('authorization_code', 'refresh_token', 'password', ''), { nil: undefined }),
  })
  .map(({ target, authorization, clientId, clientSecret, grantType }) => {
    const [method, url] = target.split(' ') as [string, string];
    const headers: Record<string, string> = {};
    if (authorization !== undefined) headers.authorization = authorization;
    if (clientId !== undefined) headers.client_id = clientId;
    if (clientSecret !== undefined) headers.client_secret = clientSecret;
    if (method === 'POST' && grantType !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      return { method, url, headers, payload: new URLSearchParams({ grant_type: grantType }).toString() };
    }
    return { method, url: grantType !== undefined ? `${url}?grant_type=${encodeURIComponent(grantType)}` : url, headers };
  });

/** Sends `runs` hostile credential requests; answers every 5xx. */
export async function fuzzCredentialHeaders(app: FastifyInstance, runs: number, seed: number): Promise<{ sent: number; serverErrors: FuzzFinding[] }> {
  const serverErrors: FuzzFinding[] = [];
  const samples = fc.sample(credentialRequests, { numRuns: runs, seed });
  for (const [i, request] of samples.entries()) {
    // Each from an address of its own: failed logins of one address are slowed down (throttle.ts).
    const remoteAddress = `10.${(seed + i) % 256}.${(i >> 8) & 255}.${i & 255}`;
    const response = await app.inject({ method: request.method as 'GET', url: request.url, payload: request.payload, headers: request.headers, remoteAddress });
    if (response.statusCode >= 500) serverErrors.push({ request, status: response.statusCode, body: response.body.slice(0, 500) });
  }
  return { sent: samples.length, serverErrors };
}

/**
 * Tables a refused request may legitimately write: failed sign-ins are counted (lockout), and an
 * OAuth flow is recorded before its form is checked.
 */
const WRITTEN_WHEN_REFUSED = new Set(['sign_in_failures', 'oauth_flows']);

/** Fuzzes a built app (both documents) as an administrator of `firm`, checking refused writes against row counts. */
export async function fuzzService(service: { app: FastifyInstance; db: Db; firm: TestFirm }, runsPerOperation: number, seed: number) {
  const { app, db, firm } = service;
  const tables = (await tablesOf(db))
    .filter((table) => !WRITTEN_WHEN_REFUSED.has(table.name))
    .map((table) => table.name);
  const fingerprint = async () => {
    const counts = sql.join(tables.map((name) => sql`(select count(*) from ${sql.table(name)})`));
    const { rows } = await sql<Record<string, unknown>>`select ${counts}`.execute(db.kysely);
    return JSON.stringify(rows[0]);
  };
  // A fresh login per operation: a fuzzed call may legitimately revoke the session it came with.
  const authorize = async (path: string) => {
    const login = await app.inject({
      url: '/api/v1/security/token',
      headers: { authorization: `Basic ${Buffer.from(`${firm.users.admin.userName}:${firm.users.admin.password}`).toString('base64')}`, client_id: String(firm.clientId), client_secret: firm.clientSecret },
    });
    const session = `Session ${login.json<{ access_token: string }>().access_token}`;
    if (!path.startsWith('/rebalancer')) return { authorization: session };
    const token = await app.inject({ url: '/rebalancer/v1/admin/token', headers: { authorization: session } });
    return { authorization: `Session ${token.json<{ eclipse_access_token: string }>().eclipse_access_token}` };
  };
  const documents = [(await app.inject({ url: '/api/openapi.json' })).json<OpenApiDocument>(), (await app.inject({ url: '/rebalancer/openapi.json' })).json<OpenApiDocument>()];
  const operations = await fuzz(app, documents, { runsPerOperation, seed, authorize, fingerprint });
  // The login paths' own parsers (Basic, Bearer, Session; client_id and client_secret headers) get
  // a campaign of their own: the schema-derived requests above never send a broken Authorization.
  const credentials = await fuzzCredentialHeaders(app, runsPerOperation * 20, seed);
  return { sent: operations.sent + credentials.sent, serverErrors: [...operations.serverErrors, ...credentials.serverErrors], partialWrites: operations.partialWrites };
}
