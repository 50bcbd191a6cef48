import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { COUNTED_PAGE_HEADERS, PageQuery, sendPageHeaders } from '../http/paging.js';
import { responses } from '../http/problem.js';
import { batchResponses, sendBatch } from './batch-http.js';
import { tradeBlockImportRoutes } from './import.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { TradeBlockReasonService } from './reasons.js';
import {
  BatchBody,
  EntityQuery,
  HistoryEntry,
  ReasonRecord,
  ReasonUpdate,
  RelatedEntity,
  SimpleReason,
  SyncQuery,
  TradeBlockDetail,
  TradeBlockResult,
} from './schemas.js';
import type { TradeBlockService } from './service.js';
import { IdSchema } from '../http/ids.js';

export interface TradeBlockRouteOptions {
  tradeBlocks: TradeBlockService;
  reasons: TradeBlockReasonService;
}

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
// Section 5.6: a platform administrator or the rebalancing application's service account.
const manageReasons = { privilege: [Privilege.PlatformAdmin, Privilege.RebalancerService] };
const tags = ['Trade blocks'];
const base = '/Trading/TradeBlocks';
const IdParams = Type.Object({ tradeBlockId: IdSchema() });

/** Section 4.2, operations 1 to 13, plus the history read (our extension, docs/decisions/trade-block-history.md). */
export const tradeBlockRoutes: FastifyPluginAsyncTypebox<TradeBlockRouteOptions> = async (app, { tradeBlocks, reasons }) => {
  const actor = (request: Parameters<typeof principalOf>[0]) => principalOf(request);
  await app.register(tradeBlockImportRoutes, { tradeBlocks, reasons });

  app.get(
    `${base}/Reasons`,
    { config: read, schema: { tags, summary: 'All trade block reasons with metadata',
        description: 'The reasons a trade block may give: the four system reasons and your firm\'s own, with their globalId and whether details may be assigned to them by hand.', response: responses({ 200: Type.Array(ReasonRecord) }, [401, 403]) } },
    async (request) => reasons.list(actor(request).firmId),
  );
  app.get(
    `${base}/Reasons/Simple`,
    { config: read, schema: { tags, summary: 'Trade block reasons: id and name',
        description: 'The same reasons as the full list, reduced to id and name for pick lists.', response: responses({ 200: Type.Array(SimpleReason) }, [401, 403]) } },
    async (request) => reasons.simple(actor(request).firmId),
  );
  app.get(
    `${base}/Related`,
    {
      config: read,
      schema: { tags, summary: 'The entity and its related entities',
        description: 'For a household, registration, account or product, the entity itself and the entities a block on it reaches (a household\'s registrations and accounts, for example), so a client can show what a block will affect.', querystring: EntityQuery, response: responses({ 200: Type.Array(RelatedEntity) }, [401, 403, 404]) },
    },
    async (request) => tradeBlocks.related(actor(request).firmId, request.query.entityEnum, request.query.entityId),
  );
  app.get(
    `${base}/:tradeBlockId`,
    { config: { ...read, cacheable: true }, schema: { tags, summary: 'One trade block detail',
        description: 'One trade block detail by id, with its entity, reason, dates and audit fields. Deleted details are still readable, marked isDeleted.', params: IdParams, response: responses({ 200: TradeBlockDetail }, [401, 403, 404]) } },
    async (request) => tradeBlocks.get(actor(request).firmId, request.params.tradeBlockId),
  );
  app.get(
    `${base}/:tradeBlockId/History`,
    {
      config: read,
      schema: {
        tags,
        summary: 'Every create, update and delete of a detail, oldest first (an addition to the specified API)',
        description: 'The audit trail of one detail: who created, changed or deleted it and when, with the values before and after each change.',
        params: IdParams,
        response: responses({ 200: Type.Array(HistoryEntry) }, [401, 403, 404]),
      },
    },
    async (request) => tradeBlocks.history(actor(request).firmId, request.params.tradeBlockId),
  );
  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        summary: "An entity's trade blocks, including those of related entities",
        description: 'The active trade blocks that keep an entity from being traded: its own and those inherited from related entities (an account is blocked by a block on its registration or household too). In id order, paged with `$top` (100 by default, at most 1000) and `$skip`; X-Total-Count carries how many there are, and a `Link` header names the next page while there is one.',
        querystring: Type.Object({ ...EntityQuery.properties, ...PageQuery.properties }),
        response: responses({ 200: { ...Type.Array(TradeBlockDetail), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]),
      },
    },
    async (request, reply) => {
      const { entityEnum, entityId, $top, $skip } = request.query;
      const { items, total } = await tradeBlocks.forEntity(actor(request).firmId, entityEnum, entityId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );

  app.post(
    base,
    {
      config: edit,
      schema: { tags, summary: 'Create trade block details, item by item',
        description: 'Creates each detail in the list independently: the answer lists those created in successfulTradeBlocks and the others in failedTradeBlocks with the reason; 207 when some failed. createSyncEvent (default true) tells the rebalancing application.', querystring: SyncQuery, body: BatchBody, response: batchResponses([401, 403]) },
    },
    async (request, reply) => sendBatch(reply, await tradeBlocks.create(actor(request), request.body, request.query.createSyncEvent)),
  );
  app.put(
    base,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Update description and dates of details matched by globalId, item by item',
        description: 'Changes the description, start date and end date of existing details, each found by its globalId. Item by item, as for create: unknown globalIds and bad dates come back in failedTradeBlocks.',
        querystring: SyncQuery,
        body: BatchBody,
        response: batchResponses([401, 403]),
      },
    },
    async (request, reply) => sendBatch(reply, await tradeBlocks.update(actor(request), request.body, request.query.createSyncEvent)),
  );
  app.delete(
    `${base}/:tradeBlockId`,
    {
      config: edit,
      schema: { tags, summary: 'Soft-delete one detail',
        description: 'Marks the detail deleted (it stays readable with its history) and answers it. 404 when your firm has no such detail.', params: IdParams, querystring: SyncQuery, response: responses({ 200: TradeBlockDetail }, [401, 403, 404]) },
    },
    async (request) => tradeBlocks.deleteOne(actor(request), request.params.tradeBlockId, request.query.createSyncEvent),
  );
  app.post(
    `${base}/DeleteRequests`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Soft-delete details by id; unknown ids come back in failedTradeBlocks',
        description: 'Marks each listed detail deleted. Ids your firm does not have come back in failedTradeBlocks; the others are deleted.',
        querystring: SyncQuery,
        body: Type.Array(IdSchema(), { minItems: 1, maxItems: 10000 }),
        response: responses({ 200: TradeBlockResult }, [401, 403]),
      },
    },
    async (request) => tradeBlocks.deleteMany(actor(request), request.body, 'id', request.query.createSyncEvent),
  );
  app.post(
    `${base}/DeleteByGlobalIds`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Soft-delete details by globalId; unknown globalIds come back in failedTradeBlocks',
        description: 'As delete by id, with the globalIds an integration assigned when it created the details.',
        querystring: SyncQuery,
        body: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 10000 }),
        response: responses({ 200: TradeBlockResult }, [401, 403]),
      },
    },
    async (request) => tradeBlocks.deleteMany(actor(request), request.body, 'globalId', request.query.createSyncEvent),
  );
  app.post(
    `${base}/QueueForAccountIds`,
    {
      config: edit,
      schema: {
        tags,
        summary: 'Re-publish sync events for the accounts that have active details',
        description: 'Sends the rebalancing application a fresh sync event for each listed account that has active trade blocks, for when it missed or lost some. Answers how many events were queued, for which accounts, and the ids your firm does not have.',
        body: Type.Array(IdSchema(), { maxItems: 10000 }),
        response: responses(
          { 200: Type.Object({ queuedEvents: Type.Integer(), accountIds: Type.Array(Type.Integer()), notFoundAccountIds: Type.Array(Type.Integer()) }) },
          [401, 403],
        ),
      },
    },
    async (request) => tradeBlocks.queueForAccounts(actor(request), request.body),
  );

  // Operations 12 and 13: administrator or rebalancer service account, checked in the service.
  app.put(
    '/Trading/TradeBlockReasons',
    {
      config: manageReasons,
      schema: {
        tags,
        summary: 'Rename a custom reason or change allowDetailAssignment (administrator or rebalancer service account)',
        description: 'Renames one of your firm\'s own reasons or changes whether details may be assigned to it by hand. System reasons cannot be changed.',
        body: ReasonUpdate,
        response: responses({ 200: ReasonRecord }, [401, 403, 404]),
      },
    },
    async (request) => reasons.update(actor(request), request.body),
  );
  app.delete(
    '/Trading/TradeBlockReasons/:tradeBlockReasonGlobalId',
    {
      config: manageReasons,
      schema: {
        tags,
        summary: 'Delete a reason; its details move to Manual (administrator or rebalancer service account)',
        description: 'Deletes a reason of your firm by its globalId: one of your own, or a system reason other than Manual (OCI, TOM Only, Fixed Income), which stays deleted. The details that gave it now give the Manual reason, so no block is lost. Manual itself cannot be deleted (400).',
        params: Type.Object({ tradeBlockReasonGlobalId: Type.String({ format: 'uuid' }) }),
        response: responses(
          { 200: Type.Object({ globalId: Type.String(), name: Type.String(), reassignedTradeBlocks: Type.Integer(), reassignedTo: Type.Integer() }) },
          [401, 403, 404],
        ),
      },
    },
    async (request) => reasons.delete(actor(request), request.params.tradeBlockReasonGlobalId),
  );
};
