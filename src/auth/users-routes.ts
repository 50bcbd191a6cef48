import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdSchema } from '../http/ids.js';
import { COUNTED_PAGE_HEADERS, PageQuery, sendPageHeaders } from '../http/paging.js';
import { responses } from '../http/problem.js';
import { principalOf } from './hook.js';
import { Privilege } from './privileges.js';
import { MIN_PASSWORD_LENGTH, type UserAdminService } from './users.js';
import type { BasicLoginSettings } from './basic-login-setting.js';
import { Nullable } from '../http/nullable.js';

const tags = ['Users'];
const admin = { privilege: Privilege.PlatformAdmin };
const User = Type.Object({
  id: Type.Integer(),
  userName: Type.String(),
  displayName: Type.String(),
  kind: Type.Union([Type.Literal('user'), Type.Literal('api'), Type.Literal('service')]),
  isActive: Type.Boolean(),
});
const UserParams = Type.Object({ userId: IdSchema() });

/** User administration for a firm's administrators: who can sign in, and with which password. */
const BasicLogin = Type.Object({
  enabled: Type.Boolean({ description: 'Whether API and service users may log in with Basic credentials alone' }),
  partnerAppId: Nullable(Type.Integer(), { description: 'The partner app those logins are issued through' }),
  partnerAppName: Nullable(Type.String()),
});

export const userRoutes: FastifyPluginAsyncTypebox<{ users: UserAdminService; basicLogin: BasicLoginSettings }> = async (app, { users, basicLogin }) => {
  app.get(
    '/Security/Firm/BasicLogin',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Whether the firm lets its API users log in with Basic credentials alone (off by default)', description: 'Reads the firm\'s Basic-only login setting: whether API and service users may log in with Basic credentials alone, and the partner application such logins go through.',
        response: responses({ 200: BasicLogin }, [401, 403]),
      },
    },
    async (request) => basicLogin.get(principalOf(request).firmId),
  );
  app.put(
    '/Security/Firm/BasicLogin',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Turns Basic-only login on (through the given partner app, or the firm\'s oldest active one) or off',
        description:
          'On, `GET /v1/security/token` with only `Authorization: Basic` logs an API or service user of this firm in through the partner app, ' +
          'as clients written for the source system expect. The password then stands alone: anyone holding it can log in without the partner secret.',
        body: Type.Object({ enabled: Type.Boolean(), partnerAppId: Type.Optional(IdSchema()) }),
        response: responses({ 200: BasicLogin }, [400, 401, 403]),
      },
    },
    async (request) => basicLogin.set(principalOf(request).firmId, request.body),
  );
  app.get(
    '/Security/Users',
    { config: admin, schema: { tags, summary: 'The firm\'s users, active or not',
        description: 'The logins of your firm with their kind (person, API user or service account) and whether they may sign in, in id order. Paged with `$top` (100 by default, at most 1000) and `$skip`; X-Total-Count carries how many there are, and a `Link` header names the next page while there is one.',
        querystring: PageQuery,
        response: responses({ 200: { ...Type.Array(User), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403]) } },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await users.list(principalOf(request).firmId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  for (const [action, active] of [['Deactivate', false], ['Reactivate', true]] as const) {
    app.put(
      `/Security/Users/:userId/Action/${action}`,
      {
        config: admin,
        schema: {
          tags,
          summary: active
            ? 'Lets a deactivated user sign in again (tokens revoked at deactivation stay revoked)'
            : 'Stops a user from signing in and revokes every token the user holds, on every process at once',
          description: active
            ? 'Gives a deactivated user access again: the user may sign in and log in, and new tokens work. Reactivating an active user changes nothing.'
            : 'Takes a user\'s access away at once: sign-in and login are refused and every access and refresh token the user holds stops working on every server. An administrator cannot deactivate their own user (409).',
          params: UserParams,
          response: responses({ 200: User }, [400, 401, 403, 404, 409]),
        },
      },
      async (request) => users.setActive(principalOf(request), request.params.userId, active),
    );
  }
  app.put(
    '/Security/Users/:userId/Password',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Resets a user\'s password (a generated one is returned once when none is sent) and ends the user\'s sessions',
        description: 'Sets a new password for the user. Send one, or send none and a strong one is generated and returned in this answer only. Every token the user holds stops working.',
        params: UserParams,
        body: Type.Object({ password: Type.Optional(Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 200 })) }),
        response: responses({ 200: Type.Object({ user: User, password: Type.Optional(Type.String()) }) }, [400, 401, 403, 404]),
      },
    },
    async (request) => users.resetPassword(principalOf(request).firmId, request.params.userId, request.body.password),
  );
};
