import type { Services } from './services.js';
import type { Logger } from './shared/logger.js';

/**
 * Every piece of background work of a process, started and stopped here and nowhere else, with
 * the app's logger, whichever applications the process serves (WEALTH_APPS): the outbox that
 * syncs trade blocks to the rebalancer, push deliveries, the set aside expiry sweep, the
 * rebalance queue and the stalled-batch watchdog. They share one database, so each runs safely
 * in any number of processes.
 */
export function backgroundWork(services: Services, log: Logger) {
  const { outbox, pushOutbox, setAsideSweeper, queue, watchdog, revocations } = services;
  for (const job of [outbox, pushOutbox, setAsideSweeper, queue, watchdog]) job.log = log;
  return {
    async start() {
      // Until its channel listens, the token cache does not answer: requests look tokens up.
      revocations.start(log);
      outbox.start();
      pushOutbox.start();
      setAsideSweeper.start();
      // The queue resumes the chunks of batches that were running when the process stopped.
      await queue.start();
      watchdog.start();
      services.dailyValuation.log = log;
      services.dailyValuation.start();
    },
    async stop() {
      await services.dailyValuation.stop();
      await watchdog.stop();
      await queue.stop();
      await setAsideSweeper.stop();
      await pushOutbox.stop();
      await outbox.stop();
      await revocations.stop();
    },
  };
}
