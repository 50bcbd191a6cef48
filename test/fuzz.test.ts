import { expect, it } from 'vitest';
import { useTestApp } from './support/app.js';
import { createTestBook } from './support/book.js';
import { describeEachDatabase } from './support/databases.js';
import { fuzzService } from './support/fuzz.js';

/**
 * Every operation of both OpenAPI documents, sent schema-derived and hostile values on
 * both databases: no 5xx, and no refused write leaves a row behind. CI runs FUZZ_RUNS cases per
 * operation (10 by default); `npm run fuzz -- --requests N` runs a long campaign.
 */
describeEachDatabase('fuzzing every operation', (database) => {
  const t = useTestApp(database);

  it('answers no 5xx and writes nothing on a refused write', async () => {
    await createTestBook(t.db.kysely, t.firm.firmId, t.firm.representativeId);
    const result = await fuzzService(t, Number(process.env.FUZZ_RUNS ?? 10), 14);
    expect(result.sent).toBeGreaterThan(1000);
    expect(result.serverErrors).toEqual([]);
    expect(result.partialWrites).toEqual([]);
  }, 240_000);
});
