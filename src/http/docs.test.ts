import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';

type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  requestBody?: { content?: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { example?: unknown }> }>;
};
type Document = { servers?: { url: string }[]; tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, Operation>> };

const APPS = [
  { prefix: '/api', title: 'Wealth platform: portfolio API' },
  { prefix: '/rebalancer', title: 'Wealth platform: rebalancing application' },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function operations(document: Document) {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })));
}

describeEachDatabase('the start page, the reference pages and the OpenAPI documents', (database) => {
  const t = useTestApp(database, { env: { PUBLIC_URL: 'https://wealth.example.com' } });

  it('GET / links both applications, their references, documents and health', async () => {
    const response = await t.app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const href of ['/api/docs', '/api/openapi.json', '/api/healthz', '/rebalancer/docs', '/rebalancer/openapi.json', '/rebalancer/healthz', '/healthz']) {
      expect(response.body, href).toContain(`href="${href}"`);
    }
    expect(response.body).toContain('<h2>Portfolio platform</h2>');
    expect(response.body).toContain('<h2>Rebalancing application</h2>');
  });

  for (const { prefix, title } of APPS) {
    it(`${prefix}/openapi.json names its server, groups operations by capability and explains each with examples`, async () => {
      const response = await t.app.inject({ url: `${prefix}/openapi.json` });
      expect(response.statusCode).toBe(200);
      const document = response.json<Document>();
      expect(document.servers).toEqual([{ url: 'https://wealth.example.com', description: 'This installation (PUBLIC_URL)' }]);

      const declared = (document.tags ?? []).map((tag) => tag.name);
      expect(declared.length).toBeGreaterThan(3);
      for (const tag of document.tags ?? []) expect(tag.description, tag.name).toMatch(/\w{3,}/);
      const used = new Set<string>();
      for (const { where, operation } of operations(document)) {
        expect(operation.tags, where).toHaveLength(1);
        expect(declared, where).toContain(operation.tags![0]);
        used.add(operation.tags![0]!);
        expect(operation.summary?.length, `${where} has a summary`).toBeGreaterThan(10);
        // Its own explanation, then who may call it.
        expect(operation.description, `${where} is explained`).toMatch(/^\S.{20,}\n\n(Needs a token|No token needed)/s);
        for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
          if (type.includes('json')) expect(media.example, `${where} request example`).toBeDefined();
        }
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (!status.startsWith('2')) continue;
          for (const [type, media] of Object.entries(answer.content ?? {})) {
            if (type.includes('json')) expect(media.example, `${where} ${status} example`).toBeDefined();
          }
        }
      }
      expect([...used].sort()).toEqual([...declared].sort());
      // Readers do not have the specification: nothing points into it.
      expect(response.body).not.toMatch(/section \d|§|docs\/decisions|\{base_url\}\/oauth/i);
    });

    it(`${prefix}/docs answers with and without the trailing slash, listing every operation`, async () => {
      const document = (await t.app.inject({ url: `${prefix}/openapi.json` })).json<Document>();
      for (const url of [`${prefix}/docs`, `${prefix}/docs/`]) {
        const page = await t.app.inject({ url });
        expect(page.statusCode, url).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.body).toContain(`<h1>${title}</h1>`);
        expect(page.body).not.toMatch(/<script|<link|<img|src=/);
        for (const { where } of operations(document)) {
          const path = where.split(' ')[1]!;
          // An unversioned twin is named beside its /v1 operation rather than listed again.
          expect(page.body, where).toMatch(new RegExp(`(<code class="path">|Also answers at <code>)${escapeRegExp(path)}</code>`));
        }
      }
    });
  }

});

describeEachDatabase('the start page of a process serving one application', (database) => {
  const t = useTestApp(database, { env: { WEALTH_APPS: 'rebalancer' } });

  it('lists only the application the process serves', async () => {
    const response = await t.app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/rebalancer/docs"');
    expect(response.body).not.toContain('/api/');
    expect((await t.app.inject({ url: '/rebalancer/docs' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/docs' })).statusCode).toBe(404);
  });
});
