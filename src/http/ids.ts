import { Type } from 'typebox';

/** Ids are 32-bit integer columns on PostgreSQL: a larger number is a 400, not a database error. */
export const MAX_ID = 2_147_483_647;
export const IdSchema = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });
