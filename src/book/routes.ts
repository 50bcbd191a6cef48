import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { responses } from '../http/problem.js';
import { validationError } from '../shared/errors.js';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import type { EntityDescriptor } from './entities.js';
import type { HoldingsService } from './holdings-service.js';
import { COUNTED_PAGE_HEADERS, CountQuery, Skip, Top, sendPageHeaders } from '../http/paging.js';
import { KeyParams, PageQuery, PositionInput, PositionRecord, PriceInput, PriceRecord } from './schemas.js';
import { type Expand, NO_EXPAND, type VerboseService } from './service.js';
import { IdSchema } from '../http/ids.js';
import { UserDefinedField, UserDefinedFieldsInput } from './custom-fields/schemas.js';

export interface BookRouteOptions {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  verbose: { entity: EntityDescriptor<any, any>; service: VerboseService<any, any> }[];
  holdings: HoldingsService;
}

const read = { privilege: Privilege.PortfolioRead };
const edit = { privilege: Privilege.PortfolioEdit };

const ExpandQuery = Type.Object({
  expand: Type.Optional(Type.String({ maxLength: 200, description: 'Comma-separated parts to add to each record; `userDefinedFields` adds the record\'s custom-field values' })),
});
const EXPANSIONS: Record<string, keyof Expand> = { userdefinedfields: 'userDefinedFields' };

/** `?expand=userdefinedfields`, any case; an unknown part is a 400 rather than silently nothing. */
function expandOf(query: { expand?: string }): Expand {
  const expand: Expand = { ...NO_EXPAND };
  for (const part of (query.expand ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const known = EXPANSIONS[part.toLowerCase()];
    if (!known) throw validationError('querystring.expand', `unknown part "${part}"; known: userDefinedFields`);
    expand[known] = true;
  }
  return expand;
}

/** Section 4.9's verbose style for the book: list, read, create, update, bulk update. */
export const bookRoutes: FastifyPluginAsyncTypebox<BookRouteOptions> = async (app, { verbose, holdings }) => {
  for (const { entity, service } of verbose) {
    // One reference section per kind of record: 'household' is listed under Households.
    const tags = [`${entity.label[0]!.toUpperCase()}${entity.label.slice(1)}s`];
    const base = `/Portfolio/${entity.path}`;
    const Fields = { ...entity.input.properties, userDefinedFields: Type.Optional(UserDefinedFieldsInput) };
    const NewRecord = Type.Object({
      ...Fields,
      id: Type.Optional(Type.Integer({ minimum: 0, maximum: 0, description: '0 (or omitted) on create' })),
    });
    const CreateBody = entity.envelope
      ? Type.Object({ [entity.envelope]: NewRecord, id: Type.Optional(Type.Integer({ minimum: 0, maximum: 0 })) })
      : NewRecord;
    const UpdateBody = Type.Object({ ...Fields, id: Type.Optional(IdSchema()) });
    const BulkItem = Type.Object({ ...Fields, id: IdSchema() });
    const Out = Type.Object({ ...entity.record.properties, userDefinedFields: Type.Optional(Type.Array(UserDefinedField)) });

    app.get(
      base,
      {
        config: { ...read, cacheable: true },
        schema: {
          tags,
          summary: `List ${entity.label}s, paged by id; with $count=true the total is in X-Total-Count`,
          description: `The ${entity.label}s of your firm in id order. Page with \`$top\` (at most 1000) and \`$skip\`; a page shorter than \`$top\` is the last. With \`$count=true\` the X-Total-Count header carries how many there are in all (counting reads the whole firm, so ask only when you need it). Add \`?expand=userDefinedFields\` for their custom-field values.`,
          querystring: Type.Object({ ...PageQuery.properties, ...CountQuery.properties, ...ExpandQuery.properties }),
          response: responses({ 200: Type.Array(Out) }, [401, 403]),
        },
      },
      async (request, reply) => {
        const { $top, $skip, $count } = request.query;
        const { items, total } = await service.page(principalOf(request), $top, $skip, expandOf(request.query), $count);
        if (total !== undefined) reply.header('X-Total-Count', String(total));
        // One loop serves every verbose entity, so the record type is erased here; the response
        // schema (Out) is what types and serializes it.
        // eslint-disable-next-line @typescript-eslint/no-unsafe-return
        return items;
      },
    );

    const template = entity.template;
    if (template) {
      // Registered before `:key`; the router prefers the static segment anyway.
      app.get(
        `${base}/Verbose/New`,
        {
          config: read,
          schema: { tags, summary: `A new ${entity.label} with every field at its default, to fill in and POST`,
        description: `A ${entity.label} record with every field at its default and id 0: fill in what you need and send it back to the create operation.`, response: responses({ 200: template.schema }, [401, 403]) },
        },
        async () => template.value(),
      );
    }

    app.get(
      `${base}/Verbose/:key`,
      {
        config: read,
        schema: { tags, summary: `Read one ${entity.label}`,
        description: `One ${entity.label} by its id. 404 when there is no such ${entity.label} in your firm.`, params: KeyParams, querystring: ExpandQuery, response: responses({ 200: Out }, [401, 403, 404]) },
      },
      async (request) => service.get(principalOf(request), request.params.key, expandOf(request.query)),
    );

    app.post(
      `${base}/Verbose`,
      {
        config: edit,
        schema: {
          tags,
          summary: entity.envelope ? `Create a ${entity.label} from \`{ ${entity.envelope}: <record>, id: 0 }\`` : `Create a ${entity.label}`,
        description: `Creates a ${entity.label} and answers it with its new id and audit fields. Every field is checked first; a 400 lists each field that is wrong and nothing is stored. References to other records must name records of your firm.`,
          querystring: ExpandQuery,
          body: CreateBody,
          response: responses({ 200: Out }, [401, 403]),
        },
      },
      async (request) => {
        const body = request.body as { [field: string]: unknown };
        const record = (entity.envelope ? body[entity.envelope] : body) as Static<typeof NewRecord>;
        const { id: _id, userDefinedFields, ...input } = record;
        return service.create(principalOf(request), { input, userDefinedFields }, expandOf(request.query), entity.envelope);
      },
    );

    app.put(
      `${base}/Verbose/:key`,
      {
        config: edit,
        schema: {
          tags,
          summary: `Update a ${entity.label} from its whole record; omitted optional fields keep their values`,
        description: `Changes the ${entity.label} named in the path. Send the record as read (the id in the body, if any, must match the path); optional fields you leave out keep their values. Answers the record as stored.`,
          params: KeyParams,
          querystring: ExpandQuery,
          body: UpdateBody,
          response: responses({ 200: Out }, [401, 403, 404]),
        },
      },
      async (request) => {
        const { id, userDefinedFields, ...input } = request.body;
        if (id !== undefined && id !== request.params.key) {
          throw validationError('id', `does not match the key ${request.params.key} in the path`);
        }
        return service.update(principalOf(request), request.params.key, { input, userDefinedFields }, expandOf(request.query));
      },
    );

    app.put(
      `${base}/Verbose`,
      {
        config: edit,
        schema: {
          tags,
          summary: `Update several ${entity.label}s at once, all or nothing`,
        description: `Changes up to 1000 ${entity.label}s in one call, each named by its id. All or nothing: a 400 names every item and field that is wrong and none is changed.`,
          querystring: ExpandQuery,
          body: Type.Array(BulkItem, { minItems: 1, maxItems: 1000 }),
          response: responses({ 200: Type.Array(Out) }, [401, 403]),
        },
      },
      async (request) =>
        service.updateMany(
          principalOf(request),
          request.body.map(({ id, userDefinedFields, ...input }) => ({ id, input, userDefinedFields })),
          expandOf(request.query),
        ),
    );
  }

  const AccountParams = Type.Object({ accountId: IdSchema() });
  const accountTags = ['Accounts'];
  app.get(
    '/Portfolio/Accounts/:accountId/Positions',
    {
      config: read,
      schema: { tags: accountTags, summary: 'An account\'s positions with tax lots',
        description: 'What the account holds: one row per product with shares, price and market value, each with its tax lots (acquisition date, shares and cost basis) that the tax-aware rebalancer sells from. In ticker order, paged with `$top` (1000 by default, at most 5000, the most a replace may send) and `$skip`; X-Total-Count carries how many positions the account has, and a `Link` header names the next page while there is one.',
        params: AccountParams,
        querystring: Type.Object({ $top: Top(5000, 1000), $skip: Skip() }),
        response: responses({ 200: { ...Type.Array(PositionRecord), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]) },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await holdings.positionsPage(principalOf(request).firmId, request.params.accountId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.put(
    '/Portfolio/Accounts/:accountId/Positions',
    {
      config: edit,
      schema: {
        tags: accountTags,
        summary: 'Replace an account\'s positions (and tax lots) whole',
        description: 'Replaces everything the account holds with the list sent (an empty list empties it). A position\'s lots must add up to its shares. Answers the positions as stored.',
        params: AccountParams,
        body: Type.Array(PositionInput, { maxItems: 5000 }),
        response: responses({ 200: Type.Array(PositionRecord) }, [401, 403, 404]),
      },
    },
    async (request) => holdings.replacePositions(principalOf(request).firmId, request.params.accountId, request.body),
  );

  const ProductParams = Type.Object({ productId: IdSchema() });
  const productTags = ['Products'];
  app.get(
    '/Portfolio/Products/:productId/Prices',
    {
      config: read,
      schema: { tags: productTags, summary: 'A product\'s price history, newest first',
        description: 'The prices recorded for the product, newest first; the newest is the price the rebalancer values positions at. Paged with `$top` (1000 by default: some four years of daily prices; at most 10000) and `$skip`; X-Total-Count carries how many there are, and a `Link` header names the next page while there is one.',
        params: ProductParams,
        querystring: Type.Object({ $top: Top(10_000, 1000), $skip: Skip() }),
        response: responses({ 200: { ...Type.Array(PriceRecord), ...COUNTED_PAGE_HEADERS } }, [400, 401, 403, 404]) },
    },
    async (request, reply) => {
      const { $top, $skip } = request.query;
      const { items, total } = await holdings.prices(principalOf(request).firmId, request.params.productId, { top: $top, skip: $skip });
      sendPageHeaders(request, reply, { top: $top, skip: $skip, returned: items.length, total });
      return items;
    },
  );
  app.post(
    '/Portfolio/Products/Prices',
    {
      config: edit,
      schema: {
        tags: productTags,
        summary: 'Record product prices; a product\'s latest price follows the newest date',
        description: 'Records prices for any number of products and dates (a second price for the same product and date replaces the first). A product\'s current price becomes the one with the newest date. Answers how many were stored.',
        body: Type.Array(PriceInput, { minItems: 1, maxItems: 10000 }),
        response: responses({ 200: Type.Object({ stored: Type.Integer() }) }, [401, 403]),
      },
    },
    async (request) => holdings.recordPrices(principalOf(request).firmId, request.body),
  );
};
