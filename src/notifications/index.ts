import type { Db } from '../db/database.js';
import type { Clock } from '../shared/clock.js';
import { OutboxDispatcher } from '../outbox/dispatcher.js';
import { OutboxRepository } from '../outbox/repository.js';
import { SetAsideExpiryRepository } from './platform-events-repository.js';
import type { Links } from './present.js';
import { PUSH_DEFAULTS, type PushOptions, PushSender } from './push.js';
import { NotificationRepository, PUSH_TOPIC } from './repository.js';
import { type PartnerVerifier, NotificationService } from './service.js';
import { SetAsideExpirySweeper } from './set-aside-expiry-sweeper.js';

export { recordBatchEnded, recordSetAsidesExpired } from './platform-events-repository.js';
export { verifySignature } from './signature.js';
export { PUSH_DEFAULTS } from './push.js';

/**
 * Push deliveries go through the outbox table like every event, with a dispatcher of their own:
 * a slow partner endpoint then holds up other pushes at worst, never trade block sync.
 */
export function createNotificationServices(db: Db, clock: Clock, partners: PartnerVerifier, links: Links, push: PushOptions = PUSH_DEFAULTS) {
  const repository = new NotificationRepository(db.kysely);
  const pushOutbox = new OutboxDispatcher(new OutboxRepository(db.kysely), clock, { batchSize: 20 });
  const sender = new PushSender(repository, clock, links, push);
  pushOutbox.register(PUSH_TOPIC, (message) => sender.handle(message));
  const wake = () => pushOutbox.kick();
  return {
    notifications: new NotificationService(repository, partners, clock, links, wake, { allowPrivate: push.allowPrivateNetworks }),
    pushOutbox,
    setAsideSweeper: new SetAsideExpirySweeper(new SetAsideExpiryRepository(db.kysely), clock, wake),
  };
}
