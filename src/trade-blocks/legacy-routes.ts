import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../http/problem.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { LegacyAccountService } from './legacy.js';
import { SyncQuery, TradeBlockDetail } from './schemas.js';
import { IdSchema } from '../http/ids.js';

const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Trade blocks (legacy account endpoints)'];
const AccountParams = Type.Object({ accountId: IdSchema() });
const Blocked = Type.Optional(Type.Boolean({ description: 'Legacy trade block flag' }));
/** Partners send the whole account; only the trade block part is read here, the rest is ignored. */
const AccountBody = Type.Object({
  isTradingBlocked: Blocked,
  modelingInfo: Type.Optional(Type.Object({ isTradingBlocked: Blocked })),
});
const State = Type.Object({
  accountId: Type.Integer(),
  isTradingBlocked: Type.Boolean(),
  tradeBlocks: Type.Array(TradeBlockDetail),
  isSma: Type.Boolean({ description: 'Whether the account is a separately managed account (set by UpdateDoNotTradeAndSma)' }),
});

type Body = { isTradingBlocked?: boolean; modelingInfo?: { isTradingBlocked?: boolean } };
const blockedOf = (body: Body) => body.isTradingBlocked ?? body.modelingInfo?.isTradingBlocked;

/** Rule 7's legacy-compatible account endpoints. */
export const legacyAccountRoutes: FastifyPluginAsyncTypebox<{ legacy: LegacyAccountService }> = async (app, { legacy }) => {
  const single = (path: string, summary: string, source: string, body = AccountBody, description = `${summary}. Only isTradingBlocked (or modelingInfo.isTradingBlocked) is read: true adds a Manual trade block when the account has none, false removes the Manual block. Answers whether the account is now blocked.`) =>
    app.put(
      path,
      {
        config: edit,
        schema: { tags, summary, description, params: AccountParams, querystring: SyncQuery, body, response: responses({ 200: State }, [401, 403, 404]) },
      },
      async (request) => {
        const { createSyncEvent } = request.query;
        return legacy.setTradingBlocked(principalOf(request), request.params.accountId, blockedOf(request.body), 'manual', source, createSyncEvent);
      },
    );

  single('/Portfolio/Accounts/:accountId', 'Update an account; a change of isTradingBlocked creates or removes a Manual block', 'account update');
  single('/Portfolio/Accounts/NewPortfolio/:accountId', 'Changing isTradingBlocked creates or removes a Manual block', 'NewPortfolio');
  app.put(
    '/Portfolio/Accounts/UpdateDoNotTradeAndSma/:accountId',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Rebalancer integration: set trading-blocked and whether the account is an SMA',
        description:
          'isTradingBlocked (or modelingInfo.isTradingBlocked) true adds a Manual trade block when the account has none, false removes the Manual block; isSma, when sent, is stored on the account (GET …/Portfolio/Accounts/{id} shows it). Both are optional; the other fields of an account are ignored. Answers the account\'s blocks and isSma as they now are.',
        params: AccountParams,
        querystring: SyncQuery,
        body: Type.Object({ ...AccountBody.properties, isSma: Type.Optional(Type.Boolean({ description: 'A separately managed account' })) }),
        response: responses({ 200: State }, [401, 403, 404]),
      },
    },
    async (request) =>
      legacy.setTradingBlockedAndSma(principalOf(request), request.params.accountId, blockedOf(request.body), request.body.isSma, request.query.createSyncEvent),
  );

  app.put(
    '/Portfolio/Accounts/action/updateDoNotTrade',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Set isTradingBlocked on several accounts; false removes every deletable block except OCI',
        description: 'Blocks or unblocks trading on several accounts at once. true adds a Manual trade block where the account has none; false removes every block that may be deleted (blocks of the OCI reason stay). Answers the accounts as they now are.',
        querystring: SyncQuery,
        body: Type.Array(
          Type.Object({ id: IdSchema(), modelingInfo: Type.Object({ isTradingBlocked: Type.Boolean() }) }),
          { minItems: 1, maxItems: 1000 },
        ),
        response: responses({ 200: Type.Array(State) }, [401, 403]),
      },
    },
    async (request) =>
      legacy.updateDoNotTrade(
        principalOf(request),
        request.body.map((item) => ({ id: item.id, blocked: item.modelingInfo.isTradingBlocked })),
        request.query.createSyncEvent,
      ),
  );
};
