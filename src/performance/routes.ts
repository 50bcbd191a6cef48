import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { principalOf } from '../auth/hook.js';
import { Privilege } from '../auth/privileges.js';
import { sendPage } from '../http/html.js';
import { responses } from '../http/problem.js';
import { reportPage } from './report-page.js';
import { BatchBody, BatchQuery, DailyRow, ENTITY_PATHS, PerformanceParams, PerformanceRecord, PeriodQuery } from './schemas.js';
import type { PerformanceService } from './service.js';

const read = { privilege: Privilege.PortfolioRead };
const tags = ['Performance'];
const LABEL = { Accounts: 'an account', Registrations: 'a registration', Clients: 'a household' } as const;

/** Returns of accounts, registrations and households (shared/design/performance.md). */
export const performanceRoutes: FastifyPluginAsyncTypebox<{ performance: PerformanceService }> = async (app, { performance }) => {
  for (const entity of ENTITY_PATHS) {
    const base = `/Portfolio/${entity}/:id/Performance`;
    app.get(
      base,
      {
        config: read,
        schema: {
          tags,
          summary: `Time- and money-weighted returns of ${LABEL[entity]} over a period, with the standard periods`,
          description: `The period runs from the close of the last valuation before \`startDate\` (or from the inception) to the last valuation on or before \`endDate\`. Returns are fractions rounded to 8 places, money in dollars. A bad date or an \`endDate\` before \`startDate\` is a 400 naming it; without valuations the returns are null and \`periods\` is empty. 404 when there is no such record in your firm.`,
          params: PerformanceParams,
          querystring: PeriodQuery,
          response: responses({ 200: PerformanceRecord }, [400, 401, 403, 404]),
        },
      },
      async (request) => performance.record(principalOf(request), entity, request.params.id, request.query),
    );

    app.get(
      `${base}/Daily`,
      {
        config: read,
        schema: {
          tags,
          summary: `One row per valuation date of ${LABEL[entity]} over a period, for charts`,
          description: 'The first row is the close the period begins at (cumulative 0); each row carries the flows, fees and income since the previous valuation date.',
          params: PerformanceParams,
          querystring: PeriodQuery,
          response: responses({ 200: Type.Array(DailyRow) }, [400, 401, 403, 404]),
        },
      },
      async (request) => performance.daily(principalOf(request), entity, request.params.id, request.query),
    );

    app.get(
      `${base}/Report`,
      {
        config: read,
        schema: {
          tags,
          summary: `A printable client report of ${LABEL[entity]} (text/html)`,
          description: 'The period table, a growth-of-10,000 chart against the model\'s benchmark (inline SVG) and, for a registration or household, one row per account. Prints on paper and reads on a phone.',
          params: PerformanceParams,
          querystring: PeriodQuery,
          produces: ['text/html'],
          response: { 200: Type.String({ description: 'text/html page' }), ...responses({}, [400, 401, 403, 404]) },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const view = await performance.report(principal, entity, request.params.id, request.query);
        return sendPage(reply, 200, reportPage(view, await performance.firmName(principal)));
      },
    );
  }

  app.post(
    '/Reporting/Performance',
    {
      config: read,
      schema: {
        tags,
        summary: 'The performance records of many accounts, registrations or households at once (a quarter-end run), paged',
        description: 'Without `ids`, every entity of the kind in your firm in id order; with them, those in the order given. Page with `$top` (at most 1000) and `$skip`; a page shorter than `$top` is the last. An id not of your firm is a 400 naming it.',
        querystring: BatchQuery,
        body: BatchBody,
        response: responses({ 200: Type.Array(PerformanceRecord) }, [400, 401, 403]),
      },
    },
    async (request) => performance.batch(principalOf(request), request.body, request.query.$top, request.query.$skip),
  );
};
