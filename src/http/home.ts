import type { FastifyPluginAsync } from 'fastify';
import { escape, layout, sendPage } from './html.js';

export interface ServedApp {
  name: string;
  /** What it is for, in a line. */
  about: string;
  /** Its prefix: {base_url} or {rebalancer_base_url} without scheme and host. */
  basePath: string;
}

const join = (base: string, path: string) => `${base === '/' ? '' : base}${path}`;

function homePage(apps: ServedApp[]) {
  const sections = apps
    .map(
      (app) => `<section>
<h2>${escape(app.name)}</h2>
<p>${escape(app.about)} Base address: <code>${escape(app.basePath)}</code></p>
<ul>
  <li><a href="${escape(join(app.basePath, '/docs'))}">API reference</a></li>
  <li><a href="${escape(join(app.basePath, '/openapi.json'))}">OpenAPI document</a></li>
  <li><a href="${escape(join(app.basePath, '/healthz'))}">Health</a></li>
</ul>
</section>`,
    )
    .join('\n');
  return layout(
    'Wealth platform',
    `<h1>Wealth platform</h1>
<p class="lead">This service answers the applications below. Each has a reference page you can read in a browser.</p>
${sections}
<p class="note">Service health: <a href="/healthz">/healthz</a></p>`,
    `
  main { max-width: 34rem; }
  h2 { font-size: 1.05rem; margin: 1.25rem 0 .25rem; }
  ul { margin: .25rem 0 0; padding-left: 1.25rem; }
  li { margin: .2rem 0; }
  .note { color: #52606d; margin-top: 1.5rem; }
`,
  );
}

/** `GET /`: a small page that points a newcomer to each application, its reference and its health. */
export const homeRoutes: FastifyPluginAsync<{ apps: ServedApp[] }> = async (app, { apps }) => {
  const html = homePage(apps);
  app.get('/', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => sendPage(reply, 200, html));
};
