import swagger from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sample } from 'openapi-sampler';
import { sendPage } from './html.js';
import { referencePage } from './reference-page.js';
import { registerAppIndex } from './app-index.js';

export interface DocumentedApp {
  title: string;
  description: string;
  /** Where the application is mounted ({base_url} or {rebalancer_base_url} without scheme and host). */
  basePath: string;
  /** Scheme and host partners reach the service at (PUBLIC_URL). */
  publicUrl: string;
  /** The capabilities, in the order the reference shows them; every route's tag must be one of them. */
  tags: { name: string; description: string }[];
}

type Json = Record<string, unknown>;
type Operation = { description?: string; summary?: string; requestBody?: { content?: Record<string, Json> }; responses?: Record<string, { content?: Record<string, Json> }> };

/** Who may call a route, from the same config the authentication hook enforces. */
function accessNote(config: RouteOptions['config']): string {
  const route = (config ?? {}) as { public?: boolean; privilege?: string | string[]; tokenOnly?: boolean };
  if (route.public) return 'No token needed.';
  if (route.privilege) return `Needs a token whose role grants ${[route.privilege].flat().map((p) => `\`${p}\``).join(' or ')}.`;
  return 'Needs a token of this application (any role).';
}

/**
 * A query or header parameter with a default is optional for the caller: Ajv (useDefaults) puts
 * the default in before it checks `required`, and the handler reads a value either way. TypeBox
 * lists every non-Optional property as required, defaults or not, so the document would make a
 * generated client send `$top`, `$skip`, `$count` and `wait`; the document says what the server
 * does instead. Path parameters are always required; bodies are left as declared.
 */
function optionalWhereDefaulted(schema: unknown): unknown {
  const object = schema as { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!object?.properties || !Array.isArray(object.required)) return schema;
  const required = object.required.filter((name) => object.properties?.[name]?.default === undefined);
  return required.length === object.required.length ? schema : { ...object, required };
}

/**
 * A media type without an example written by its route gets one built from its schema (its
 * `examples`, defaults, enums and formats), so that every request and response in the reference
 * shows a body to start from.
 */
function fillExamples(content: Record<string, Json> | undefined, document: object) {
  for (const [type, media] of Object.entries(content ?? {})) {
    if (media.example !== undefined || media.examples !== undefined || !media.schema) continue;
    if (!type.includes('json')) continue;
    try {
      media.example = sample(media.schema, { skipReadOnly: true, quiet: true, maxSampleDepth: 6 }, document);
    } catch {
      // A schema the sampler cannot walk keeps the schema view alone.
    }
  }
}

function finishDocument(document: Json & { paths?: Record<string, Record<string, Operation>> }) {
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) {
      fillExamples(operation.requestBody?.content, document);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^2/.test(status)) fillExamples(response.content, document);
      }
    }
  }
  return document;
}

/**
 * Each application scope gets its own OpenAPI document, built from the route schemas of that
 * scope only (the swagger plugin collects routes through the scope's onRoute hook), and its own
 * reference page at `{prefix}/docs`.
 */
export async function registerOpenApi(scope: FastifyInstance, app: DocumentedApp) {
  await scope.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: app.title, description: app.description, version: '1.0.0' },
      // Paths carry the application prefix (/api/…, /rebalancer/…), so the server is the origin.
      servers: [{ url: app.publicUrl, description: 'This installation (PUBLIC_URL)' }],
      tags: app.tags,
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description: 'The word `Session`, a space, and an access token: `Session 6f1c…`.',
          },
        },
      },
      security: [{ session: [] }],
    },
    transform: ({ schema, url, route }) => {
      if (!schema || schema.hide) return { schema, url };
      const own = (schema as { description?: string }).description;
      const description = [own, accessNote(route.config)].filter(Boolean).join('\n\n');
      const parts = schema as { querystring?: unknown; headers?: unknown };
      const parameters = {
        ...(parts.querystring ? { querystring: optionalWhereDefaulted(parts.querystring) } : {}),
        ...(parts.headers ? { headers: optionalWhereDefaulted(parts.headers) } : {}),
      };
      return { schema: { ...schema, ...parameters, description }, url };
    },
    transformObject: (documents) => ('openapiObject' in documents ? finishDocument(documents.openapiObject as Json) : documents.swaggerObject),
  });
  scope.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => scope.swagger());
  registerAppIndex(scope, app);
  // `{prefix}/docs` and `{prefix}/docs/` (the router ignores the trailing slash): the page needs no assets.
  let page: string | undefined;
  scope.get('/docs', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    page ??= referencePage(scope.swagger() as never, { basePath: app.basePath, home: '/', openapi: `${app.basePath === '/' ? '' : app.basePath}/openapi.json` });
    return sendPage(reply, 200, page);
  });
}
