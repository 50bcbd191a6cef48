import type { Clock } from '../shared/clock.js';
import { type Logger, stderrLogger } from '../shared/logger.js';
import { PeriodicJob } from '../shared/periodic.js';
import type { ClaimedMessage, OutboxRepository } from './repository.js';

/** Must be idempotent: a message is delivered at least once. */
export type OutboxHandler = (message: ClaimedMessage) => Promise<void>;

export interface DispatcherOptions {
  batchSize?: number;
  /** How long a claimed row stays invisible to other runs; a crashed run's rows return after it. */
  leaseMs?: number;
  /** Safety-net polling for retries and rows written by other nodes. */
  pollMs?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  onError?: (error: unknown, message: ClaimedMessage) => void;
}

/**
 * Delivers outbox rows to the handler registered for their topic. A run claims due rows, hands
 * each to its handler and marks it delivered; a failing handler's row is retried later with
 * exponential backoff. Writers `kick()` after commit so delivery follows within milliseconds;
 * the poll catches the rest.
 */
export class OutboxDispatcher {
  private readonly handlers = new Map<string, OutboxHandler>();
  private readonly options: Required<Omit<DispatcherOptions, 'onError'>> & Pick<DispatcherOptions, 'onError'>;
  private readonly poll: PeriodicJob;
  private current: Promise<void> | undefined;
  private again = false;
  private started = false;
  /** Set by the app when it starts background work (src/background.ts). */
  log: Logger = stderrLogger;

  constructor(
    private readonly repository: OutboxRepository,
    private readonly clock: Clock,
    options: DispatcherOptions = {},
  ) {
    this.options = { batchSize: 100, leaseMs: 60_000, pollMs: 1000, baseBackoffMs: 1000, maxBackoffMs: 600_000, ...options };
    this.poll = new PeriodicJob(() => this.drain(), { intervalMs: this.options.pollMs, onError: (error) => this.report(error) });
  }

  register(topic: string, handler: OutboxHandler) {
    if (this.handlers.has(topic)) throw new Error(`outbox topic ${topic} already has a handler`);
    this.handlers.set(topic, handler);
  }

  /** Claims and delivers until nothing is due; returns how many rows it delivered. */
  async runOnce(): Promise<number> {
    const topics = [...this.handlers.keys()];
    let delivered = 0;
    while (topics.length > 0) {
      const now = this.clock.now();
      const claimed = await this.repository.claim(
        now.toISOString(),
        new Date(now.getTime() + this.options.leaseMs).toISOString(),
        this.options.batchSize,
        topics,
      );
      if (claimed.length === 0) break;
      for (const message of claimed) {
        try {
          await this.handlers.get(message.topic)!(message);
          await this.repository.delivered(message.id, this.clock.now().toISOString());
          delivered++;
        } catch (error) {
          this.options.onError?.(error, message);
          const delay = Math.min(this.options.maxBackoffMs, this.options.baseBackoffMs * 2 ** (message.attempts - 1));
          const next = new Date(this.clock.now().getTime() + delay).toISOString();
          await this.repository.failed(message.id, next, error instanceof Error ? error.message : String(error));
        }
      }
    }
    return delivered;
  }

  /** Runs until nothing is due; concurrent callers share one run. */
  drain(): Promise<void> {
    if (this.current) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      try {
        do {
          this.again = false;
          await this.runOnce();
        } while (this.again);
      } finally {
        this.current = undefined;
      }
    })();
    return this.current;
  }

  /** Asks a started dispatcher for a pass soon; writers call it after their commit. */
  kick() {
    if (!this.started) return;
    setImmediate(() => {
      if (this.started) void this.drain().catch((error: unknown) => this.report(error));
    });
  }

  start() {
    if (this.started) return;
    this.started = true;
    this.poll.start();
    this.kick();
  }

  async stop() {
    this.started = false;
    await this.poll.stop();
    await this.current?.catch(() => undefined);
  }

  private report(error: unknown) {
    // A failed claim (database away) is retried by the next poll; nothing is lost.
    this.log.error({ err: error }, 'outbox dispatcher pass failed; the next poll retries');
  }
}
