import { Type } from 'typebox';

/**
 * The paging parameters of every list route, defined once. Both are bounded: an unbounded
 * integer lets `$skip=1e20` through validation (it is an integer) and into SQL, where it overflows.
 */
export const MAX_SKIP = 1_000_000_000;

export const Top = (maximum = 1000) => Type.Integer({ minimum: 1, maximum, default: 100, description: `Page size, 1 to ${maximum}` });
export const Skip = () => Type.Integer({ minimum: 0, maximum: MAX_SKIP, default: 0, description: 'Records to skip before the page' });

export const PageQuery = Type.Object({ $top: Top(), $skip: Skip() });
