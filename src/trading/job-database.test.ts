import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { endsFetchedJobs, JobDatabase } from './job-database.js';

// pg-boss's own statement texts (its plans module; not part of its typed interface), so that a
// pg-boss upgrade that changes them fails here rather than in a database outage.
const plans = createRequire(import.meta.url)('pg-boss/src/plans.js') as Record<string, (schema: string, ...rest: unknown[]) => string>;
const schema = 'wealth_jobs';
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

describe('the job queue’s database', () => {
  it('knows pg-boss’s statements that mark fetched jobs completed or failed, and no other', () => {
    expect(endsFetchedJobs(plans.completeJobs!(schema))).toBe(true);
    expect(endsFetchedJobs(plans.failJobsById!(schema))).toBe(true);
    for (const other of ['fetchNextJob', 'cancelJobs', 'failJobsByTimeout', 'insertJobs', 'insertJob']) {
      const text = other === 'fetchNextJob' ? plans.fetchNextJob!({ schema } as never) : plans[other]!(schema);
      expect(endsFetchedJobs(text), other).toBe(false);
    }
  });

  it('with the database away, drops a job’s completion or failure (logged) and fails every other statement', async () => {
    const warnings: string[] = [];
    // Nothing listens on port 1: every connection is refused at once.
    const database = new JobDatabase('postgres://postgres@127.0.0.1:1/none', 1, { ...quiet, warn: (_details, message) => warnings.push(message) });
    try {
      await expect(database.executeSql(plans.completeJobs!(schema), ['q', [], null])).resolves.toEqual({ rows: [{ count: '0' }] });
      await expect(database.executeSql(plans.failJobsById!(schema), ['q', [], null])).resolves.toEqual({ rows: [{ count: '0' }] });
      await expect(database.executeSql(plans.insertJobs!(schema), [])).rejects.toThrow();
      await expect(database.executeSql('select 1')).rejects.toThrow();
      expect(warnings).toHaveLength(2);
    } finally {
      await database.close();
    }
  });
});
