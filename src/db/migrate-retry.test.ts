import type { MigrationResultSet } from 'kysely';
import { describe, expect, it } from 'vitest';
import { retryBookkeeping } from './database.js';

const raced: MigrationResultSet = { error: new Error('column "trade_instance_id" of relation "batches" does not exist') };

describe('retryBookkeeping', () => {
  it('tries again when the bookkeeping failed before any migration ran', async () => {
    const outcomes: MigrationResultSet[] = [raced, raced, { results: [{ migrationName: '0001_book', direction: 'Up', status: 'Success' }] }];
    let calls = 0;
    const outcome = await retryBookkeeping(async () => outcomes[calls++]!);
    expect(calls).toBe(3);
    expect(outcome).toEqual({ results: [{ migrationName: '0001_book', direction: 'Up', status: 'Success' }] });
  });

  it('does not repeat a migration that failed, and gives up after the last attempt', async () => {
    const failed: MigrationResultSet = { error: new Error('syntax error'), results: [{ migrationName: '0002_x', direction: 'Up', status: 'Error' }] };
    let calls = 0;
    expect(await retryBookkeeping(async () => (calls++, failed))).toBe(failed);
    expect(calls).toBe(1);
    calls = 0;
    expect(await retryBookkeeping(async () => (calls++, raced), 3)).toBe(raced);
    expect(calls).toBe(3);
  });
});
