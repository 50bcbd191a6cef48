import { randomUUID } from 'node:crypto';
import { type Clock, isoNow } from '../shared/clock.js';
import { DomainError, validationFailed, type FieldProblem } from '../shared/errors.js';
import type { Principal } from '../auth/service.js';
import { type Links, presentNotification } from './present.js';
import type { IntegrationRow, NotificationRepository } from './repository.js';
import type { DeliveryRecord, EndpointRecord, IntegrationRecord, NotificationInput, NotificationRead } from './schemas.js';
import { newSigningSecret } from './signature.js';
import { type AddressPolicy, hostAllowed } from './address-guard.js';

export interface PartnerCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

/** The partner check of the auth capability (AuthService.verifyPartner); throws `unauthorized`. */
export interface PartnerVerifier {
  verifyPartner(clientId: string | undefined, clientSecret: string | undefined): Promise<{ id: number; firm_id: number; name: string }>;
}

/** A webhook the caller proved it may use: the partner's credentials and an integration of that partner. */
export interface Webhook {
  partnerAppId: number;
  integration: IntegrationRow;
}

export interface Page {
  top: number;
  skip: number;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const NOT_PUBLIC = 'must be an https URL whose host is a public address (loopback, private, link-local and other internal addresses are refused)';

// The same words whatever was wrong, so that neither answer tells which part of a guess was right.
const badCredentials = () => new DomainError('unauthorized', 'client_id or client_secret is missing or not valid');
const noWebhook = () => new DomainError('not_found', 'no such webhook');
const noIntegration = (id: number) => new DomainError('not_found', `integration ${id} was not found`);

function absoluteHttpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

const blankToNull = (value: string | null | undefined) => (value === undefined || value === null || value.trim() === '' ? null : value.trim());

function toIntegration(row: IntegrationRow): IntegrationRecord {
  return {
    id: row.id,
    userId: row.user_id,
    webhookGuid: row.webhook_guid,
    partnerAppId: row.partner_app_id,
    name: row.name,
    active: row.is_active === 1,
    label: row.label,
    custom: row.is_custom === 1,
    partnerUserName: row.user_name,
    createdDate: row.created_at,
  };
}

/**
 * Section 4.12: webhook integrations, notifications posted to and read from a webhook, and push
 * endpoints. Config calls carry a user's token and the partner's credentials; webhook calls carry
 * the partner's credentials only, the guid standing for the user.
 */
export class NotificationService {
  constructor(
    private readonly repository: NotificationRepository,
    private readonly partners: PartnerVerifier,
    private readonly clock: Clock,
    private readonly links: Links,
    /** Wakes the push dispatcher once a notification has committed. */
    private readonly afterCommit: () => void = () => undefined,
    /** Where push endpoints may point (PUSH_ALLOW_PRIVATE_NETWORKS). */
    private readonly addresses: AddressPolicy = { allowPrivate: false },
  ) {}

  private async partner(credentials: PartnerCredentials) {
    try {
      return await this.partners.verifyPartner(credentials.clientId, credentials.clientSecret);
    } catch (error) {
      if (error instanceof DomainError && error.code === 'unauthorized') throw badCredentials();
      throw error;
    }
  }

  /** Config calls: the partner's credentials, and a token of a user the partner serves. */
  private async partnerFor(principal: Principal, credentials: PartnerCredentials) {
    const app = await this.partner(credentials);
    if (app.firm_id !== principal.firmId) throw new DomainError('forbidden', 'this partner application does not serve the user\'s firm');
    if (principal.clientId !== null && principal.clientId !== app.id) {
      throw new DomainError('forbidden', 'the token was issued to another partner application');
    }
    return app;
  }

  /** The caller's own integration with this partner, or a 404 alike for every other case. */
  private async ownIntegration(principal: Principal, partnerAppId: number, integrationId: number) {
    const row = await this.repository.integrationById(principal.firmId, integrationId);
    if (!row || row.user_id !== principal.userId || row.partner_app_id !== partnerAppId) throw noIntegration(integrationId);
    return row;
  }

  async createIntegration(principal: Principal, credentials: PartnerCredentials, input: { partnerAppId: number }): Promise<{ record: IntegrationRecord; created: boolean }> {
    const app = await this.partnerFor(principal, credentials);
    if (input.partnerAppId !== app.id) {
      throw validationFailed([{ field: 'partnerAppId', message: 'must be the client_id of the calling partner application' }]);
    }
    const existing = await this.repository.integrationOf(principal.userId, app.id);
    if (existing) return { record: toIntegration(existing), created: false };
    const created = await this.repository.insertIntegration({
      firmId: principal.firmId,
      userId: principal.userId,
      partnerAppId: app.id,
      guid: randomUUID(),
      name: app.name,
      label: app.name,
      now: isoNow(this.clock),
    });
    // A concurrent call may have won the insert: its integration is the one.
    const row = await this.repository.integrationOf(principal.userId, app.id);
    if (!row) throw new Error('integration vanished after insert');
    return { record: toIntegration(row), created };
  }

  /** Credentials first, then the guid: a wrong secret is a 401 whatever the guid. */
  async webhook(credentials: PartnerCredentials, guid: string): Promise<Webhook> {
    const app = await this.partner(credentials);
    if (!GUID.test(guid)) throw noWebhook();
    const row = await this.repository.integrationByGuid(guid.toLowerCase());
    if (!row || row.partner_app_id !== app.id || row.is_active !== 1 || row.user_active !== 1) throw noWebhook();
    return { partnerAppId: app.id, integration: row };
  }

  async post(webhook: Webhook, input: NotificationInput): Promise<NotificationRead> {
    const problems: FieldProblem[] = [];
    const subject = input.Subject.trim();
    const body = input.Body.trim();
    if (subject === '') problems.push({ field: 'Subject', message: 'must not be blank' });
    if (body === '') problems.push({ field: 'Body', message: 'must not be blank' });
    const url = blankToNull(input.Url);
    if (url !== null && !absoluteHttpUrl(url)) problems.push({ field: 'Url', message: 'must be an absolute http or https URL' });
    if (problems.length > 0) throw validationFailed(problems);
    const { integration } = webhook;
    const id = await this.repository.transaction((repository) =>
      repository.insert(
        {
          firmId: integration.firm_id,
          userId: integration.user_id,
          integrationId: integration.id,
          partnerAppId: webhook.partnerAppId,
          subject,
          body,
          url,
          categoryName: blankToNull(input.CategoryName),
          actionName: input.ActionName ?? null,
        },
        isoNow(this.clock),
      ),
    );
    this.afterCommit();
    const row = await this.repository.notification(id);
    if (!row) throw new Error(`notification ${id} vanished after insert`);
    return presentNotification(this.links, row);
  }

  /** Everything the webhook's user was notified of, by any partner or the platform, newest first. */
  async list(webhook: Webhook, page: Page & { sinceId?: number }): Promise<{ items: NotificationRead[]; total: number }> {
    const { rows, total } = await this.repository.notifications(webhook.integration.user_id, page);
    return { items: rows.map((row) => presentNotification(this.links, row)), total };
  }

  /** Registers (or replaces) the integration's push endpoint; the signing secret is shown once. */
  async registerEndpoint(principal: Principal, credentials: PartnerCredentials, integrationId: number, input: { url: string }): Promise<EndpointRecord> {
    const app = await this.partnerFor(principal, credentials);
    const integration = await this.ownIntegration(principal, app.id, integrationId);
    const url = absoluteHttpUrl(input.url.trim());
    if (!url) throw validationFailed([{ field: 'url', message: 'must be an absolute https URL' }]);
    if (url.username || url.password) throw validationFailed([{ field: 'url', message: 'must not carry a user name or password' }]);
    if (!this.addresses.allowPrivate) {
      // The WHATWG parser has already turned 127.1, 2130706433 and 0x7f.1 into 127.0.0.1.
      if (url.protocol !== 'https:' || !(await hostAllowed(url.hostname, this.addresses))) {
        throw validationFailed([{ field: 'url', message: NOT_PUBLIC }]);
      }
    } else if (url.protocol !== 'https:' && !LOOPBACK.has(url.hostname)) {
      throw validationFailed([{ field: 'url', message: 'must use https (plain http only on 127.0.0.1, ::1 or localhost)' }]);
    }
    const secret = newSigningSecret();
    const now = isoNow(this.clock);
    await this.repository.setEndpoint(integration.id, url.href, secret, now);
    return { integrationId: integration.id, url: url.href, signingSecret: secret, registeredDate: now };
  }

  /** Stops pushing; deliveries not yet made end failed. */
  async removeEndpoint(principal: Principal, credentials: PartnerCredentials, integrationId: number): Promise<void> {
    const app = await this.partnerFor(principal, credentials);
    const integration = await this.ownIntegration(principal, app.id, integrationId);
    await this.repository.setEndpoint(integration.id, null, null, null);
  }

  async deliveries(principal: Principal, credentials: PartnerCredentials, integrationId: number, page: Page): Promise<{ items: DeliveryRecord[]; total: number }> {
    const app = await this.partnerFor(principal, credentials);
    const integration = await this.ownIntegration(principal, app.id, integrationId);
    const { rows, total } = await this.repository.deliveries(integration.id, page);
    return {
      items: rows.map((row) => ({
        id: row.id,
        notificationId: row.notification_id,
        status: row.status,
        attempts: row.attempts,
        lastError: row.last_error,
        deliveredAt: row.delivered_at,
        createdDate: row.created_at,
      })),
      total,
    };
  }
}
