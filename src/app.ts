import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, LogController, type RouteOptions } from 'fastify';
import type { AppConfig } from './config.js';
import type { Db } from './db/database.js';
import { registerErrorHandling } from './http/error-handler.js';
import { healthRoutes } from './http/health.js';
import { homeRoutes, type ServedApp } from './http/home.js';
import { refuseHostileInput } from './http/hostile-input.js';
import { secureResponses } from './http/security-headers.js';
import { cacheResponses } from './http/response-cache.js';
import { answerWritesOnceHeard } from './http/writes-heard.js';
import { ProblemSchema } from './http/problem.js';
import { validatorCompiler } from './http/validation.js';
import { authorizationServerMetadata, issuerOf } from './auth/oauth-routes.js';
import { platformApp } from './platform/index.js';
import { maskWebhookGuids } from './notifications/redact.js';
import { rebalancerApp } from './rebalancer/index.js';
import { backgroundWork } from './background.js';
import { createServices } from './services.js';
import { type Clock, systemClock } from './shared/clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered, with its config: tests enumerate them (privilege matrix). */
    routeCatalog: RouteOptions[];
  }
}

export interface AppDeps {
  config: AppConfig;
  db: Db;
  clock?: Clock;
  /** Where log lines go (stdout when omitted); tests read them to prove secrets stay out. */
  logStream?: { write(line: string): void };
}

function loggerOptions(config: AppConfig, stream: AppDeps['logStream']): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  const pretty = !stream && config.logFormat === 'pretty';
  return {
    level: config.logLevel,
    ...(stream ? { stream } : {}),
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,reqId' } } } : {}),
    // Token calls may carry codes and secrets in the query string (section 5.3): never log it.
    serializers: {
      req: (req) => ({ method: req.method, url: maskWebhookGuids(req.url.split('?')[0]!), remoteAddress: req.ip }),
    },
    redact: ['req.headers.authorization', 'req.headers.client_secret'],
  };
}

/** One log line per request, written when it is answered (Fastify's own writes two: incoming and completed). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}

/** Builds the whole service from a config; the server and the tests build the same app. */
export async function buildApp({ config, db, clock = systemClock, logStream }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, logStream),
    // Section 9 writes `/v1/Security/Token` and `/v1/security/token`, and clients build `/api//x`.
    routerOptions: { caseSensitive: false, ignoreDuplicateSlashes: true, ignoreTrailingSlash: true },
    bodyLimit: 20 * 1024 * 1024,
    return503OnClosing: true,
    logController: new OneLinePerRequest(),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const routeCatalog: RouteOptions[] = [];
  app.decorate('routeCatalog', routeCatalog);
  app.addHook('onRoute', (route) => void routeCatalog.push(route));

  app.setValidatorCompiler(validatorCompiler);
  app.addSchema(ProblemSchema);
  registerErrorHandling(app);
  const services = createServices(config, db, clock);
  // Before the applications register, so that its hooks reach their routes, and before the
  // hostile-input check: a cached answer is one to a URL that passed every check already.
  cacheResponses(app, services.dataChanges, clock, config.responseCacheBytes);
  // Whatever this node's cache: other nodes' caches must have heard its writes before they answer.
  answerWritesOnceHeard(app, services.dataChanges);
  refuseHostileInput(app);
  secureResponses(app, config.publicUrl);
  await app.register(formbody);

  // Tests and tools on this process write revocations through it, as the routes do.
  app.decorate('revocations', services.revocations);
  const background = backgroundWork(services, app.log);
  app.addHook('onReady', () => background.start());
  app.addHook('onClose', () => background.stop());
  await app.register(healthRoutes, { db });
  const served: ServedApp[] = [];
  if (config.apps !== 'rebalancer') {
    served.push({ name: 'Portfolio platform', about: 'Households, accounts, products, trade blocks, trading, risk profiling and notifications.', basePath: config.platformPrefix });
  }
  if (config.apps !== 'platform') {
    served.push({ name: 'Rebalancing application', about: 'Models, restricted plans, set aside cash and trade block details.', basePath: config.rebalancerPrefix });
  }
  await app.register(homeRoutes, { apps: served });
  if (config.apps !== 'rebalancer') {
    await app.register(platformApp, { prefix: config.platformPrefix, basePath: config.platformPrefix, publicUrl: config.publicUrl, services });
    // RFC 8414 places an issuer's metadata at /.well-known/oauth-authorization-server{issuer path}.
    app.get(
      `/.well-known/oauth-authorization-server${config.platformPrefix}`,
      { config: { public: true }, schema: { hide: true } },
      async () => authorizationServerMetadata(issuerOf(config.publicUrl, config.platformPrefix)),
    );
  }
  if (config.apps !== 'platform') await app.register(rebalancerApp, { prefix: config.rebalancerPrefix, basePath: config.rebalancerPrefix, publicUrl: config.publicUrl, services });
  return app;
}
