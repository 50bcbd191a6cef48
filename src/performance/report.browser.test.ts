// The printable report in a real browser: at 1280 and 390 px nothing sticks out, the chart
// draws, and print media lays it out on paper.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useTestApp } from '../../test/support/app.js';
import { createTestBook } from '../../test/support/book.js';
import { hasChromium, launchChromium, overflowsOf, watchRequests } from '../../test/support/browser.js';
import { describeEachDatabase } from '../../test/support/databases.js';

describeEachDatabase('the performance report in a browser', (database) => {
  const t = useTestApp(database);
  let browser: Browser;
  let base = '';
  let household = 0;
  let token = '';

  beforeAll(async () => {
    const db = t.db.kysely;
    const book = await createTestBook(db, t.firm.firmId, t.firm.representativeId);
    const accounts = [await book.account(), await book.account()];
    household = (await db.selectFrom('registrations').select('client_id').where('id', '=', book.registrationId).executeTakeFirstOrThrow()).client_id;
    // Ninety days of values growing 0.1 % a day, and VTI's prices for the benchmark.
    const rows = [];
    const prices = [];
    for (let d = 0; d < 90; d++) {
      const date = new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
      for (const [i, account] of accounts.entries()) {
        rows.push({ firm_id: t.firm.firmId, account_id: account, value_date: date, market_value_cents: Math.round((i + 1) * 5_000_000 * 1.001 ** d), net_flow_cents: 0, fees_cents: 0, income_cents: 0 });
      }
      prices.push({ firm_id: t.firm.firmId, product_id: book.products.VTI, price_date: date, price_micros: Math.round(100e6 * 1.0008 ** d) });
      prices.push({ firm_id: t.firm.firmId, product_id: book.products.BND, price_date: date, price_micros: 80e6 });
    }
    await db.insertInto('account_values').values(rows).execute();
    await db.insertInto('product_prices').values(prices).execute();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    token = await t.session('reader');
    if (hasChromium) browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it.skipIf(!hasChromium)('fits 1280 and 390 px and prints', async () => {
    for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
      const page = await browser.newPage({ viewport, extraHTTPHeaders: { authorization: token } });
      const problems = watchRequests(page);
      const response = await page.goto(`${base}/api/v1/Portfolio/Clients/${household}/Performance/Report`);
      expect(response?.status()).toBe(200);
      expect(await overflowsOf(page)).toEqual([]);
      const chart = await page.locator('svg').boundingBox();
      expect(chart?.width).toBeGreaterThan(Math.min(viewport.width * 0.8, 800));
      if (process.env.REPORT_SCREENSHOTS) await page.screenshot({ path: `${process.env.REPORT_SCREENSHOTS}/report-${viewport.width}.png`, fullPage: true });
      expect(await page.locator('svg path.own').count()).toBe(1);
      expect(await page.locator('svg path.bench').count()).toBe(1);
      expect(await page.locator('text=Returns by period').count()).toBe(1);
      expect(problems).toEqual([]);
      await page.close();
    }
    // Print: a Letter page is 816 px wide at 96 dpi; nothing may run off it.
    const paper = await browser.newPage({ viewport: { width: 816, height: 1056 }, extraHTTPHeaders: { authorization: token } });
    await paper.goto(`${base}/api/v1/Portfolio/Clients/${household}/Performance/Report`);
    await paper.emulateMedia({ media: 'print' });
    expect(await overflowsOf(paper)).toEqual([]);
    expect(await paper.locator('svg path.own').isVisible()).toBe(true);
    const pdf = await paper.pdf({ format: 'Letter' });
    expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
    await paper.close();
  });
});
