import { Type } from 'typebox';

/**
 * The paging parameters of every list route, defined once. Both are bounded: an unbounded
 * integer lets `$skip=1e20` through validation (it is an integer) and into SQL, where it overflows.
 */
export const MAX_SKIP = 1_000_000_000;

export const Top = (maximum = 1000) => Type.Integer({ minimum: 1, maximum, default: 100, description: `Page size, 1 to ${maximum}` });
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
