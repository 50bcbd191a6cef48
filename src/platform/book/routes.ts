import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/problem.js';
import { DomainError } from '../../shared/errors.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { EntityDescriptor } from './entities.js';
import type { HoldingsService } from './holdings-service.js';
import { KeyParams, PageQuery, PositionInput, PositionRecord, PriceInput, PriceRecord } from './schemas.js';
import type { VerboseService } from './service.js';
import { IdSchema } from '../../http/ids.js';

export interface BookRouteOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  verbose: { entity: EntityDescriptor<any, any>; service: VerboseService<any, any> }[];
  holdings: HoldingsService;
}

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };
const tags = ['Portfolio'];

/** Section 4.9's verbose style for the book: list, read, create, update, bulk update. */
export const bookRoutes: FastifyPluginAsyncTypebox<BookRouteOptions> = async (app, { verbose, holdings }) => {
  for (const { entity, service } of verbose) {
    const base = `/Portfolio/${entity.path}`;
    const CreateBody = Type.Object({
      ...entity.input.properties,
      id: Type.Optional(Type.Integer({ minimum: 0, maximum: 0, description: '0 (or omitted) on create' })),
    });
    const UpdateBody = Type.Object({ ...entity.input.properties, id: Type.Optional(IdSchema()) });
    const BulkItem = Type.Object({ ...entity.input.properties, id: IdSchema() });

    app.get(
      base,
      {
        config: read,
        schema: {
          tags,
          summary: `List ${entity.label}s, paged; the total is in X-Total-Count`,
          querystring: PageQuery,
          response: responses({ 200: Type.Array(entity.record) }, [401, 403]),
        },
      },
      async (request, reply) => {
        const { items, total } = await service.page(principalOf(request).firmId, request.query.$top, request.query.$skip);
        reply.header('X-Total-Count', String(total));
        return items;
      },
    );

    app.get(
      `${base}/Verbose/:key`,
      {
        config: read,
        schema: { tags, summary: `Read one ${entity.label}`, params: KeyParams, response: responses({ 200: entity.record }, [401, 403, 404]) },
      },
      async (request) => service.get(principalOf(request).firmId, request.params.key),
    );

    app.post(
      `${base}/Verbose`,
      {
        config: edit,
        schema: { tags, summary: `Create a ${entity.label}`, body: CreateBody, response: responses({ 200: entity.record }, [401, 403]) },
      },
      async (request) => {
        const { id: _id, ...input } = request.body;
        return service.create(principalOf(request), input);
      },
    );

    app.put(
      `${base}/Verbose/:key`,
      {
        config: edit,
        schema: {
          tags,
          summary: `Update a ${entity.label} from its whole record; omitted optional fields keep their values`,
          params: KeyParams,
          body: UpdateBody,
          response: responses({ 200: entity.record }, [401, 403, 404]),
        },
      },
      async (request) => {
        const { id, ...input } = request.body;
        if (id !== undefined && id !== request.params.key) {
          throw new DomainError('validation_failed', `id: ${id} does not match the key ${request.params.key} in the path`, [
            { field: 'id', message: `does not match the key ${request.params.key} in the path` },
          ]);
        }
        return service.update(principalOf(request), request.params.key, input);
      },
    );

    app.put(
      `${base}/Verbose`,
      {
        config: edit,
        schema: {
          tags,
          summary: `Update several ${entity.label}s at once, all or nothing`,
          body: Type.Array(BulkItem, { minItems: 1, maxItems: 1000 }),
          response: responses({ 200: Type.Array(entity.record) }, [401, 403]),
        },
      },
      async (request) =>
        service.updateMany(
          principalOf(request),
          request.body.map(({ id, ...input }) => ({ id, input })),
        ),
    );
  }

  const AccountParams = Type.Object({ accountId: IdSchema() });
  app.get(
    '/Portfolio/Accounts/:accountId/Positions',
    {
      config: read,
      schema: { tags, summary: 'An account\'s positions with tax lots', params: AccountParams, response: responses({ 200: Type.Array(PositionRecord) }, [401, 403, 404]) },
    },
    async (request) => holdings.positions(principalOf(request).firmId, request.params.accountId),
  );
  app.put(
    '/Portfolio/Accounts/:accountId/Positions',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Replace an account\'s positions (and tax lots) whole',
        params: AccountParams,
        body: Type.Array(PositionInput, { maxItems: 5000 }),
        response: responses({ 200: Type.Array(PositionRecord) }, [401, 403, 404]),
      },
    },
    async (request) => holdings.replacePositions(principalOf(request).firmId, request.params.accountId, request.body),
  );

  const ProductParams = Type.Object({ productId: IdSchema() });
  app.get(
    '/Portfolio/Products/:productId/Prices',
    {
      config: read,
      schema: { tags, summary: 'A product\'s price history, newest first', params: ProductParams, response: responses({ 200: Type.Array(PriceRecord) }, [401, 403, 404]) },
    },
    async (request) => holdings.prices(principalOf(request).firmId, request.params.productId),
  );
  app.post(
    '/Portfolio/Products/Prices',
    {
      config: edit,
      schema: {
        tags,
        summary: 'Record product prices; a product\'s latest price follows the newest date',
        body: Type.Array(PriceInput, { minItems: 1, maxItems: 10000 }),
        response: responses({ 200: Type.Object({ stored: Type.Integer() }) }, [401, 403]),
      },
    },
    async (request) => holdings.recordPrices(principalOf(request).firmId, request.body),
  );
};
