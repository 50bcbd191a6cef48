import type { FastifyInstance } from 'fastify';

/** A year: what browsers' preload lists ask for; subdomains are the operator's to decide, not ours. */
const HSTS = 'max-age=31536000';

/**
 * Headers every response of both applications carries, errors and 404s included:
 * - `Cache-Control: no-store`: answers carry tokens, generated passwords and a firm's data, and no
 *   shared or browser cache may keep them. The service serves no static assets whose caching would
 *   be worth an exception (docs/decisions/security-headers.md).
 * - `X-Content-Type-Options: nosniff`: a JSON answer echoing input is never read as a script or page.
 * - `Strict-Transport-Security` when PUBLIC_URL is https: browsers then refuse plain http to it.
 * Set in onRequest, so that answers sent from any later hook (a 401 of the auth hook) carry them too.
 */
export function secureResponses(app: FastifyInstance, publicUrl: string) {
  const https = publicUrl.startsWith('https:');
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Content-Type-Options', 'nosniff');
    if (https) reply.header('Strict-Transport-Security', HSTS);
    done();
  });
}
