import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHousehold } from '../src/integrations/risk-partner/test-support.js';
import { useTestApp } from './support/app.js';
import { DESKTOP, hasChromium, launchChromium, overflowsOf, PHONE, watchRequests } from './support/browser.js';
import { describeEachDatabase } from './support/databases.js';

const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');
const SIZES = [
  { name: 'phone', viewport: PHONE },
  { name: 'desktop', viewport: DESKTOP },
];

describeEachDatabase('the service\'s pages in a browser', (database) => {
  const t = useTestApp(database);
  let base = '';
  let browser: Browser;
  let household = 0;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    household = await createHousehold(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    if (hasChromium) browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  async function open(viewport: { width: number; height: number }, url: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport });
    const problems = watchRequests(page);
    const response = await page.goto(url);
    expect(response?.status(), url).toBeLessThan(400);
    return { page, problems };
  }

  it.skipIf(!hasChromium)('shows every operation of both reference pages, with and without the trailing slash, and loads nothing that fails', async () => {
    for (const prefix of ['/api', '/rebalancer']) {
      const document = (await t.app.inject({ url: `${prefix}/openapi.json` })).json<{ paths: Record<string, object> }>();
      const operationCount = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
      for (const url of [`${base}${prefix}/docs`, `${base}${prefix}/docs/`]) {
        for (const size of SIZES) {
          const { page, problems } = await open(size.viewport, url);
          const operations = page.locator('section.op');
          const shown = await operations.count();
          // Unversioned twins of /v1 operations are named inside them, so there are fewer sections.
          expect(shown, url).toBeGreaterThan(operationCount / 2 - 1);
          expect(shown, url).toBeLessThanOrEqual(operationCount);
          await operations.last().scrollIntoViewIfNeeded();
          await expect(operations.last().locator('h3').isVisible()).resolves.toBe(true);
          await expect(operations.first().locator('.summary').textContent()).resolves.toMatch(/\w+/);
          expect(problems, url).toEqual([]);
          expect(await overflowsOf(page), `${url} ${size.name}`).toEqual([]);
          await page.close();
        }
      }
    }
  }, 120_000);

  it.skipIf(!hasChromium)('the start page leads to both references', async () => {
    const { page, problems } = await open(PHONE, `${base}/`);
    expect(await overflowsOf(page)).toEqual([]);
    await Promise.all([page.waitForURL(/\/rebalancer\/docs$/), page.click('a[href="/rebalancer/docs"]')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Wealth platform: rebalancing application');
    await page.goBack();
    await Promise.all([page.waitForURL(/\/api\/docs$/), page.click('a[href="/api/docs"]')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Wealth platform: portfolio API');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  for (const size of SIZES) {
    it.skipIf(!hasChromium)(`the sign-in, consent and questionnaire pages fit a ${size.viewport.width}x${size.viewport.height} screen`, async () => {
      const query = new URLSearchParams({ response_type: 'code', client_id: String(t.firm.clientId), redirect_uri: 'https://partner.example/alpha/callback', state: 's' });
      const { page, problems } = await open(size.viewport, `${base}/api/oauth/?${query}`);
      await expect(page.title()).resolves.toBe('Sign in');
      expect(await overflowsOf(page), 'sign-in').toEqual([]);

      // A wrong password shows the page again with its message; an API account is told where to go.
      const api = t.firm.users.api;
      await page.fill('#username', api.userName);
      await page.fill('#password', api.password);
      await Promise.all([page.waitForLoadState(), page.click('button[type=submit]')]);
      await expect(page.locator('[role=alert]').textContent()).resolves.toContain('/api/v1/security/token');
      expect(await overflowsOf(page), 'sign-in with a message').toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `sign-in-${size.name}-${database.name}.png`), fullPage: true });

      const advisor = t.firm.users.advisor;
      await page.fill('#username', advisor.userName);
      await page.fill('#password', advisor.password);
      await Promise.all([page.waitForLoadState(), page.click('button[type=submit]')]);
      await expect(page.title()).resolves.toBe('Allow access');
      expect(await overflowsOf(page), 'consent').toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, `consent-${size.name}-${database.name}.png`), fullPage: true });
      expect(problems.filter((p) => !p.startsWith('401 '))).toEqual([]);
      await page.close();

      const created = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/Integrations/RiskPartner/CreateClient',
        headers: { authorization: await t.session('advisor') },
        payload: { name: `Ada Lovelace-Byron of Ockham and Wentworth ${size.name}`, extClientId: String(household), source: 'CRM' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const survey = await open(size.viewport, created.json<{ jsonInfo: { surveyUrl: string } }>().jsonInfo.surveyUrl.replace(/^https?:\/\/[^/]+/, base));
      await expect(survey.page.title()).resolves.toBe('Risk questionnaire');
      expect(await overflowsOf(survey.page), 'questionnaire').toEqual([]);
      await Promise.all([survey.page.waitForLoadState(), survey.page.click('button[type=submit]')]);
      await expect(survey.page.locator('[role=alert]').textContent()).resolves.toContain('Please answer every question');
      expect(await overflowsOf(survey.page), 'questionnaire with unanswered questions').toEqual([]);
      await survey.page.screenshot({ path: join(ARTIFACTS, `questionnaire-${size.name}-${database.name}.png`), fullPage: true });
      expect(survey.problems.filter((p) => !p.startsWith('400 '))).toEqual([]);
      await survey.page.close();

      const code = await open(size.viewport, `${base}/api/oauth/callback?code=k3Jd9s-V0bq2r7XwYtEe1A0aaaaaaaaaaaaaaaaaaaa&state=step-1`);
      expect(await overflowsOf(code.page), 'code page').toEqual([]);
      await code.page.close();
    }, 60_000);
  }
});
