/**
 * A task run in the background every `intervalMs`, the one loop every periodic job uses:
 * - one run at a time: a tick while a run is going is skipped, not queued;
 * - a failed run goes to `onError` (the job logs it) and the next tick tries again;
 * - the timer is unref'd, so a job never keeps a process alive;
 * - `stop()` clears the timer and waits for a run in flight.
 */
export interface PeriodicJobOptions {
  intervalMs: number;
  /** A failed run: log it. The next tick runs again. */
  onError: (error: unknown) => void;
  /** Run once at `start()` as well as on every tick. */
  runAtStart?: boolean;
}

export class PeriodicJob {
  private timer: NodeJS.Timeout | undefined;
  private current: Promise<void> | undefined;

  constructor(
    private readonly task: () => Promise<unknown>,
    private readonly options: PeriodicJobOptions,
  ) {}

  get started(): boolean {
    return this.timer !== undefined;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.runNow(), this.options.intervalMs);
    this.timer.unref();
    if (this.options.runAtStart) void this.runNow();
  }

  /** Runs the task now, or joins the run in flight; never rejects (errors go to `onError`). */
  runNow(): Promise<void> {
    this.current ??= this.task()
      .then(
        () => undefined,
        (error: unknown) => this.options.onError(error),
      )
      .finally(() => {
        this.current = undefined;
      });
    return this.current;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.current;
  }
}
