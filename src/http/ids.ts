import { Type } from 'typebox';
import { MAX_ID } from '../shared/ids.js';

export { MAX_ID };

/** A larger number than a 32-bit id column holds is a 400, not a database error. */
export const IdSchema = (options: { description?: string } = {}) => Type.Integer({ minimum: 1, maximum: MAX_ID, ...options });
