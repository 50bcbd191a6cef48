import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { OAuthError } from './oauth-errors.js';
import type { OAuthService } from './oauth-service.js';
import { TokenResponse } from './schemas.js';
import { parseBasic, type AuthService } from './service.js';

const OAuthErrorBody = Type.Object({ error: Type.String(), error_description: Type.String() }, { description: 'OAuth error: a code such as invalid_grant, and what went wrong in words' });
// Section 5.3 lets the code exchange carry its fields in the query; named here so the document (and
// the typed client) shows them. Other parameters are passed through to the OAuth checks.
const param = (description: string) => Type.Optional(Type.String({ description }));
const Params = Type.Object(
  {
    grant_type: param('authorization_code or refresh_token'),
    code: param('The authorization code from the redirect'),
    redirect_uri: param('The redirect URI of the authorization request, URL-encoded'),
    response_type: param('code'),
    client_id: param('The partner\'s client id'),
    client_secret: param('The partner\'s client secret: in the query only with grant_type=authorization_code (otherwise 400); headers or a form body elsewhere'),
  },
  { additionalProperties: true },
);
const TokenHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Basic user:password (login), Bearer <refresh token>, or Basic client_id:client_secret with grant_type' })),
  client_id: Type.Optional(Type.String()),
  client_secret: Type.Optional(Type.String()),
});
const schema = {
  tags: ['Authentication'],
  headers: TokenHeaders,
  response: { 200: TokenResponse, 400: OAuthErrorBody, 401: OAuthErrorBody, 429: OAuthErrorBody },
};

/**
 * Section 5.3-5.5 send the same parameters as query parameters, headers or a form body. A
 * parameter is looked up in the body, then the query, then the headers.
 */
function parameters(request: FastifyRequest) {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
  const query = request.query as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const get = (name: string) => text(body[name]) ?? text(query[name]) ?? text(request.headers[name.toLowerCase()]);
  const authorization = text(request.headers.authorization) ?? text(body.Authorization) ?? text(body.authorization);
  return { get, authorization };
}

/**
 * Section 5.3 answers 401 when the query form carries redirect_uri without URL-encoding it. An
 * encoded URI has no raw ':' or '/' in the query string; a raw one would also lose any query of its
 * own to the token request's parameters. Read from the raw URL: the parsed query is decoded already.
 */
function redirectUriUnencodedInQuery(request: FastifyRequest): boolean {
  const search = request.raw.url?.split('?').slice(1).join('?') ?? '';
  const raw = search.split('&').find((pair) => pair.split('=')[0]?.toLowerCase() === 'redirect_uri');
  return raw !== undefined && /[:/?]/.test(raw.slice(raw.indexOf('=') + 1));
}

/** RFC 6749 2.3.1 form-encodes client_secret_basic's parts; a malformed escape is the client's error. */
function formDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new OAuthError('invalid_client', 'Authorization: Basic client credentials are not valid form-urlencoded text');
  }
}

/**
 * Secrets in a URL end up in proxy logs, browser history and Referer headers. Section 5.4 sends a
 * refresh token in a header or a form body and section 5.5 the client secret in headers; only the
 * code exchange of section 5.3 has a query form, so only it may carry client_secret there.
 */
function refuseSecretsInQuery(request: FastifyRequest, grantType: string | undefined) {
  const query = request.query as Record<string, unknown>;
  const has = (name: string) => Object.keys(query).some((key) => key.toLowerCase() === name);
  if (has('refresh_token')) {
    throw new OAuthError('invalid_request', 'refresh_token must not be sent in the URL: send it as Authorization: Bearer <refresh token> or as refresh_token in a form body', 400);
  }
  if (has('client_secret') && grantType !== 'authorization_code') {
    throw new OAuthError('invalid_request', 'client_secret must not be sent in the URL except with grant_type=authorization_code: send client_id and client_secret as headers or in a form body', 400);
  }
}

async function token(auth: AuthService, oauth: OAuthService, request: FastifyRequest, reply: FastifyReply) {
  const { get, authorization } = parameters(request);
  try {
    const grantType = get('grant_type');
    refuseSecretsInQuery(request, grantType);
    let clientId = get('client_id');
    let clientSecret = get('client_secret');
    // RFC 6749 2.3.1 client_secret_basic: with a grant type, Basic carries the client, not a user.
    const basic = parseBasic(authorization);
    if (grantType && basic && !clientId) {
      clientId = formDecoded(basic.userName);
      clientSecret = formDecoded(basic.password);
    }
    if (grantType === 'authorization_code') {
      if (redirectUriUnencodedInQuery(request)) {
        throw new OAuthError('invalid_request', 'redirect_uri in the query must be URL-encoded (or send it in a form body)');
      }
      return await oauth.exchangeCode({
        code: get('code'),
        clientId,
        clientSecret,
        redirectUri: get('redirect_uri'),
        responseType: get('response_type'),
        codeVerifier: get('code_verifier'),
      });
    }
    const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    if (grantType === 'refresh_token' || (!grantType && bearer)) {
      return await oauth.refresh({ refreshToken: get('refresh_token') ?? bearer, clientId, clientSecret });
    }
    if (grantType) throw new OAuthError('unsupported_grant_type', `grant_type must be authorization_code or refresh_token, got "${grantType}"`);
    if (request.method === 'GET' && basic) {
      // Awaited here so that its OAuth errors reach the catch below.
      return await auth.basicLogin({ authorization, clientId, clientSecret, address: request.ip });
    }
    throw new OAuthError('invalid_request', 'grant_type is missing or empty (or send Basic credentials with GET for an API login)');
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(Math.ceil(error.retryAfterSeconds)));
    reply.header('Cache-Control', 'no-store');
    return reply.status(error.status).send({ error: error.error, error_description: error.description });
  }
}

export const authRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService; oauth: OAuthService }> = async (app, { auth, oauth }) => {
  app.get(
    '/v1/Security/Token',
    {
      config: { public: true },
      schema: { ...schema, summary: 'Log in with Basic credentials (API users), or refresh with Authorization: Bearer <refresh token>',
        description:
          'An API user sends `Authorization: Basic base64(user:password)` with the partner application\'s `client_id` and `client_secret` headers and receives an access token (no refresh token: log in again when it expires). A holder of a refresh token may send `Authorization: Bearer <refresh token>` instead to get a new pair. Too many failed logins of one user name answer 429 with Retry-After.',
        querystring: Params,
        response: { ...schema.response, 200: Type.Object(TokenResponse.properties, { examples: [{ access_token: '3q2-7x9KfP0aLwRzV1sYbQ', token_type: 'Bearer', expires_in: 36000 }] }) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return token(auth, oauth, request, reply);
    },
  );
  app.post(
    '/v1/Security/Token',
    {
      config: { public: true },
      schema: {
        ...schema,
        // No body schema: the body is optional (parameters may come as query or headers) and form-encoded.
        summary: 'Exchange an authorization code for tokens, or refresh them; parameters as form body, query or headers',
        description:
          'With `grant_type=authorization_code`: send the `code` the sign-in page gave, the same `redirect_uri` (URL-encoded), `client_id`, `client_secret`, and `code_verifier` when the sign-in carried a `code_challenge`. A code works once and for a minute by default. With `grant_type=refresh_token`: send `refresh_token`, `client_id` and `client_secret`; the answer carries a new refresh token and the old one stops working. Errors are OAuth error bodies with 401.',
        response: { ...schema.response, 200: Type.Object(TokenResponse.properties, { examples: [{ access_token: '3q2-7x9KfP0aLwRzV1sYbQ', token_type: 'Bearer', expires_in: 36000, refresh_token: 'Wm8r1T0cVqN6yHs2LxK4pA' }] }) },
        querystring: Params,
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return token(auth, oauth, request, reply);
    },
  );
};
