import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '../http/health.js';
import { registerOpenApi } from '../http/openapi.js';
import type { Services } from '../services.js';
import { requireAuthentication } from '../auth/hook.js';
import { oauthRoutes } from '../auth/oauth-routes.js';
import { authRoutes } from '../auth/routes.js';
import { bookRoutes } from '../book/routes.js';
import { portfolioHierarchyRoutes } from '../book/hierarchy/routes.js';
import { customFieldRoutes } from '../book/custom-fields/routes.js';
import { representativeRoutes } from '../book/representatives/routes.js';
import { legacyAccountRoutes } from '../trade-blocks/legacy-routes.js';
import { tradeBlockRoutes } from '../trade-blocks/routes.js';
import { transactionRoutes } from '../book/transactions/routes.js';
import { riskPartnerRoutes, riskQuestionnaireRoutes } from '../integrations/risk-partner/routes.js';
import { taxRoutes } from '../book/tax/routes.js';
import { tradingRoutes } from '../trading/routes.js';
import { notificationRoutes } from '../notifications/routes.js';
import { sleeveRoutes } from '../book/sleeves/routes.js';
import { userRoutes } from '../auth/users-routes.js';
import { performanceRoutes } from '../performance/routes.js';

/** The capabilities of the platform, in the order its reference lists them. */
const TAGS = [
  { name: 'Health', description: 'Whether the process answers and its database is reachable; for load balancers and monitors. No token needed.' },
  {
    name: 'Authentication',
    description:
      'Getting tokens. An API user logs in with Basic credentials and the partner application\'s client_id and client_secret; a partner application signs a person in through the browser pages under `oauth/` and exchanges the code it receives for tokens. Send the access token as `Authorization: Session <token>` on every other call; refresh it before it expires.',
  },
  { name: 'Users', description: 'The firm\'s logins: list them, take a user\'s access away at once, give it back, reset a password. Platform administrators only.' },
  { name: 'Households', description: 'A household (a client in the paths: `Portfolio/Clients`) groups the registrations and accounts of one family or entity and names its representative.' },
  { name: 'Registrations', description: 'A registration is the legal owner of accounts inside a household (an individual, a joint owner, a trust, an IRA holder).' },
  { name: 'Accounts', description: 'Accounts hold positions (with tax lots) and cash, follow a model and may carry a restricted plan; their transactions are recorded here too.' },
  { name: 'Products', description: 'The securities and funds the firm trades, and their price history.' },
  { name: 'Representatives', description: 'Advisors who serve households, and the broker/dealers they belong to.' },
  { name: 'Custom fields', description: 'Fields a firm adds to households, registrations, accounts or products: define them here, then read and write their values with the records (`?expand=userDefinedFields`).' },
  { name: 'Sleeves', description: 'Sleeves split a registration into parts that follow their own models; a registration-level rebalance moves cash between them.' },
  { name: 'Trading', description: 'Rebalancing: start a rebalance or submit quick trades, follow the batch until it finishes, then read the trade instances and trades it produced (or cancel them).' },
  { name: 'Trade blocks', description: 'Trade blocks stop the rebalancer from trading a household, registration, account or product for a reason and a period.' },
  { name: 'Trade blocks (custom import)', description: 'Create, update and delete trade blocks in bulk from CSV files; each template is downloadable with an example row.' },
  { name: 'Trade blocks (legacy account endpoints)', description: 'Older account endpoints that set or clear an account\'s trading block through its `isTradingBlocked` flag.' },
  { name: 'Risk profiling', description: 'The risk-profiling partner: create a client for a household, send the client the questionnaire link, read the score back.' },
  { name: 'Notifications', description: 'Webhook integrations and push endpoints of partner applications, and the notifications they post to users.' },
  { name: 'Performance', description: 'Time- and money-weighted returns of accounts, registrations and households from their stored daily values, a printable client report, and a batch for quarter-end runs.' },
];

/**
 * The portfolio platform at {base_url}. Some resources are specified without the `/v1` segment,
 * so versioned capability routes are served under both forms.
 */
export const platformApp: FastifyPluginAsync<{ services: Services; basePath: string; publicUrl: string }> = async (app, { services, basePath, publicUrl }) => {
  await registerOpenApi(app, {
    title: 'Wealth platform: portfolio API',
    description: [
      `The portfolio platform, served at \`${publicUrl}${basePath}\` on this installation: households, registrations, accounts, products, positions, trade blocks, trading, risk profiling and notifications of one advisory firm.`,
      `Start by getting a token (Authentication), then send it as \`Authorization: Session <token>\`. Every path of a capability answers with and without its \`/v1\` segment (\`${basePath}/v1/Portfolio/Clients\` and \`${basePath}/Portfolio/Clients\`): this document lists both, the reference page lists the \`/v1\` form and names the other.`,
      `Errors are JSON problem bodies (\`application/problem+json\`) naming the field and what is wrong with it. The rebalancing application has its own reference.`,
    ].join('\n\n'),
    basePath,
    publicUrl,
    tags: TAGS,
  });
  await app.register(healthRoutes, { db: services.db });

  // Everything below needs a platform token unless a route says `public`.
  await app.register(async (secured) => {
    requireAuthentication(secured, services.auth, 'platform');
    await secured.register(authRoutes, { auth: services.auth, oauth: services.oauth });
    await secured.register(oauthRoutes, { oauth: services.oauth, basePath, publicUrl });
    for (const prefix of ['/v1', '']) {
      await secured.register(bookRoutes, { prefix, verbose: services.verbose, holdings: services.holdings });
      await secured.register(portfolioHierarchyRoutes, { prefix, compat: services.portfolioHierarchy });
      await secured.register(taxRoutes, { prefix, tax: services.tax });
      await secured.register(transactionRoutes, { prefix, transactions: services.transactions });
      await secured.register(tradingRoutes, { prefix, trading: services.trading, quickTrades: services.quickTrades, execution: services.execution });
      await secured.register(riskPartnerRoutes, { prefix, riskProfiling: services.riskProfiling, basePath, publicUrl });
      await secured.register(notificationRoutes, { prefix, notifications: services.notifications });
      await secured.register(representativeRoutes, { prefix, representatives: services.representatives });
      await secured.register(customFieldRoutes, { prefix, definitions: services.customFieldDefinitions });
      await secured.register(sleeveRoutes, { prefix, sleeves: services.sleeves });
      await secured.register(performanceRoutes, { prefix, performance: services.performance });
    }
    await secured.register(userRoutes, { prefix: '/v1', users: services.users, basicLogin: services.basicLogin });
    await secured.register(riskQuestionnaireRoutes, { questionnaire: services.riskQuestionnaire, basePath });
    // Section 4.2 writes the trade block paths (and rule 7's account paths) with /v1 only.
    await secured.register(tradeBlockRoutes, { prefix: '/v1', tradeBlocks: services.tradeBlocks, reasons: services.tradeBlockReasons });
    await secured.register(legacyAccountRoutes, { prefix: '/v1', legacy: services.tradeBlockLegacy });
  });
};
