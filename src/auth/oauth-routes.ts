import cookie from '@fastify/cookie';
import { HtmlPage } from '../http/media.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AuthorizePageError } from './oauth-errors.js';
import type { OAuthService } from './oauth-service.js';
import { sendPage as page } from '../http/html.js';
import { codePage, consentPage, errorPage, signInPage } from './pages.js';

const FLOW_COOKIE = 'wealth_oauth';
const Html = HtmlPage();
const tags = ['Authentication'];


function failure(reply: FastifyReply, error: unknown) {
  if (error instanceof AuthorizePageError) return page(reply, error.status, errorPage(error.message));
  throw error;
}

/** The authorization server's metadata (RFC 8414), for clients that discover endpoints. */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/`,
    token_endpoint: `${issuer}/v1/Security/Token`,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
  };
}

/** The issuer is PUBLIC_URL and the base path: never the request's Host header, which the caller writes. */
export const issuerOf = (publicUrl: string, prefix: string) => `${publicUrl}${prefix}`;

/** Section 5.3's sign-in pages at the unversioned `{base_url}/oauth/`. */
export const oauthRoutes: FastifyPluginAsyncTypebox<{ oauth: OAuthService; basePath: string; publicUrl: string }> = async (app, { oauth, basePath, publicUrl }) => {
  await app.register(cookie);
  const isPublic = { public: true };
  const cookieOptions = (request: FastifyRequest) => ({
    path: `${basePath}/oauth`,
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
  });
  const Form = Type.Object({
    csrf: Type.Optional(Type.String()),
    username: Type.Optional(Type.String()),
    password: Type.Optional(Type.String()),
    decision: Type.Optional(Type.String()),
  });

  app.get(
    '/oauth/',
    {
      config: isPublic,
      schema: {
        tags,
        summary: 'Start a user sign-in (authorization-code flow); shows the sign-in page',
        description: 'Where a partner application sends a person\'s browser to sign in: `response_type=code`, the application\'s `client_id`, a registered `redirect_uri`, a `state` you will get back, and optionally a PKCE `code_challenge` with `code_challenge_method=S256`. Wrong or missing parameters show an error page with 401 and never redirect.',
        querystring: Type.Object({
          response_type: Type.Optional(Type.String()),
          redirect_uri: Type.Optional(Type.String()),
          client_id: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          code_challenge: Type.Optional(Type.String()),
          code_challenge_method: Type.Optional(Type.String()),
        }),
        // Section 7: wrong, missing or empty parameters of the oauth page are a 401 (shown as a page).
        response: { 200: Html, 400: Html, 401: Html },
      },
    },
    async (request, reply) => {
      const q = request.query;
      try {
        const flow = await oauth.startFlow({
          clientId: q.client_id,
          responseType: q.response_type,
          redirectUri: q.redirect_uri,
          state: q.state,
          codeChallenge: q.code_challenge,
          codeChallengeMethod: q.code_challenge_method,
        });
        reply.setCookie(FLOW_COOKIE, flow.flowId, cookieOptions(request));
        return page(reply, 200, signInPage({ appName: flow.appName, csrf: flow.csrf }));
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  app.post(
    '/oauth/signin',
    { config: isPublic, schema: { tags, summary: 'Sign-in form post',
        description: 'The sign-in page\'s form: user name, password and the page\'s CSRF token. A wrong password shows the page again with a message (401); too many failures lock the user name for a while. Success shows the consent page.', body: Form, response: { 200: Html, 400: Html, 401: Html, 403: Html } } },
    async (request, reply) => {
      const csrf = request.body.csrf;
      try {
        const result = await oauth.signIn({
          flowId: request.cookies[FLOW_COOKIE],
          csrf,
          userName: request.body.username ?? '',
          password: request.body.password ?? '',
          address: request.ip,
        });
        if (result.error) return page(reply, 401, signInPage({ appName: result.appName, csrf: csrf!, error: result.error, userName: request.body.username }));
        return page(reply, 200, consentPage({ appName: result.appName, userName: result.userName!, csrf: csrf! }));
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  app.post(
    '/oauth/consent',
    { config: isPublic, schema: { tags, summary: 'Consent form post; redirects to the client',
        description: 'The consent page\'s form. Allow redirects (302) to the application\'s redirect_uri with `code` and `state`; Deny redirects with `error=access_denied` and `state`.', body: Form, response: { 302: Type.Null(), 400: Html, 403: Html } } },
    async (request, reply) => {
      try {
        const target = await oauth.decide({ flowId: request.cookies[FLOW_COOKIE], csrf: request.body.csrf, allow: request.body.decision === 'allow' });
        reply.clearCookie(FLOW_COOKIE, cookieOptions(request));
        return reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store').redirect(target, 302);
      } catch (error) {
        return failure(reply, error);
      }
    },
  );

  app.get(
    '/oauth/callback',
    {
      config: isPublic,
      schema: {
        tags,
        summary: 'The demo partner\'s redirect target: shows the authorization code and the command that exchanges it',
        description:
          'The seeded demo partner application sends the browser back here after the consent page, so the authorization-code flow can be tried with a browser and curl alone. The page shows `code` and `state` as received (escaped) and, for a well-formed code, a curl command for the token endpoint. With `error` (the user denied access) it says so. Without either it answers 400.',
        querystring: Type.Object({
          code: Type.Optional(Type.String({ maxLength: 2000, description: 'The authorization code', examples: ['k3Jd9s-V0bq2r7XwYtEe1A'] })),
          state: Type.Optional(Type.String({ maxLength: 2000, description: 'The state your sign-in request sent, returned as it was' })),
          error: Type.Optional(Type.String({ maxLength: 200, description: 'Why no code was issued, e.g. access_denied' })),
          error_description: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: { 200: Html, 400: Html },
      },
    },
    async (request, reply) => {
      const { code, state, error, error_description: errorDescription } = request.query;
      const origin = publicUrl;
      if (code === undefined && error === undefined) {
        return page(reply, 400, errorPage('This address expects a code (or an error) from the sign-in page; none was given.'));
      }
      return page(reply, 200, codePage({ code, state, error, errorDescription, tokenUrl: `${origin}${basePath}/v1/Security/Token`, redirectUri: `${origin}${basePath}/oauth/callback` }));
    },
  );

  // Section 5.3: a versioned oauth path makes browsers show their native login dialog.
  const versioned = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(401)
      .header('WWW-Authenticate', 'Basic realm="wealth"')
      .send({ error: 'invalid_request', error_description: `the sign-in page has no version segment: use ${basePath}/oauth/` });
  const VersionedError = Type.Object({ error: Type.String(), error_description: Type.String() });
  for (const path of ['/v1/oauth', '/v1/oauth/*']) {
    app.get(
      path,
      {
        config: isPublic,
        schema: {
          tags,
          // A path parameter named `*` stops the reference page from rendering: list the bare path only.
          hide: path.endsWith('*'),
          summary: `Not the sign-in page: answers 401 pointing to ${basePath}/oauth/`,
          description: `A versioned sign-in path (\`${basePath}/v1/oauth\` and anything below it) is a mistake a client makes easily; it answers 401 with an OAuth error naming the right page instead of a 404.`,
          response: { 200: VersionedError, 401: VersionedError },
        },
      },
      versioned,
    );
  }

  app.get(
    '/.well-known/oauth-authorization-server',
    { config: isPublic, schema: { tags, summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
        description: 'The sign-in and token endpoints, grant types and PKCE method this service supports, as OAuth clients that discover them expect. Also served at the root under /.well-known/oauth-authorization-server{base path}.', response: { 200: Type.Record(Type.String(), Type.Unknown()) } } },
    async () => authorizationServerMetadata(issuerOf(publicUrl, basePath)),
  );
};
