import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CsvFile } from '../http/media.js';
import { type CsvRow, CsvSyntaxError, parseCsv } from '../shared/csv.js';
import { Type } from 'typebox';
import { responses } from '../http/problem.js';
import { validationError } from '../shared/errors.js';
import { principalOf } from '../auth/hook.js';
import { Privilege, type PrivilegeName } from '../auth/privileges.js';
import type { TradeBlockReasonService } from './reasons.js';
import { batchResponses, sendBatch } from './batch-http.js';
import { EntityEnum, SyncQuery, type TradeBlockResult } from './schemas.js';
import type { TradeBlockService } from './service.js';
import type { Actor } from './writes.js';

/**
 * Rule 8: the custom-import templates Trade Block Add, Update and Delete. A CSV file goes in; each
 * row is one batch item, and the answer is the batch result with the row number on failed items.
 */
interface Template {
  name: string;
  privilege: PrivilegeName;
  columns: string[];
  required: string[];
  example: string[];
  run(services: ImportServices, actor: Actor, rows: Row[], sync: boolean): Promise<TradeBlockResult>;
}

interface ImportServices {
  tradeBlocks: TradeBlockService;
  reasons: TradeBlockReasonService;
}

type Row = { row: number; cells: Record<string, string> };

const ENTITY_TYPES: Record<string, number> = {
  account: EntityEnum.Account,
  [String(EntityEnum.Account)]: EntityEnum.Account,
  registration: EntityEnum.Registration,
  [String(EntityEnum.Registration)]: EntityEnum.Registration,
};
const optional = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
const integer = (value: string | undefined) => (value !== undefined && /^\d+$/.test(value) ? Number(value) : value);
const rowError = (row: number, message: string) => `row ${row}: ${message}`;

/** Failed items carry their CSV row; their message starts with it. */
function withRows(result: TradeBlockResult): TradeBlockResult {
  return {
    successfulTradeBlocks: result.successfulTradeBlocks,
    failedTradeBlocks: result.failedTradeBlocks.map((f) => ({ ...f, errorMessage: rowError(Number(f.row), f.errorMessage) })),
  };
}

const TEMPLATES: Record<string, Template> = {
  Add: {
    name: 'Trade Block Add',
    privilege: Privilege.TradeBlockAdd,
    columns: ['EntityType', 'EntityId', 'ReasonId', 'Reason', 'Description', 'StartDate', 'EndDate', 'GlobalId'],
    required: ['EntityType', 'EntityId', 'Description', 'StartDate'],
    example: ['Account', '1234', '', 'Manual', 'Client asked to hold', '2026-01-01', '', ''],
    async run({ tradeBlocks, reasons }, actor, rows, sync) {
      const byName = new Map((await reasons.list(actor.firmId)).map((r) => [r.name.toLowerCase(), r.id]));
      const unknownReason = (r: Row) => !optional(r.cells.reasonid) && optional(r.cells.reason) && !byName.has(r.cells.reason!.toLowerCase());
      const items = rows.filter((r) => !unknownReason(r)).map(({ row, cells }) => {
        const reasonName = optional(cells.reason);
        return {
          row,
          id: 0,
          entityEnum: ENTITY_TYPES[(cells.entitytype ?? '').toLowerCase()] ?? cells.entitytype,
          entityId: integer(cells.entityid),
          tradeBlockReasonId: integer(optional(cells.reasonid)) ?? (reasonName ? byName.get(reasonName.toLowerCase()) : undefined),
          description: cells.description,
          startDate: cells.startdate,
          endDate: optional(cells.enddate),
          globalId: optional(cells.globalid),
        };
      });
      const result = items.length > 0 ? await tradeBlocks.create(actor, items, sync) : { successfulTradeBlocks: [], failedTradeBlocks: [] };
      const refused = rows.filter(unknownReason).map((r) => ({ row: r.row, ...r.cells, errorMessage: `Reason: no trade block reason is named ${r.cells.reason}` }));
      const { successfulTradeBlocks, failedTradeBlocks } = withRows({ ...result, failedTradeBlocks: [...result.failedTradeBlocks, ...refused] });
      return { successfulTradeBlocks, failedTradeBlocks: failedTradeBlocks.sort((a, b) => Number(a.row) - Number(b.row)) };
    },
  },
  Update: {
    name: 'Trade Block Update',
    privilege: Privilege.TradeBlockUpdate,
    columns: ['GlobalId', 'Description', 'StartDate', 'EndDate'],
    required: ['GlobalId'],
    example: ['3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'Hold until review', '2026-01-01', '2026-06-30'],
    async run({ tradeBlocks }, actor, rows, sync) {
      // An empty cell leaves the field as it is.
      const items = rows.map(({ row, cells }) => ({
        row,
        globalId: cells.globalid,
        description: optional(cells.description),
        startDate: optional(cells.startdate),
        endDate: optional(cells.enddate),
      }));
      return withRows(await tradeBlocks.update(actor, items, sync));
    },
  },
  Delete: {
    name: 'Trade Block Delete',
    privilege: Privilege.TradeBlockDelete,
    columns: ['Id'],
    required: ['Id'],
    example: ['42'],
    async run({ tradeBlocks }, actor, rows, sync) {
      const bad = rows.filter((r) => typeof integer(r.cells.id) !== 'number' || Number(r.cells.id) < 1);
      const good = rows.filter((r) => !bad.includes(r));
      const result = good.length > 0 ? await tradeBlocks.deleteMany(actor, good.map((r) => Number(r.cells.id)), 'id', sync) : { successfulTradeBlocks: [], failedTradeBlocks: [] };
      const rowOf = new Map(good.map((r) => [Number(r.cells.id), r.row]));
      return {
        successfulTradeBlocks: result.successfulTradeBlocks,
        failedTradeBlocks: [
          ...bad.map((r) => ({ row: r.row, id: r.cells.id, errorMessage: rowError(r.row, `Id: ${JSON.stringify(r.cells.id ?? '')} is not a trade block detail id`) })),
          ...result.failedTradeBlocks.map((f) => ({ ...f, row: rowOf.get(Number(f.id)), errorMessage: rowError(rowOf.get(Number(f.id))!, f.errorMessage) })),
        ].sort((a, b) => Number(a.row) - Number(b.row)),
      };
    },
  },
};

const key = (header: string) => header.replace(/\s+/g, '').toLowerCase();

function readCsv(template: Template, text: string): Row[] {
  let records: CsvRow[];
  try {
    records = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw validationError('file', `is not valid CSV at line ${error.line}: ${error.message}`);
    throw error;
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) throw validationError('file', 'needs a header row and at least one data row');
  const columns = header.cells.map(key);
  const missing = template.required.filter((c) => !columns.includes(key(c)));
  if (missing.length > 0) throw validationError('file', `the ${template.name} template needs the column(s) ${missing.join(', ')}`);
  if (body.length > 10000) throw validationError('file', 'has more than 10,000 rows');
  // A row is named by the line of the file it starts on, as an editor shows it.
  return body.map(({ line, cells }) => ({
    row: line,
    cells: Object.fromEntries(columns.map((column, i) => [column, cells[i] ?? ''])),
  }));
}

const CsvBody = Type.String({ minLength: 1, description: 'CSV with a header row' });

export const tradeBlockImportRoutes: FastifyPluginAsyncTypebox<ImportServices> = async (app, services) => {
  app.addContentTypeParser(['text/csv', 'text/plain'], { parseAs: 'string', bodyLimit: 20 * 1024 * 1024 }, (_request, body, done) => done(null, body));
  const tags = ['Trade blocks (custom import)'];

  for (const [path, template] of Object.entries(TEMPLATES)) {
    app.post(
      `/Trading/TradeBlocks/Import/${path}`,
      {
        config: { privilege: template.privilege },
        schema: {
          tags,
          summary: `Import the ${template.name} template (text/csv; columns ${template.columns.join(', ')}); needs ${template.privilege}`,
          description: `Send the CSV as the body with \`Content-Type: text/csv\`: a header row naming the columns ${template.columns.join(', ')}, then one row per trade block. Each row is handled on its own, as the JSON operations do: successfulTradeBlocks and failedTradeBlocks (with the row's problem) come back, 207 when some rows failed. Download the template for an example row.`,
          querystring: SyncQuery,
          // Documented as what it is: a CSV body (text/plain is taken too), not JSON.
          body: { content: { 'text/csv': { schema: CsvBody }, 'text/plain': { schema: CsvBody } } },
          response: batchResponses([401, 403, 415]),
        },
      },
      async (request, reply) => {
        // A body of another media type (JSON) is not validated by the CSV schemas: refuse it here.
        if (typeof request.body !== 'string' || request.body.length === 0) {
          throw Object.assign(new Error(`the body must be CSV text (Content-Type: text/csv), got ${request.headers['content-type'] ?? 'no content type'}`), { statusCode: 415, code: 'unsupported_media_type' });
        }
        const rows = readCsv(template, request.body);
        return sendBatch(reply, await template.run(services, principalOf(request), rows, request.query.createSyncEvent));
      },
    );
    app.get(
      `/Trading/TradeBlocks/Import/${path}/Template`,
      {
        config: { privilege: template.privilege },
        schema: { tags, summary: `The ${template.name} CSV template with an example row`, description: `A CSV file (text/csv) with the header row ${template.columns.join(', ')} and one example row, to fill in and send back to the import.`, response: { ...responses({}, [401, 403]), 200: CsvFile(`The header row and one example row`) } },
      },
      async (_request, reply) => {
        reply.type('text/csv');
        return `${template.columns.join(',')}\n${template.example.join(',')}\n`;
      },
    );
  }
};
