import type { Clock } from '../shared/clock.js';
import type { ClaimedMessage } from '../outbox/repository.js';
import { type Links, presentNotification } from './present.js';
import type { NotificationRepository } from './repository.js';
import { DELIVERY_HEADER, signedHeaders } from './signature.js';

export interface PushOptions {
  /** Attempts before a delivery is given up as failed (docs/decisions/notification-push.md). */
  maxAttempts: number;
  /** How long one POST may take before it counts as a failed attempt. */
  timeoutMs: number;
}

export const PUSH_DEFAULTS: PushOptions = { maxAttempts: 15, timeoutMs: 5000 };

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${error.message}: ${detail}` : error.message;
}

class EndpointRefused extends Error {}

/**
 * The outbox handler of PUSH_TOPIC: POSTs the notification's read shape to the integration's
 * endpoint, signed with its secret. A failed attempt is thrown back to the outbox, which retries
 * with its backoff, until `maxAttempts`; then the delivery ends `failed` and the message is done.
 * Delivery is at least once: a receiver deduplicates on Wealth-Delivery-Id.
 */
export class PushSender {
  constructor(
    private readonly repository: NotificationRepository,
    private readonly clock: Clock,
    private readonly links: Links,
    private readonly options: PushOptions = PUSH_DEFAULTS,
  ) {}

  async handle(message: ClaimedMessage): Promise<void> {
    const { deliveryId } = message.payload as { deliveryId: number };
    const delivery = await this.repository.delivery(deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const end = (status: 'delivered' | 'failed', lastError: string | null) => {
      const now = this.clock.now().toISOString();
      return this.repository.updateDelivery(deliveryId, { status, attempts: message.attempts, lastError, deliveredAt: status === 'delivered' ? now : null, now });
    };
    if (!delivery.push_url || !delivery.push_secret || delivery.is_active !== 1) return end('failed', 'no push endpoint is registered any more');
    const row = await this.repository.notification(delivery.notification_id);
    if (!row) return end('failed', 'the notification no longer exists');
    const body = JSON.stringify(presentNotification(this.links, row));
    try {
      await this.send(delivery.push_url, delivery.push_secret, body, deliveryId);
    } catch (error) {
      const reason = describe(error);
      if (message.attempts >= this.options.maxAttempts) return end('failed', `gave up after ${message.attempts} attempts: ${reason}`);
      const now = this.clock.now().toISOString();
      await this.repository.updateDelivery(deliveryId, { status: 'pending', attempts: message.attempts, lastError: reason, deliveredAt: null, now });
      throw error;
    }
    return end('delivered', null);
  }

  private async send(url: string, secret: string, body: string, deliveryId: number) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(secret, body, this.clock.now()), [DELIVERY_HEADER]: String(deliveryId) },
      body,
      // A redirect could lead the signed body anywhere; the registered address is the only one.
      redirect: 'manual',
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
    await response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status > 299) throw new EndpointRefused(`the endpoint answered HTTP ${response.status}`);
  }
}
