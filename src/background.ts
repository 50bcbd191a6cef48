import type { ProcessRole, Services } from './services.js';
import type { Logger } from './shared/logger.js';

/** A piece of background work; its log is the process's. */
interface Job {
  log: Logger;
  start(): unknown;
  stop(): Promise<unknown>;
}

/**
 * Every piece of background work of a process, started and stopped here and nowhere else, with
 * the app's logger. `wealth serve` (whichever applications it serves, WEALTH_APPS) runs the
 * outbox that syncs trade blocks to the rebalancer, push deliveries, the set aside expiry sweep,
 * the rebalance queue, the stalled-batch watchdog and the daily valuation; `wealth worker` runs only the queue and the
 * watchdog. They share one database, so each runs safely in any number of processes. Jobs start
 * in list order and stop in reverse.
 */
export function backgroundWork(services: Services, log: Logger, role: ProcessRole = 'server') {
  const { outbox, pushOutbox, setAsideSweeper, queue, watchdog, dailyValuation, revocations, dataChanges } = services;
  // The queue resumes the chunks of batches that were running when the process stopped; the watchdog follows it.
  const jobs: Job[] = role === 'worker' ? [queue, watchdog] : [outbox, pushOutbox, setAsideSweeper, queue, watchdog, dailyValuation];
  for (const job of jobs) job.log = log;
  return {
    async start() {
      // Until its channel listens, the token cache does not answer: requests look tokens up.
      if (role === 'server') {
        revocations.start(log);
        // Until it listens (PostgreSQL), the response cache neither keeps nor serves answers.
        dataChanges.start(log);
      }
      for (const job of jobs) await job.start();
    },
    async stop() {
      for (const job of [...jobs].reverse()) await job.stop();
      if (role === 'server') await Promise.all([revocations.stop(), dataChanges.stop()]);
    },
  };
}
