import type { FastifyPluginAsync } from 'fastify';
import { healthRoutes } from '../http/health.js';
import { registerOpenApi } from '../http/openapi.js';
import { requireAuthentication } from '../auth/hook.js';
import type { Services } from '../services.js';
import { rebalancerAuthRoutes } from './auth/routes.js';
import { rebalancerDataRoutes } from './data-routes.js';
import { priorityRoutes } from './priorities/routes.js';
import { tradeBlockDetailsV2Routes } from './trade-block-details/routes.js';
import { eclipseRoutes } from './eclipse/index.js';

/** The capabilities of the rebalancing application, in the order its reference lists them. */
const TAGS = [
  { name: 'Health', description: 'Whether the process answers and its database is reachable. No token needed.' },
  { name: 'Authentication', description: 'Trade a platform token (or Basic credentials) for a rebalancer token; every other call here needs a rebalancer token as `Authorization: Session <token>`.' },
  { name: 'Models and teams', description: 'Models are target allocations (securities and cash adding up to 100%) that accounts follow; teams decide who may see which model.' },
  { name: 'Restricted plans', description: 'Restricted plans hold back or prefer securities when an account is rebalanced, with the buy and sell priorities they may use.' },
  { name: 'Set aside cash', description: 'Cash an account keeps out of the rebalance (an amount or a percentage, for a period or until a transaction uses it), and the accounts short of cash.' },
  { name: 'Accounts', description: 'Accounts as the rebalancer sees them: values, cash available, holdings against their targets, and those outside a model\'s tolerance.' },
  { name: 'Trade groups and aggregate models', description: 'The trade groups and aggregate models of the firm: the keys a TradeGroup or ModelAgg rebalance takes.' },
  { name: 'Firm options', description: 'The firm\'s trade block options: several details per entity, and custom trade block types.' },
  { name: 'Trade block details (v2)', description: 'The rebalancer\'s view of trade blocks: list, create, change and remove the details that keep entities from being traded.' },
  { name: 'Product substitutions', description: 'Products a rebalance buys in place of a model product, for the whole firm or one account (`useProductSubstitution = Use`).' },
  { name: 'Eclipse portfolios and securities', description: 'The source system\'s portfolio reads: a portfolio is a registration (its accounts, managed together), a security set is a model\'s lines; holdings, securities, sleeves and sleeve strategies.' },
  { name: 'Eclipse trade orders and blocks', description: 'Trade instances and their trade orders (pending while open), and the open orders summed into trading blocks per security and side.' },
  { name: 'Eclipse searches', description: 'Account, security and global searches: number, name or ticker, case-insensitive and partial, paged.' },
];

/** The rebalancing application at {rebalancer_base_url}; its routes take rebalancer tokens. */
export const rebalancerApp: FastifyPluginAsync<{ services: Services; basePath: string; publicUrl: string }> = async (app, { services, basePath, publicUrl }) => {
  await registerOpenApi(app, {
    title: 'Wealth platform: rebalancing application',
    description: [
      `The rebalancing application, served at \`${publicUrl}${basePath}\` on this installation: models, restricted plans, set aside cash and trade block details that the rebalancer works from.`,
      'Get a rebalancer token first (Authentication) and send it as `Authorization: Session <token>`. Rebalances themselves are started from the portfolio platform (Trading).',
    ].join('\n\n'),
    basePath,
    publicUrl,
    tags: TAGS,
  });
  await app.register(healthRoutes, { db: services.db });
  await app.register(async (secured) => {
    requireAuthentication(secured, services.auth, 'rebalancer');
    await secured.register(rebalancerAuthRoutes, { auth: services.auth, accounts: services.authRepository, users: services.rebalancerUsers });
    await secured.register(priorityRoutes);
    await secured.register(rebalancerDataRoutes, { services });
    await secured.register(tradeBlockDetailsV2Routes, { details: services.rebalancerTradeBlocks });
    await secured.register(eclipseRoutes, { services });
  });
};
