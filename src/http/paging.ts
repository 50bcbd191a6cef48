import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';

/**
 * The paging parameters of every list route, defined once. Both are bounded: an unbounded
 * integer lets `$skip=1e20` through validation (it is an integer) and into SQL, where it overflows.
 */
export const MAX_SKIP = 1_000_000_000;

export const Top = (maximum = 1000, page = 100) => Type.Integer({ minimum: 1, maximum, default: page, description: `Page size, 1 to ${maximum} (default ${page})` });
export const Skip = () => Type.Integer({ minimum: 0, maximum: MAX_SKIP, default: 0, description: 'Records to skip before the page' });

export const PageQuery = Type.Object({ $top: Top(), $skip: Skip() });

/**
 * OData's `$count=true`: the list's total in the X-Total-Count header. Opt-in because counting
 * reads every row of the firm (a 100,000 account firm: 2.3 ms on SQLite, 20 times the page
 * itself, growing with the firm), while a page read by (firm_id, id) costs the same at any size.
 */
export const CountQuery = Type.Object({
  $count: Type.Boolean({ default: false, description: 'true: send the total number of records in the X-Total-Count header' }),
});

/**
 * The rebalancing application's lists answer every record unless `$top` is given: the source
 * system answers them whole and its clients read them in one call. The total is always sent.
 */
export const WholeListQuery = Type.Object({
  $top: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, description: 'Page size; omitted: every match' })),
  $skip: Skip(),
});

/** The response header of a list that always sends its total. */
export const TOTAL_COUNT_HEADER = { headers: { 'X-Total-Count': { schema: { type: 'integer' }, description: 'Matches before paging' } } };

/** The response headers of a paged list: its total when known, and the next page's address. */
export const PAGE_HEADERS = {
  headers: {
    'X-Total-Count': { schema: { type: 'integer' }, description: 'Matches before paging (when sent)' },
    Link: { schema: { type: 'string' }, description: 'The next page (`<…$skip=…>; rel="next"`) while there is one' },
  },
};

/** The response headers of a paged list that always counts (a list of one account's or one integration's rows). */
export const COUNTED_PAGE_HEADERS = { headers: { ...PAGE_HEADERS.headers, ...TOTAL_COUNT_HEADER.headers } };

/**
 * Says what a page leaves out: the total in X-Total-Count when known, and a `Link` to the next
 * page while the page is full and the total (if known) lies beyond it. The link is relative to
 * the request (RFC 8288), so no host is taken from the request.
 */
export function sendPageHeaders(request: FastifyRequest, reply: FastifyReply, page: { top: number; skip: number; returned: number; total?: number }) {
  if (page.total !== undefined) reply.header('X-Total-Count', String(page.total));
  const more = page.returned >= page.top && (page.total === undefined || page.skip + page.returned < page.total);
  if (!more) return;
  const [path, query = ''] = request.url.split('?', 2);
  const params = new URLSearchParams(query);
  params.set('$skip', String(page.skip + page.returned));
  params.set('$top', String(page.top));
  reply.header('Link', `<${path}?${params.toString().replaceAll('%24', '$')}>; rel="next"`);
}
