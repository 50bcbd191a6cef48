import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { escape, layout, sendPage } from './html.js';

export interface IndexedApp {
  title: string;
  description: string;
  basePath: string;
  publicUrl: string;
}

const Link = Type.Object({
  rel: Type.String({ description: 'reference, openapi or health' }),
  href: Type.String({ description: 'Absolute address (from PUBLIC_URL)' }),
  type: Type.String({ description: 'Media type of the document' }),
  title: Type.String(),
});
export const AppIndex = Type.Object({
  title: Type.String(),
  description: Type.String(),
  baseUrl: Type.String({ description: 'The application\'s base address, as the spec\'s {base_url} or {rebalancer_base_url}' }),
  links: Type.Array(Link),
});

/**
 * `GET {prefix}`: what start-up prints as the application's address answers with an index of its
 * documents (reference page, OpenAPI document, health) instead of a 404. JSON by default; a
 * browser (Accept: text/html) gets the same links as a page.
 */
export function registerAppIndex(scope: FastifyInstance, app: IndexedApp) {
  const base = `${app.publicUrl}${app.basePath === '/' ? '' : app.basePath}`;
  const index = {
    title: app.title,
    description: app.description,
    baseUrl: base,
    links: [
      { rel: 'reference', href: `${base}/docs`, type: 'text/html', title: 'API reference' },
      { rel: 'openapi', href: `${base}/openapi.json`, type: 'application/json', title: 'OpenAPI document' },
      { rel: 'health', href: `${base}/healthz`, type: 'application/json', title: 'Health' },
    ],
  };
  const items = index.links.map((l) => `  <li><a href="${escape(l.href)}">${escape(l.title)}</a> <code>${escape(l.type)}</code></li>`).join('\n');
  const html = layout(app.title, `<h1>${escape(app.title)}</h1>\n<p>${escape(app.description)}</p>\n<p>Base address: <code>${escape(base)}</code></p>\n<ul>\n${items}\n</ul>\n<p><a href="/">All applications</a></p>`);
  scope.get(
    '/',
    {
      config: { public: true },
      schema: { hide: true, response: { 200: AppIndex } },
    },
    async (request, reply) => {
      const accept = request.headers.accept ?? '';
      if (/text\/html/.test(accept) && !/application\/json/.test(accept)) return sendPage(reply, 200, html);
      return index;
    },
  );
}
