import pg from 'pg';
import type { Logger } from '../shared/logger.js';

/**
 * pg-boss's statements that mark fetched jobs completed or failed (plans.js completeJobs and
 * failJobsById). pg-boss runs them after a job's handler without awaiting them (manager.js work():
 * `this.complete(…)`, `this.fail(…)`), so with the database away at that moment their rejection
 * is nobody's: an unhandled rejection in the process.
 */
const ENDS_FETCHED_JOBS = [
  /UPDATE \S+\.job\s+SET completed_on = now\(\),\s+state = 'completed'[\s\S]*id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/,
  /WITH deleted_jobs AS \(\s+DELETE FROM \S+\.job\s+WHERE name = \$1 AND id IN \(SELECT UNNEST\(\$2::uuid\[\]\)\)/,
];

export function endsFetchedJobs(text: string): boolean {
  return ENDS_FETCHED_JOBS.some((pattern) => pattern.test(text));
}

/**
 * The job queue's connection to PostgreSQL (pg-boss's `db` option): its own pool, as pg-boss would
 * open, except that a job's completion or failure that cannot be written is logged and dropped
 * instead of becoming an unhandled rejection. Dropping it loses nothing: the job stays active until
 * it expires (CHUNK_TIMEOUT_SECONDS) and comes back, and the chunk's done-guard makes the retry a
 * no-op when the chunk had committed. Every other statement fails as it would.
 */
export class JobDatabase {
  private readonly pool: pg.Pool;

  constructor(
    connectionString: string,
    max: number,
    private readonly log: Logger,
  ) {
    this.pool = new pg.Pool({ connectionString, max, application_name: 'pgboss' });
    // An idle connection the server ends (a restart) is an 'error' event of the pool.
    this.pool.on('error', (error) => this.log.error({ err: error }, 'job queue connection lost; the pool reconnects on the next statement'));
  }

  // pg-boss's own interface: any[] values, rows of any shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async executeSql(text: string, values?: any[]): Promise<{ rows: any[] }> {
    try {
      return await this.pool.query(text, values);
    } catch (error) {
      if (!endsFetchedJobs(text)) throw error;
      this.log.warn({ err: error }, 'a job could not be marked done or failed; it expires and is retried (its chunk is written once)');
      // What pg-boss reads of the answer: how many jobs the statement changed.
      return { rows: [{ count: '0' }] };
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
