import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import type { AuthService } from '../../auth/service.js';

const RebalancerToken = Type.Object({
  eclipse_access_token: Type.String({ description: 'The rebalancer token; send it as Authorization: Session <token>' }),
  access_token: Type.String({ description: 'The same token under the standard name' }),
  token_type: Type.String(),
  expires_in: Type.Number(),
});

export const rebalancerAuthRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  app.get(
    '/v1/admin/token',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'A rebalancer token for the holder of a platform token (Authorization: Session) or of Basic credentials',
        description: 'Trades a platform token (`Authorization: Session <token>`) or Basic credentials for a token of the rebalancing application; send that one as `Authorization: Session <token>` on every other call here.',
        headers: Type.Object({ authorization: Type.Optional(Type.String()) }),
        response: responses({ 200: RebalancerToken }, [401, 429]),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const token = await auth.rebalancerToken({ authorization: request.headers.authorization, address: request.ip });
      return { eclipse_access_token: token.access_token, access_token: token.access_token, token_type: 'Session', expires_in: token.expires_in };
    },
  );
};
