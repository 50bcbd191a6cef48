import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/support/databases.js';
import { useTestApp } from '../../test/support/app.js';

/** Start-up prints `{base_url}` and `{rebalancer_base_url}` as the applications' addresses: they answer. */
describeEachDatabase('GET {base_url} and GET {rebalancer_base_url}: an index of the application\'s documents', (database) => {
  const t = useTestApp(database, { env: { PUBLIC_URL: 'https://wealth.example.com' } });

  for (const prefix of ['/api', '/rebalancer']) {
    it(`${prefix} answers its documents' links, with and without a trailing slash, and they resolve`, async () => {
      for (const url of [prefix, `${prefix}/`]) {
        const response = await t.app.inject({ url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        const index = response.json();
        expect(index.baseUrl).toBe(`https://wealth.example.com${prefix}`);
        expect(index.links.map((l: { rel: string; href: string }) => [l.rel, l.href])).toEqual([
          ['reference', `https://wealth.example.com${prefix}/docs`],
          ['openapi', `https://wealth.example.com${prefix}/openapi.json`],
          ['health', `https://wealth.example.com${prefix}/healthz`],
        ]);
        for (const link of index.links as { href: string }[]) {
          const path = new URL(link.href).pathname;
          expect((await t.app.inject({ url: path })).statusCode, path).toBe(200);
        }
      }
    });

    it(`${prefix} shows a browser the same links as a page; no token is needed`, async () => {
      const page = await t.app.inject({ url: prefix, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain(`href="https://wealth.example.com${prefix}/openapi.json"`);
      expect(page.body).toContain(`href="https://wealth.example.com${prefix}/docs"`);
    });
  }
});
