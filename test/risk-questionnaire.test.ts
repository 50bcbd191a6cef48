import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { answersOfPoints, createHousehold } from '../src/integrations/risk-partner/test-support.js';
import { useTestApp } from './support/app.js';
import { describeEachDatabase } from './support/databases.js';
import { portsPerDatabase } from './support/ports.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', 'test-artifacts');

// The survey link starts with PUBLIC_URL: the server listens where PUBLIC_URL says.
const ports = await portsPerDatabase();

describeEachDatabase('a household client takes the risk questionnaire in a browser', (database) => {
  const port = ports[database.name];
  const t = useTestApp(database, { env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
  let base = '';
  let household = 0;

  beforeAll(async () => {
    household = await createHousehold(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    base = await t.app.listen({ port, host: '127.0.0.1' });
  });

  it.skipIf(!existsSync(CHROMIUM))('opens the link, is told about an unanswered question, submits, and the score reaches GetSurveyResults', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const authorization = await t.session('advisor');
    const created = await fetch(`${base}/api/v1/Integrations/RiskPartner/CreateClient`, {
      method: 'PUT',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Rosalind Franklin', extClientId: String(household), source: 'CRM' }),
    });
    expect(created.status).toBe(200);
    const client = (await created.json()) as { id: number; jsonInfo: { surveyUrl: string } };
    expect(client.jsonInfo.surveyUrl.startsWith(`${base}/api/`)).toBe(true);

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(client.jsonInfo.surveyUrl);
      await expect(page.title()).resolves.toBe('Risk questionnaire');
      await expect(page.locator('fieldset').count()).resolves.toBe(10);

      const answers = answersOfPoints(3);
      const { experience: skipped, ...allButOne } = answers;
      for (const [question, answer] of Object.entries(allButOne)) await page.check(`input[name="${question}"][value="${answer}"]`);
      await page.click('button[type=submit]');
      await expect(page.locator('[role=alert]').textContent()).resolves.toContain('Please answer every question. Not answered: question 5.');
      await expect(page.locator('#q-experience').getAttribute('class')).resolves.toBe('missing');
      await page.screenshot({ path: join(ARTIFACTS, `risk-questionnaire-unanswered-${database.name}.png`), fullPage: true });
      // The answers given survive the round trip.
      await expect(page.isChecked(`input[name="horizon"][value="${answers.horizon}"]`)).resolves.toBe(true);

      await page.check(`input[name="experience"][value="${skipped}"]`);
      await Promise.all([page.waitForURL(/\/Questionnaire\/Result\?token=/), page.click('button[type=submit]')]);
      await expect(page.title()).resolves.toBe('Your risk profile');
      const shownScore = Number(await page.locator('#risk-score').textContent());
      const shownCategory = await page.locator('#risk-category').textContent();
      expect([shownScore, shownCategory]).toEqual([75, 'Moderately Aggressive']);
      await page.screenshot({ path: join(ARTIFACTS, `risk-questionnaire-${database.name}.png`), fullPage: true });

      const read = await fetch(`${base}/api/Integrations/RiskPartner/GetSurveyResults?clientId=${client.id}`, { headers: { authorization } });
      expect(read.status).toBe(200);
      const result = (await read.json()) as Record<string, unknown>;
      expect(result).toMatchObject({ id: client.id, hasRiskScore: 'true', riskScore: shownScore, surveyScore: 30, surveyRiskCategory: shownCategory, surveySource: 'Questionnaire' });
      expect(result.surveys).toHaveLength(1);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
