import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { COUNTED_PAGE_HEADERS, sendPageHeaders } from '../http/paging.js';
import { responses } from '../http/problem.js';
import { principalOf } from '../auth/hook.js';
import {
  DeliveryRecord,
  EndpointInput,
  EndpointRecord,
  IntegrationInput,
  IntegrationParams,
  IntegrationRecord,
  ListQuery,
  NotificationInput,
  NotificationRead,
  PageQuery,
  WebhookParams,
} from './schemas.js';
import type { NotificationService, PartnerCredentials, Webhook } from './service.js';

const tags = ['Notifications'];
const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};
const credentialsOf = (request: FastifyRequest): PartnerCredentials => ({ clientId: header(request, 'client_id'), clientSecret: header(request, 'client_secret') });

/** Token plus the partner's credentials; any valid token (the spec names no privilege). */
const config = { tokenOnly: true } as const;
// Section 5.6: the webhook paths take the partner's credentials and no token; they check them
// themselves before the body is read, so a bad secret is a 401 whatever the body.
const webhookConfig = { public: true } as const;
const credentialHeaders = Type.Object({
  client_id: Type.Optional(Type.String({ description: 'The partner\'s client_id' })),
  client_secret: Type.Optional(Type.String({ description: 'The partner\'s client_secret' })),
});

/** Section 4.12 and the push endpoints (docs/notifications.md). */
export const notificationRoutes: FastifyPluginAsyncTypebox<{ notifications: NotificationService }> = async (app, { notifications }) => {
  const webhooks = new WeakMap<FastifyRequest, Webhook>();
  const resolveWebhook = async (request: FastifyRequest) => {
    const { webhookGuid } = request.params as { webhookGuid: string };
    webhooks.set(request, await notifications.webhook(credentialsOf(request), webhookGuid));
  };
  const webhookOf = (request: FastifyRequest) => webhooks.get(request)!;

  app.post(
    '/Notify/Config/Integrations',
    {
      config,
      schema: {
        tags,
        summary: 'Create the calling user\'s webhook integration with the calling partner (or answer the existing one)',
        description: 'Gives the calling user an integration with the calling partner application: its webhookGuid is the address partners post notifications to for this user. Calling again answers the same integration.',
        headers: credentialHeaders,
        body: IntegrationInput,
        // Section 7: 200 is success; a created integration and an existing one answer alike.
        response: responses({ 200: IntegrationRecord }, [401, 403]),
      },
    },
    async (request, reply) => {
      const { record } = await notifications.createIntegration(principalOf(request), credentialsOf(request), request.body);
      return reply.send(record);
    },
  );

  app.put(
    '/Notify/Config/Integrations/:integrationId/Endpoint',
    {
      config,
      schema: {
        tags,
        summary: 'Register (or replace) the push endpoint of the caller\'s integration; answers its signing secret, once',
        description: 'Asks the platform to push the user\'s new notifications to an https URL of yours. The answer carries the secret each push is signed with; it is shown this once, so keep it. Registering again replaces the URL and the secret.',
        headers: credentialHeaders,
        params: IntegrationParams,
        body: EndpointInput,
        response: responses({ 200: EndpointRecord }, [401, 403, 404]),
      },
    },
    async (request) => notifications.registerEndpoint(principalOf(request), credentialsOf(request), request.params.integrationId, request.body),
  );

  app.delete(
    '/Notify/Config/Integrations/:integrationId/Endpoint',
    {
      config,
      schema: { tags, summary: 'Stop pushing to the integration\'s endpoint',
        description: 'Removes the push endpoint; notifications are still kept and can be read. 204 with no body.', headers: credentialHeaders, params: IntegrationParams, response: responses({ 204: Type.Null() }, [401, 403, 404]) },
    },
    async (request, reply) => {
      await notifications.removeEndpoint(principalOf(request), credentialsOf(request), request.params.integrationId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/Notify/Config/Integrations/:integrationId/Deliveries',
    {
      config,
      schema: {
        tags,
        summary: 'Push deliveries of the integration, newest first; the total is in X-Total-Count',
        description: 'Each notification pushed (or to be pushed) to the integration\'s endpoint: pending, delivered or failed, the attempts made and the last error. Paged with `$top` (100 by default, at most 500) and `$skip`; X-Total-Count always carries how many deliveries there are, and a `Link` header names the next page while there is one.',
        headers: credentialHeaders,
        params: IntegrationParams,
        querystring: PageQuery,
        response: responses({ 200: { ...Type.Array(DeliveryRecord), ...COUNTED_PAGE_HEADERS } }, [401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { items, total } = await notifications.deliveries(principalOf(request), credentialsOf(request), request.params.integrationId, {
        top: request.query.$top,
        skip: request.query.$skip,
      });
      sendPageHeaders(request, reply, { top: request.query.$top, skip: request.query.$skip, returned: items.length, total });
      return items;
    },
  );

  app.post(
    '/Notify/Users/:webhookGuid/Notifications',
    {
      config: webhookConfig,
      onRequest: resolveWebhook,
      schema: {
        tags,
        summary: 'Post a notification to the webhook\'s user; answers it as stored',
        description: 'A partner posts a notification (Subject, Body, an optional category, link and action) to the user the webhookGuid belongs to. Needs the partner\'s client_id and client_secret headers, not a user token.',
        security: [],
        headers: credentialHeaders,
        params: WebhookParams,
        body: NotificationInput,
        response: responses({ 200: NotificationRead }, [401, 404]),
      },
    },
    async (request) => notifications.post(webhookOf(request), request.body),
  );

  app.get(
    '/Notify/Users/:webhookGuid/Notifications',
    {
      config: webhookConfig,
      onRequest: resolveWebhook,
      schema: {
        tags,
        summary: 'The webhook user\'s notifications from every partner and the platform, newest first; the total is in X-Total-Count',
        description: 'Everything sent to the user the webhookGuid belongs to, from any partner and from the platform itself (finished rebalances, expired set aside cash), newest first. Paged with `$top` (100 by default, at most 500) and `$skip`; `sinceId` keeps the newer ones. X-Total-Count always carries how many match, and a `Link` header names the next page while there is one.',
        security: [],
        headers: credentialHeaders,
        params: WebhookParams,
        querystring: ListQuery,
        response: responses({ 200: { ...Type.Array(NotificationRead), ...COUNTED_PAGE_HEADERS } }, [401, 404]),
      },
    },
    async (request, reply) => {
      const { items, total } = await notifications.list(webhookOf(request), { top: request.query.$top, skip: request.query.$skip, sinceId: request.query.sinceId });
      sendPageHeaders(request, reply, { top: request.query.$top, skip: request.query.$skip, returned: items.length, total });
      return items;
    },
  );
};
