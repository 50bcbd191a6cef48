// The daily valuation: every account's value at a date's close from its positions, cash and
// prices, with the day's flows, fees and income from its transactions. Trades are internal to the
// account and move no return. Running it again for a date replaces that date's rows.
import { hostname } from 'node:os';
import { parseDay } from '../engine/performance/days.js';
import type { Clock } from '../shared/clock.js';
import { validationError } from '../shared/errors.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import type { PerformanceRepository } from './repository.js';

export interface ValuationSummary {
  date: string;
  /** Firms valued by this call, and those another node had claimed. */
  firms: number;
  skipped: number;
  accounts: number;
}

/** A claim older than this is a node that died part-way: another takes the date over. */
const STALE_CLAIM_MS = 60 * 60 * 1000;

export class ValuationService {
  constructor(
    private readonly repo: PerformanceRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Values every account of the firm (or of every firm) at `date`. With `claimAs` (the server's
   * job) each firm's date is claimed first and a date claimed by another node is skipped, so of
   * several nodes one values it; without (the `wealth value` command) the date is valued again.
   */
  async valueDay(date: string, options: { firmCode?: string; claimAs?: string } = {}): Promise<ValuationSummary> {
    if (parseDay(date) === null) throw validationError('date', `must be a date YYYY-MM-DD; got "${date}"`);
    const firms = await this.repo.firms(options.firmCode);
    if (options.firmCode && firms.length === 0) throw validationError('firm', `no firm with code ${options.firmCode}`);
    const summary: ValuationSummary = { date, firms: 0, skipped: 0, accounts: 0 };
    for (const firm of firms) {
      const now = this.clock.now();
      if (options.claimAs) {
        const stale = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
        if (!(await this.repo.claimRun(firm.id, date, options.claimAs, now.toISOString(), stale))) {
          summary.skipped++;
          continue;
        }
      }
      const values = await this.repo.accountValues(firm.id, date);
      const day = await this.repo.dayTransactions(firm.id, date);
      const rows = values.map(({ accountId, cents }) => ({ accountId, cents, ...(day.get(accountId) ?? { flow: 0, fee: 0, income: 0 }) }));
      await this.repo.replaceDay(firm.id, date, rows);
      await this.repo.finishRun(firm.id, date, this.clock.now().toISOString());
      summary.firms++;
      summary.accounts += rows.length;
    }
    return summary;
  }
}

/**
 * The server's daily valuation: checks every few minutes whether today's close has passed the
 * configured time and, if so, values today (claimed per firm, so it runs once across nodes).
 */
export class DailyValuationJob {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;
  private lastDone: string | undefined;
  log: Logger = stderrLogger;
  readonly node = `${hostname()}:${process.pid}`;

  constructor(
    private readonly valuation: ValuationService,
    private readonly clock: Clock,
    private readonly minuteOfDay: number | null,
    private readonly intervalMs = 5 * 60_000,
  ) {}

  async runOnce(): Promise<ValuationSummary | undefined> {
    if (this.minuteOfDay === null) return undefined;
    const now = this.clock.now();
    const date = now.toISOString().slice(0, 10);
    if (this.lastDone === date || now.getUTCHours() * 60 + now.getUTCMinutes() < this.minuteOfDay) return undefined;
    const summary = await this.valuation.valueDay(date, { claimAs: this.node });
    this.lastDone = date;
    if (summary.firms > 0) this.log.info(summary, 'daily valuation stored');
    return summary;
  }

  start() {
    if (this.timer || this.minuteOfDay === null) return;
    const run = () => {
      this.current ??= this.runOnce()
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error }, 'daily valuation failed; the next interval retries'))
        .finally(() => (this.current = undefined));
    };
    this.timer = setInterval(run, this.intervalMs);
    this.timer.unref();
    run();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }
}
