import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/problem.js';
import { BasicLoginHeaders, TokenResponseSchema } from './schemas.js';
import type { AuthService } from './service.js';

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    '/v1/Security/Token',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'Basic login: exchange an API user\'s credentials for an access token (section 5.5)',
        headers: BasicLoginHeaders,
        response: responses({ 200: TokenResponseSchema }, [401]),
      },
    },
    async (request) =>
      auth.basicLogin({
        authorization: request.headers.authorization,
        clientId: request.headers.client_id,
        clientSecret: request.headers.client_secret,
      }),
  );
};
