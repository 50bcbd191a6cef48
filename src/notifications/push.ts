import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Clock } from '../shared/clock.js';
import { AddressRefused, guardedLookup, isPublicAddress, literalAddress } from './address-guard.js';
import type { ClaimedMessage } from '../outbox/repository.js';
import { type Links, presentNotification } from './present.js';
import type { NotificationRepository } from './repository.js';
import { DELIVERY_HEADER, signedHeaders } from './signature.js';

export interface PushOptions {
  /** Attempts before a delivery is given up as failed (docs/decisions/notification-push.md). */
  maxAttempts: number;
  /** How long one POST may take before it counts as a failed attempt. */
  timeoutMs: number;
  /** PUSH_ALLOW_PRIVATE_NETWORKS: deliver to non-public addresses too (address-guard.ts). */
  allowPrivateNetworks: boolean;
}

export const PUSH_DEFAULTS: PushOptions = { maxAttempts: 15, timeoutMs: 5000, allowPrivateNetworks: false };

/** An answer of the endpoint outside 2xx: the only detail of an attempt the delivery log shows. */
class EndpointAnswered extends Error {
  constructor(readonly status: number) {
    super(`the endpoint answered HTTP ${status}`);
  }
}

/**
 * What the delivery log says of a failed attempt. A partner reads it, so it carries the endpoint's
 * HTTP status or "no answer", never the socket's error text: refused, reset and timed-out
 * connections read alike and the log cannot map the server's network.
 */
function describe(error: unknown): string {
  if (error instanceof EndpointAnswered || error instanceof AddressRefused) return error.message;
  return 'no answer from the endpoint';
}

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
    const target = new URL(delivery.push_url);
    const literal = literalAddress(target.hostname);
    // Checked again at every delivery: the setting may have been turned off since registration.
    if (!this.options.allowPrivateNetworks && literal !== undefined && !isPublicAddress(literal)) return end('failed', new AddressRefused().message);
    try {
      await this.send(delivery.push_url, delivery.push_secret, body, deliveryId);
    } catch (error) {
      const reason = describe(error);
      // The name resolves to a non-public address now: not a passing fault, so no retries.
      if (error instanceof AddressRefused) return end('failed', reason);
      if (message.attempts >= this.options.maxAttempts) return end('failed', `gave up after ${message.attempts} attempts: ${reason}`);
      const now = this.clock.now().toISOString();
      await this.repository.updateDelivery(deliveryId, { status: 'pending', attempts: message.attempts, lastError: reason, deliveredAt: null, now });
      throw error;
    }
    return end('delivered', null);
  }

  /**
   * One POST to the registered address, resolved here and connected to only when every address of
   * the name is allowed (guardedLookup). No redirect is followed: a 3xx is an answer outside 2xx.
   */
  private send(url: string, secret: string, body: string, deliveryId: number): Promise<void> {
    const target = new URL(url);
    const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...signedHeaders(secret, body, this.clock.now()), [DELIVERY_HEADER]: String(deliveryId) };
    return new Promise<void>((resolve, reject) => {
      const outgoing = request(target, { method: 'POST', headers, lookup: guardedLookup({ allowPrivate: this.options.allowPrivateNetworks }), signal: AbortSignal.timeout(this.options.timeoutMs) }, (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        if (status >= 200 && status <= 299) resolve();
        else reject(new EndpointAnswered(status));
      });
      outgoing.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRREFUSED' ? new AddressRefused() : error));
      outgoing.end(body);
    });
  }
}
