import { Type, type Static } from 'typebox';
import { Skip, Top } from '../http/paging.js';
import { IdSchema } from '../http/ids.js';
import { Nullable } from '../http/nullable.js';

/** Lengths a notification's fields may have (docs/notifications.md). */
export const LIMITS = { subject: 200, body: 4000, categoryName: 100, url: 2000 } as const;

const nullableText = (maxLength: number, description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, description });

/** Section 4.12's notification body; field names as the spec writes them. */
export const NotificationInput = Type.Object({
  Subject: Type.String({ minLength: 1, maxLength: LIMITS.subject }),
  Body: Type.String({ minLength: 1, maxLength: LIMITS.body }),
  CategoryName: Type.Optional(nullableText(LIMITS.categoryName, 'Groups notifications; null or empty for none')),
  Url: Type.Optional(nullableText(LIMITS.url, 'A contextual link: an absolute http or https URL')),
  ActionName: Type.Optional(Type.Unsafe<'download' | null>({ type: ['string', 'null'], enum: ['download', null], description: 'Only `download` or null' })),
});
export type NotificationInput = Static<typeof NotificationInput>;

/** Section 2.18's notification read shape. */
export const NotificationRead = Type.Object({
  id: Type.Integer(),
  firmId: Type.Integer(),
  partnerUserName: Type.String({ description: 'The user name of the user the notification is for' }),
  createdDate: Type.String({ format: 'date-time' }),
  subject: Type.String(),
  body: Type.String(),
  url: Nullable(Type.String()),
  status: Type.Integer({ description: '0 unread (the only status so far)' }),
  partnerAppName: Type.String({ description: 'The posting partner application, or `Platform`' }),
  categoryName: Nullable(Type.String()),
  integrationId: Nullable(Type.Integer(), { description: 'The integration it was posted through; null for the platform' }),
  actionName: Nullable(Type.Literal('download')),
});
export type NotificationRead = Static<typeof NotificationRead>;

/** Section 2.18's integration (webhook) record. */
export const IntegrationRecord = Type.Object({
  id: Type.Integer(),
  userId: Type.Integer(),
  webhookGuid: Type.String({ format: 'uuid' }),
  partnerAppId: Type.Integer(),
  name: Type.String(),
  active: Type.Boolean(),
  label: Nullable(Type.String()),
  custom: Type.Boolean(),
  partnerUserName: Type.String(),
  createdDate: Type.String({ format: 'date-time' }),
});
export type IntegrationRecord = Static<typeof IntegrationRecord>;

export const IntegrationInput = Type.Object({ partnerAppId: IdSchema({ description: 'The client_id of the calling partner application' }) });

export const EndpointInput = Type.Object({
  url: Type.String({ minLength: 1, maxLength: LIMITS.url, description: 'HTTPS; plain http only on 127.0.0.1, ::1 or localhost' }),
});

export const EndpointRecord = Type.Object({
  integrationId: Type.Integer(),
  url: Type.String(),
  signingSecret: Type.String({ description: 'Shown only in this answer; a new registration issues a new one' }),
  registeredDate: Type.String({ format: 'date-time' }),
});
export type EndpointRecord = Static<typeof EndpointRecord>;

export const DeliveryRecord = Type.Object({
  id: Type.Integer(),
  notificationId: Type.Integer(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  attempts: Type.Integer(),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Type.String({ format: 'date-time' })),
  createdDate: Type.String({ format: 'date-time' }),
});
export type DeliveryRecord = Static<typeof DeliveryRecord>;

export const ListQuery = Type.Object({
  $top: Top(500),
  $skip: Skip(),
  sinceId: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647, description: 'Only notifications with a larger id (for polling)' })),
});

export const PageQuery = Type.Object({
  $top: Top(500),
  $skip: Skip(),
});

export const WebhookParams = Type.Object({ webhookGuid: Type.String() });
export const IntegrationParams = Type.Object({ integrationId: IdSchema() });
