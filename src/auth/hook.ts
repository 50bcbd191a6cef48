import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { problem } from '../http/problem.js';
import type { PrivilegeName } from './privileges.js';
import { type AuthService, type Principal, parseSessionToken } from './service.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a token (health, docs, login). */
    public?: boolean;
    /** The privilege a caller's role must grant; a list means any one of them. */
    privilege?: PrivilegeName | PrivilegeName[];
    /**
     * Any valid token of the scope will do (the spec names no privilege). Every non-public route
     * states `privilege` or `tokenOnly`; the privilege-matrix test holds every route to it.
     */
    tokenOnly?: boolean;
    /** Set on every route of a secured scope: the token audience it takes. */
    audience?: 'platform' | 'rebalancer';
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The authenticated caller of a route that is not public; the hook guarantees it is set. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('principalOf called on a public route');
  return request.principal;
}

function deny(reply: FastifyReply, status: 401 | 403, code: string, detail: string) {
  if (status === 401) reply.header('WWW-Authenticate', 'Session');
  return reply.status(status).type('application/problem+json').send(problem(status, code, detail));
}

/**
 * Every route of the scope needs a token of the scope's audience unless it says `public`;
 * a route's `privilege` is then checked against the caller's role.
 */
export function requireAuthentication(scope: FastifyInstance, auth: AuthService, audience: 'platform' | 'rebalancer') {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, audience };
  });
  // Callback style, not async: a request whose token the cache knows (nearly all) goes on in the
  // same tick, without a promise per request on the hottest path of both applications.
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const config = request.routeOptions.config;
    if (config.public) return done();
    const token = parseSessionToken(request.headers.authorization);
    if (!token) return void deny(reply, 401, 'unauthorized', 'Authorization: Session <token> is required');
    const cached = auth.cachedPrincipal(token, audience);
    if (cached) return admit(request, reply, done, cached);
    auth.authenticate(token, audience).then((principal) => admit(request, reply, done, principal), done);
  });
}

/**
 * Lets the caller on when the token named someone whose role grants the route's privilege. A
 * module function, not a closure made per request: the build names every closure it makes
 * (`__name`, a property defined on each), two microseconds of a cached answer's few.
 */
function admit(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void, principal: Principal | undefined): void {
  if (!principal) return void deny(reply, 401, 'unauthorized', 'the token is not valid or has expired');
  request.principal = principal;
  const privilege = request.routeOptions.config.privilege;
  const wanted = privilege === undefined ? [] : ([] as PrivilegeName[]).concat(privilege);
  if (wanted.length > 0 && !wanted.some((p) => principal.privileges.has(p))) {
    return void deny(reply, 403, 'forbidden', `this call needs the ${wanted.join(' or ')} privilege`);
  }
  done();
}
