import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '../http/health.js';
import { registerOpenApi } from '../http/openapi.js';
import type { Services } from '../services.js';
import { requireAuthentication } from '../auth/hook.js';
import { oauthRoutes } from '../auth/oauth-routes.js';
import { authRoutes } from '../auth/routes.js';
import { bookRoutes } from '../book/routes.js';
import { portfolioCompatRoutes } from '../book/compat/routes.js';
import { customFieldRoutes } from '../book/custom-fields/routes.js';
import { representativeRoutes } from '../book/representatives/routes.js';
import { legacyAccountRoutes } from '../trade-blocks/legacy-routes.js';
import { tradeBlockRoutes } from '../trade-blocks/routes.js';
import { transactionRoutes } from '../book/transactions/routes.js';
import { riskPartnerRoutes, riskQuestionnaireRoutes } from '../integrations/risk-partner/routes.js';
import { tradingRoutes } from '../trading/routes.js';
import { notificationRoutes } from '../notifications/routes.js';
import { sleeveRoutes } from '../book/sleeves/routes.js';
import { userRoutes } from '../auth/users-routes.js';

/**
 * The portfolio platform at {base_url}. Section 9.2: some resources are documented without the
 * `/v1` segment, so versioned capability routes are served under both forms.
 */
export const platformApp: FastifyPluginAsync<{ services: Services; basePath: string }> = async (app, { services, basePath }) => {
  await registerOpenApi(app, {
    title: 'Wealth platform: portfolio API',
    description: 'The portfolio platform ({base_url}). Send `Authorization: Session <token>`.',
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { url: '../openapi.json' } });
  await app.register(healthRoutes, { db: services.db });

  // Everything below needs a platform token unless a route says `public`.
  await app.register(async (secured) => {
    requireAuthentication(secured, services.auth, 'platform');
    await secured.register(authRoutes, { auth: services.auth, oauth: services.oauth });
    await secured.register(oauthRoutes, { oauth: services.oauth, basePath });
    for (const prefix of ['/v1', '']) {
      await secured.register(bookRoutes, { prefix, verbose: services.verbose, holdings: services.holdings });
      await secured.register(portfolioCompatRoutes, { prefix, compat: services.portfolioCompat });
      await secured.register(transactionRoutes, { prefix, db: services.db.kysely, clock: services.clock });
      await secured.register(tradingRoutes, { prefix, trading: services.trading, quickTrades: services.quickTrades });
      await secured.register(riskPartnerRoutes, { prefix, riskProfiling: services.riskProfiling, basePath });
      await secured.register(notificationRoutes, { prefix, notifications: services.notifications });
      await secured.register(representativeRoutes, { prefix, representatives: services.representatives });
      await secured.register(customFieldRoutes, { prefix, definitions: services.customFieldDefinitions });
      await secured.register(sleeveRoutes, { prefix, sleeves: services.sleeves });
    }
    await secured.register(userRoutes, { prefix: '/v1', users: services.users, basicLogin: services.basicLogin });
    await secured.register(riskQuestionnaireRoutes, { questionnaire: services.riskQuestionnaire, basePath });
    // Section 4.2 writes the trade block paths (and rule 7's account paths) with /v1 only.
    await secured.register(tradeBlockRoutes, { prefix: '/v1', tradeBlocks: services.tradeBlocks, reasons: services.tradeBlockReasons });
    await secured.register(legacyAccountRoutes, { prefix: '/v1', legacy: services.tradeBlockLegacy });
  });
};
