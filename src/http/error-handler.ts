import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { databaseUnavailable } from '../db/errors.js';
import { DomainError, type ErrorCode } from '../shared/errors.js';
import { problem, type Problem } from './problem.js';

const STATUS_OF: Record<ErrorCode, number> = {
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  invalid_state: 409,
  too_many_attempts: 429,
  bad_gateway: 502,
};

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** Set for body errors (Ajv's verbose option). */
  parentSchema?: unknown;
}

/**
 * Turns an Ajv instance path into the field name a partner sees. Body fields are named as in the
 * payload (`[0].name`, `cash`), the way services name them; other parts keep their part
 * (`querystring.$top`, `headers.client_id`).
 */
function fieldOf(part: string, issue: AjvIssue): string {
  let path = part === 'body' ? '' : part;
  const segments = issue.instancePath.split('/').slice(1);
  const missing = issue.params.missingProperty ?? issue.params.additionalProperty ?? issue.params.tag;
  if (typeof missing === 'string') segments.push(missing);
  for (const segment of segments) {
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path || part;
}

function describe(issue: AjvIssue): string {
  if (issue.keyword === 'required') return 'is required';
  if (issue.keyword === 'additionalProperties') return 'is not a known field';
  // A union keyed by one field (GenerateTrades' routine): the values its branches take.
  if (issue.keyword === 'discriminator') {
    const tag = String(issue.params.tag);
    const branches = (issue.parentSchema as { oneOf?: { properties?: Record<string, { enum?: unknown[]; const?: unknown }> }[] } | undefined)?.oneOf ?? [];
    const values = branches.flatMap((b) => b.properties?.[tag]?.enum ?? (b.properties?.[tag]?.const !== undefined ? [b.properties[tag].const] : []));
    return values.length > 0 ? `must be one of ${values.map(String).join(', ')}` : 'does not name a known kind of request';
  }
  // A type list (`["integer", "null"]`, http/nullable.ts): Ajv says "must be integer,null".
  if (issue.keyword === 'type') {
    const types = Array.isArray(issue.params.type) ? issue.params.type.map(String) : String(issue.params.type).split(',');
    if (types.length > 1) return `must be ${types.join(' or ')}`;
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)) {
    return `must be one of ${issue.params.allowedValues.map(String).join(', ')}`;
  }
  return issue.message ?? 'is invalid';
}

export function validationProblem(part: string, issues: AjvIssue[]): Problem {
  const seen = new Set<string>();
  const errors = [];
  for (const issue of issues) {
    // anyOf/oneOf repeat the same field once per branch; one line per field reads better.
    if (issue.keyword === 'anyOf' || issue.keyword === 'oneOf') continue;
    const field = fieldOf(part, issue);
    const message = describe(issue);
    if (seen.has(field + message)) continue;
    seen.add(field + message);
    errors.push({ field, message });
  }
  const lines = withoutNullBranch(errors);
  const detail = lines.map((e) => `${e.field} ${e.message}`).join('; ') || 'request is invalid';
  return problem(400, 'validation_failed', detail, lines);
}

const TYPE_ONLY = /^must be (\w+)$/;

/**
 * A nullable object or enum (http/nullable.ts) is a union with null, and Ajv reports each branch
 * that failed: `taxOptions.maxLongTermGain must be >= 0` and also `taxOptions must be null`. The
 * second only says that null would have been accepted; beside an error of the value itself it
 * reads as if the field had to be null. It is dropped, or joined to the other branch's type error
 * (`must be object or null`) or enum (`must be one of A, B, or null`), the way a nullable plain
 * type reads.
 */
function withoutNullBranch(errors: { field: string; message: string }[]): { field: string; message: string }[] {
  return errors.flatMap((e) => {
    if (e.message !== 'must be null') {
      if (!errors.some((n) => n.field === e.field && n.message === 'must be null')) return [e];
      const type = TYPE_ONLY.exec(e.message)?.[1];
      if (type && type !== 'null') return [{ field: e.field, message: `must be ${type} or null` }];
      return [e.message.startsWith('must be one of ') ? { field: e.field, message: `${e.message}, or null` } : e];
    }
    const explained = errors.some((o) => o !== e && (o.field === e.field || o.field.startsWith(`${e.field}.`) || o.field.startsWith(`${e.field}[`)));
    return explained ? [] : [e];
  });
}

/** Error bodies name what was wrong; they never hand a large input back to its sender. */
const MAX_ECHO = 300;
const clip = (text: string) => (text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text);

function send(reply: FastifyReply, body: Problem) {
  const clipped: Problem = { ...body, detail: clip(body.detail), ...(body.errors ? { errors: body.errors.map((e) => ({ field: clip(e.field), message: clip(e.message) })) } : {}) };
  // Serialized here rather than by the route's response schema: a form route documents its 400 as
  // an HTML page, and a problem put through that schema would come out as "[object Object]".
  return reply.status(body.status).type('application/problem+json').serializer(JSON.stringify).send(clipped);
}

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | DomainError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof DomainError) {
      const status = STATUS_OF[error.code];
      if (status === 401) reply.header('WWW-Authenticate', 'Session');
      const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (retryAfter !== undefined) reply.header('Retry-After', String(Math.ceil(retryAfter)));
      return send(reply, problem(status, error.code, error.message, error.problems));
    }
    const fastifyError = error;
    if (fastifyError.validation) {
      return send(reply, validationProblem(fastifyError.validationContext ?? 'body', fastifyError.validation));
    }
    const status = fastifyError.statusCode;
    if (status === 413) {
      // The limit is the route's own (an import route may take more than the server default).
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit;
      return send(reply, problem(413, fastifyError.code ?? 'payload_too_large', `Request body is larger than the limit of ${limit} bytes`));
    }
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong media type, body too large) carry safe messages.
      return send(reply, problem(status, fastifyError.code ?? 'bad_request', fastifyError.message));
    }
    if (databaseUnavailable(error)) {
      // An outage, not a bug: the request may be retried as it is once the database is back.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', '5');
      return send(reply, problem(503, 'database_unavailable', 'The database cannot be reached right now; retry shortly.'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, problem(500, 'internal_error', 'An unexpected error occurred; it has been logged.'));
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, problem(404, 'route_not_found', `No route for ${request.method} ${request.url.split('?')[0]}`)),
  );
}
