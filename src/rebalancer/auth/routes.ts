import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { principalOf } from '../../auth/hook.js';
import type { AuthService } from '../../auth/service.js';
import { notFound } from '../../shared/errors.js';
import type { RebalancerUserRepository } from './user-repository.js';
import type { AuthRepository } from '../../auth/repository.js';
import { Nullable } from '../../http/nullable.js';

const RebalancerToken = Type.Object({
  eclipse_access_token: Type.String({ description: 'The rebalancer token; send it as Authorization: Session <token>' }),
  access_token: Type.String({ description: 'The same token under the standard name' }),
  token_type: Type.String(),
  expires_in: Type.Number(),
});

const SignedInUser = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    userLoginId: Type.String({ description: 'The login name' }),
    email: Nullable(Type.String()),
    status: Type.Integer({ minimum: 0, maximum: 1, description: '1 active' }),
    role: Type.Object({ id: Type.Integer(), name: Type.String(), privileges: Type.Array(Type.String(), { description: 'Privileges the role grants' }) }),
    team: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
    firmId: Type.Integer(),
    firmName: Type.String(),
    isDeleted: Type.Integer({ minimum: 0, maximum: 1 }),
    createdOn: Type.String(),
  },
  { examples: [{ id: 66, name: 'Demo Unit', userLoginId: 'demo@firm', email: null, status: 1, role: { id: 1, name: 'Administrator', privileges: ['portfolio.read'] }, team: [], firmId: 1, firmName: 'Firm', isDeleted: 0, createdOn: '2026-01-02T00:00:00.000Z' }] },
);

export const rebalancerAuthRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; accounts: AuthRepository; users: RebalancerUserRepository }> = async (app, { auth, accounts, users }) => {
  app.get(
    '/v1/admin/authorization/user',
    { config: { tokenOnly: true }, schema: { tags: ['Authentication'], summary: 'The user the token belongs to (the source system\'s client reads userLoginId)', description: 'Answers the user the rebalancer token was issued to, including the `userLoginId` the source system\'s client reads to check a login worked.', response: responses({ 200: SignedInUser }, [401]) } },
    async (request) => {
      const principal = principalOf(request);
      const user = await accounts.signedInUser(principal.firmId, principal.userId);
      if (!user) throw notFound('user', principal.userId);
      return {
        id: user.id,
        name: user.display_name,
        userLoginId: user.user_name,
        email: user.email,
        status: user.is_active,
        role: { id: user.role_id, name: user.role_name, privileges: [...principal.privileges].sort() },
        team: await users.teams(principal.firmId, principal.userId),
        firmId: user.firm_id,
        firmName: user.firm_name,
        isDeleted: 0,
        createdOn: user.created_at,
      };
    },
  );
  app.get(
    '/v1/admin/token',
    {
      config: { public: true },
      schema: {
        tags: ['Authentication'],
        summary: 'A rebalancer token for the holder of a platform token (Authorization: Session) or of Basic credentials',
        description: 'Trades a platform token (`Authorization: Session <token>`) or a Basic login for a token of the rebalancing application; send that one as `Authorization: Session <token>` on every other call here. A token from a platform token belongs to the same session: it expires no later than the platform token and is revoked with it. A Basic login follows the platform\'s rules exactly (`GET {base_url}/v1/Security/Token`): the partner\'s `client_id` and `client_secret` headers, or, for API and service users of a firm that turned Basic-alone login on, Basic credentials alone.',
        headers: Type.Object({
          authorization: Type.Optional(Type.String({ description: 'Session <platform token>, or Basic base64(user:password)' })),
          client_id: Type.Optional(Type.String({ description: 'The partner\'s client id (with Basic)' })),
          client_secret: Type.Optional(Type.String({ description: 'The partner\'s client secret (with Basic)' })),
        }),
        response: responses({ 200: RebalancerToken }, [401, 429]),
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const { authorization, client_id: clientId, client_secret: clientSecret } = request.headers;
      const token = await auth.rebalancerToken({ authorization, clientId, clientSecret, address: request.ip });
      return { eclipse_access_token: token.access_token, access_token: token.access_token, token_type: 'Session', expires_in: token.expires_in };
    },
  );
};
