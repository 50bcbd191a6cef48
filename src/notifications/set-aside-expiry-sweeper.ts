import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import { PeriodicJob } from '../shared/periodic.js';
import type { SetAsideExpiryRepository } from './platform-events-repository.js';

export interface SweepOptions {
  intervalMs: number;
  /** Records whose date passed longer ago are never notified: no flood of old news on first start. */
  lookbackDays: number;
  batchSize: number;
}

export const SWEEP_DEFAULTS: SweepOptions = { intervalMs: 60_000, lookbackDays: 7, batchSize: 200 };
const DAY_MS = 86_400_000;

/**
 * Set asides expire by date on read (docs/decisions/set-aside-cash.md), so no write marks the moment; this
 * periodic sweep finds records past their last protected day and notifies each creator once.
 * Several nodes may sweep at once: each record's notification key is claimed once.
 */
export class SetAsideExpirySweeper {
  private readonly job: PeriodicJob;
  /** Set by the app when it starts background work (src/background.ts). */
  log: Logger = stderrLogger;

  constructor(
    private readonly repository: SetAsideExpiryRepository,
    private readonly clock: Clock,
    private readonly afterCommit: () => void = () => undefined,
    private readonly options: SweepOptions = SWEEP_DEFAULTS,
  ) {
    // Nothing is marked until it is notified, so a failed sweep is simply tried again.
    this.job = new PeriodicJob(() => this.runOnce(), {
      intervalMs: options.intervalMs,
      runAtStart: true,
      onError: (error) => this.log.error({ err: error }, 'set aside expiry sweep failed; the next interval retries'),
    });
  }

  /** One sweep to the end; returns how many notifications it wrote. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const today = now.toISOString().slice(0, 10);
    const earliest = new Date(now.getTime() - this.options.lookbackDays * DAY_MS).toISOString().slice(0, 10);
    let notified = 0;
    // Every picked record is claimed, so each pass shrinks what is due; the cap is a safety net.
    for (let pass = 0; pass < 100; pass++) {
      const due = await this.repository.due(today, earliest, this.options.batchSize);
      if (due.length === 0) break;
      notified += await this.repository.notify(due, today, now.toISOString());
      if (due.length < this.options.batchSize) break;
    }
    if (notified > 0) this.afterCommit();
    return notified;
  }

  start() {
    this.job.start();
  }

  async stop() {
    await this.job.stop();
  }
}
